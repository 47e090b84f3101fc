import { lazy, Suspense } from "react";
import { graphql } from "gatsby";
import { APPLE_TOUCH_ICON, FAVICONS, MANIFEST_PATH } from "../icons";
import { isPrerenderedView } from "../lib/pageView";

// In the browser Helmet is needed only from the first client-side navigation on (see Seo), so it is fetched then.
const Helmet = lazy(() => import("react-helmet").then((module) => ({ default: module.Helmet })));

export interface SeoProps {
  /** Site-wide head data from the page's query (fragment SeoContent below). */
  content: Queries.SeoContentFragment;
  /** The browser tab title. */
  title: string;
  /** This page's own summary for search results and shared links; the site's `metaDescription` when left out. */
  description?: string | null;
  /** Site-relative path of this page, for the canonical URL (e.g. "/"); null for pages with no address of their own (404). */
  path: string | null;
  /** Keep this page out of search results (/success, 404). */
  noindex?: boolean;
}

/**
 * Head tags through react-helmet. A prerendered page already has them, so in the browser Helmet is
 * not mounted until a client-side navigation (it would only redo every tag). The Suspense boundary
 * is there either way, so hydration meets the tree the server rendered.
 */
export function Seo(props: SeoProps) {
  return <Suspense fallback={null}>{isPrerenderedView() ? null : <HeadTags {...props} />}</Suspense>;
}

/** The head tags themselves, through Helmet. */
function HeadTags({ content: { site }, title, description: ownDescription, path, noindex = false }: SeoProps) {
  const description = ownDescription ?? site.metaDescription;
  const canonical = path === null ? null : new URL(path, site.url).toString();
  const image = new URL(site.socialImage.src, site.url).toString();
  return (
    <Helmet htmlAttributes={{ lang: site.language }}>
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta name="theme-color" content={site.themeColor} />
      {noindex ? <meta name="robots" content="noindex" /> : null}
      {canonical ? <link rel="canonical" href={canonical} /> : null}
      {FAVICONS.map((icon) => (
        // An SVG scales to any size, so it carries no `sizes`.
        <link key={icon.src} rel="icon" href={icon.src} sizes={icon.sizes === "any" ? undefined : icon.sizes} type={icon.type} />
      ))}
      <link rel="apple-touch-icon" href={APPLE_TOUCH_ICON} />
      <link rel="manifest" href={MANIFEST_PATH} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={site.brandName} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {canonical ? <meta property="og:url" content={canonical} /> : null}
      <meta property="og:image" content={image} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta property="og:image:alt" content={site.socialImage.alt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      <meta name="twitter:image:alt" content={site.socialImage.alt} />
    </Helmet>
  );
}

export const query = graphql`
  fragment SeoContent on SiteContent {
    site {
      url
      language
      brandName
      themeColor
      metaDescription
      socialImage {
        src
        alt
      }
    }
  }
`;
