import type { GatsbySSR } from "gatsby";
import { GlobalStyleElement } from "./src/styles/globalCss";

export { wrapPageElement, wrapRootElement } from "./src/root/wrappers";

/**
 * The id of the last element of every page's markup: Gatsby's route announcer, which
 * it renders after the page, empty, on every page.
 */
const END_OF_PAGE_ID = "gatsby-announcer";

/**
 * No paint of a half-parsed page. A slow phone's parser can pause midway through the
 * HTML and let the browser paint what it has: a card holding half the form, centred in
 * the viewport, which then jumps up when the rest arrives (a layout shift of 0.1 to 0.4,
 * seen in traces of slow runs). `<link rel="expect" blocking="render">` holds rendering
 * until the parser has reached the given element, so the first paint is the whole page.
 * Browsers that do not know it ignore it and paint as before.
 *
 * The page-wide base styles go into the head as they are (see src/styles/globalCss.tsx).
 */
export const onRenderBody: GatsbySSR["onRenderBody"] = ({ setHeadComponents }) => {
  setHeadComponents([
    <link key="expect-whole-page" rel="expect" href={`#${END_OF_PAGE_ID}`} {...{ blocking: "render" }} />,
    <GlobalStyleElement key="global-style" />,
  ]);
};
