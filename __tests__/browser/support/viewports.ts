/** The phone and desktop sizes the screenshots and the axe scans use (the config's phone and desktop projects). */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

/** A viewport's name. */
export type ViewportName = keyof typeof VIEWPORTS;
