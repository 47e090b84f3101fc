import type { GatsbySSR } from "gatsby";
import { GlobalStyleElement } from "./src/styles/globalCss";

export { wrapPageElement, wrapRootElement } from "./src/app/wrappers";

/**
 * The id of the last element of every page's markup: Gatsby's route announcer, which
 * it renders after the page, empty, on every page.
 */
const END_OF_PAGE_ID = "gatsby-announcer";

/**
 * No paint of a half-parsed page: a slow parser can let the browser paint half the card, which then
 * jumps when the rest arrives. `<link rel="expect" blocking="render">` holds rendering until the
 * parser reaches the last element; browsers that do not know it paint as before.
 */
export const onRenderBody: GatsbySSR["onRenderBody"] = ({ setHeadComponents }) => {
  setHeadComponents([
    <link key="expect-whole-page" rel="expect" href={`#${END_OF_PAGE_ID}`} {...{ blocking: "render" }} />,
    <GlobalStyleElement key="global-style" />,
  ]);
};
