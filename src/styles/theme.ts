/**
 * The dark theme: the colours, space, shadows, layers, radii, fonts and breakpoints the public pages draw with (the
 * console adds its own tokens in src/console/theme.ts, so that no public page carries them). Line widths, control
 * heights, small type sizes, the lift and faded opacities stay literals in the public styles: each token
 * interpolated into a styled template weighs more in the page's scripts than the literal it replaces.
 * Text colours keep at least 4.5:1 (WCAG 2.2 AA) on `background` and `surface`. Import the object directly where a
 * style depends on nothing else: styled-components then computes the class once instead of on every render.
 */
export const theme = {
  colors: {
    background: "#0b1020",
    backgroundGlow: "#13254a",
    surface: "#121a2e",
    surfaceRaised: "#1a2440",
    border: "#2a3656",
    /** Text-field outline: at least 3:1 against the field and the card around it (WCAG 1.4.11), unlike `border`. */
    inputBorder: "#6b7a9c",
    text: "#f4f6fb",
    textMuted: "#b4bdd1",
    placeholder: "#8b96ae",
    accent: "#34d399",
    accentStrong: "#10b981",
    onAccent: "#04140d",
    focus: "#fbbf24",
    gold: "#fbbf24",
    errorSurface: "#3f1118",
    errorBorder: "#f87171",
    errorText: "#fee2e2",
    successSurface: "#0f2e22",
    successBorder: "#34d399",
    successText: "#d1fae5",
    decoration: "#7c8db5",
    /** The card's surface, slightly see-through so the background glow shows at its edges. */
    surfaceTranslucent: "rgb(18 26 46 / 88%)",
    /** A light wash over a control the pointer is on. */
    hoverTint: "rgb(255 255 255 / 10%)",
    /** Discord's brand colour ("Blurple") and the white its guidelines put on it. */
    discord: "#5865f2",
    onDiscord: "#ffffff",
  },
  /** Spacing steps for gaps, padding and margins. */
  space: {
    hairline: "2px",
    xxs: "4px",
    xs: "6px",
    sm: "8px",
    md: "10px",
    lg: "12px",
    xl: "14px",
    /** The page's side gutter and the inset of pop-ups from the viewport's edge. */
    base: "16px",
    xxl: "20px",
    xxxl: "24px",
    huge: "28px",
    vast: "32px",
    giant: "40px",
    /** A toast's right padding: room for its 28 px close button and the gap beside it. */
    toastCloseRoom: "44px",
  },
  /** Drop shadows, by what casts them: the page's card, pop-ups over the page (toasts, consent banner), tooltips. */
  shadows: {
    card: "0 24px 64px rgb(0 0 0 / 45%)",
    popup: "0 12px 32px rgb(0 0 0 / 45%)",
    tooltip: "0 8px 24px rgb(0 0 0 / 40%)",
  },
  /**
   * Stacking order (z-index), bottom to top: the floating decoration behind everything, the page (its
   * footer and the decoration's pause button included), tooltips, the consent banner, and toasts, which
   * must stay readable above all.
   */
  layers: { decoration: 0, page: 1, tooltip: 50, toasts: 100 },
  radii: { small: "8px", medium: "14px", large: "22px", pill: "999px" },
  fonts: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    mono: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
  },
  /** Breakpoint between phone and wider layouts (px). */
  breakpoints: { tablet: "640px" },
} as const;

export type Theme = typeof theme;
