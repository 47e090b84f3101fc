/**
 * The console's theme: the site's (src/styles/theme.ts) and the tokens only the console draws with, kept here so
 * that the public pages, which load the site's theme, do not carry them.
 */
import { theme as siteTheme } from "../styles/theme";

export const theme = {
  ...siteTheme,
  colors: {
    ...siteTheme.colors,
    /** The signups chart's series, in order (sources past the last take its colours again). */
    chartSeries: ["#34d399", "#60a5fa", "#fbbf24", "#f472b6", "#a78bfa", "#fb923c", "#2dd4bf", "#f87171"],
    /** The chart's grid lines. */
    chartGrid: "rgb(255 255 255 / 12%)",
    /** Behind a dialog: the page dimmed. */
    scrim: "rgb(0 0 0 / 60%)",
  },
  /** Line widths: borders, and the focus ring of the console's dense screens, thinner than the public pages' 3px. */
  lines: { border: "1px", focusThin: "2px" },
  /** The height of the console's dense controls, above WCAG 2.5.8's 24 px. */
  controls: { compact: "36px" },
  /** A control faded while its request is under way. */
  opacities: { busy: 0.7 },
} as const;
