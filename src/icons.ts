/**
 * The site's icons in static/, one list for the page's <head> and the web app manifest. No imports:
 * the browser bundle and gatsby-node both read it.
 */

/** An icon file: site-relative `src`, `sizes` in px as "WxH" (or "any" for SVG), MIME `type`. */
export interface SiteIcon {
  readonly src: string;
  readonly sizes: string;
  readonly type: string;
}

/** `<link rel="icon">` in every page's head: the SVG first, a 32 px PNG for browsers without SVG icons. */
export const FAVICONS: readonly SiteIcon[] = [
  { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
  { src: "/favicon-32.png", sizes: "32x32", type: "image/png" },
];

/** `<link rel="apple-touch-icon">`: the home-screen icon iOS uses (180×180 px PNG). */
export const APPLE_TOUCH_ICON = "/apple-touch-icon.png";

/** The web app manifest's `icons`: 192 and 512 px PNGs (the sizes Android asks for) and the SVG. */
export const MANIFEST_ICONS: readonly SiteIcon[] = [
  { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
  { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
  { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
];

/** Site-relative path of the web app manifest. */
export const MANIFEST_PATH = "/manifest.webmanifest";
