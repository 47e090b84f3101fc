import { theme } from "./theme";

/**
 * Page-wide base styles: system fonts (no webfont, so no font-swap shift), a visible focus ring,
 * reduced motion honoured. Plain CSS in every page's <head>, not createGlobalStyle, which would
 * compile the same unchanging rules again in the browser.
 */
export const GLOBAL_CSS = [
  "*,*::before,*::after{box-sizing:border-box}",
  "html{-webkit-text-size-adjust:100%;color-scheme:dark}",
  `body{margin:0;min-height:100vh;background:radial-gradient(120% 80% at 50% 0%,${theme.colors.backgroundGlow} 0%,${theme.colors.background} 60%) fixed,${theme.colors.background};` +
    `color:${theme.colors.text};font-family:${theme.fonts.body};line-height:1.5;-webkit-font-smoothing:antialiased}`,
  `a{color:${theme.colors.accent}}`,
  `:focus-visible{outline:3px solid ${theme.colors.focus};outline-offset:3px}`,
  "@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation:none!important;transition:none!important}}",
].join("");

/** The id of the <style> element that carries GLOBAL_CSS. */
export const GLOBAL_STYLE_ID = "global-style";

/** The <style> element for the page's <head> (gatsby-ssr.tsx). */
export function GlobalStyleElement() {
  return <style id={GLOBAL_STYLE_ID} dangerouslySetInnerHTML={{ __html: GLOBAL_CSS }} />;
}
