/**
 * The dark theme: one object for colours, spacing and type, used through
 * styled-components' ThemeProvider. Text colours are chosen for a contrast of
 * at least 4.5:1 (WCAG 2.2 AA) on `background` and `surface`.
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
  },
  radii: { small: "8px", medium: "14px", large: "22px", pill: "999px" },
  fonts: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    mono: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
  },
  /** Breakpoint between phone and wider layouts (px). */
  breakpoints: { tablet: "640px" },
} as const;

/** The theme's type, for styled-components' DefaultTheme. */
export type Theme = typeof theme;
