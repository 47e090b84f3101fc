import { graphql } from "gatsby";
import { Helmet } from "react-helmet";

/** Site-wide head data (fragment SeoContent). */
export interface SeoSite {
  readonly url: string;
  readonly language: string;
  readonly brandName: string;
  readonly themeColor: string;
  readonly metaDescription: string;
  readonly socialImage: { readonly src: string; readonly alt: string };
}

export interface SeoProps {
  site: SeoSite;
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
 * Head tags through react-helmet: title, description, language, theme colour,
 * icons, manifest, canonical URL, Open Graph and Twitter card.
 */
export function Seo({ site, title, description: ownDescription, path, noindex = false }: SeoProps) {
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
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <link rel="icon" href="/favicon-32.png" sizes="32x32" type="image/png" />
      <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
      <link rel="manifest" href="/manifest.webmanifest" />
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
