/**
 * Renders nothing: the page-wide base styles are plain CSS in every page's <head>
 * (globalCss.tsx, written by gatsby-ssr.tsx), no longer a styled-components global style.
 * @deprecated Kept so that the layout, which renders it, keeps building; remove it from there.
 */
export function GlobalStyle() {
  return null;
}
