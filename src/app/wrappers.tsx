/** `wrapRootElement` and `wrapPageElement`, shared by gatsby-browser and gatsby-ssr so both render the same tree. */
import type { WrapPageElementBrowserArgs, WrapRootElementBrowserArgs } from "gatsby";
import { Layout, type LayoutContent } from "../components/Layout";
import { AppProviders } from "./AppProviders";

/** Every page's query returns `siteContent { ...LayoutContent }`. */
interface PageData {
  siteContent?: LayoutContent | null;
}

/** App-wide providers, mounted once. */
export function wrapRootElement({ element }: Pick<WrapRootElementBrowserArgs, "element">) {
  return <AppProviders>{element}</AppProviders>;
}

/** The layout around each page, fed from the page's own query. */
export function wrapPageElement({ element, props }: Pick<WrapPageElementBrowserArgs<PageData>, "element" | "props">) {
  return (
    <Layout content={props.data?.siteContent} pathname={props.location.pathname}>
      {element}
    </Layout>
  );
}
