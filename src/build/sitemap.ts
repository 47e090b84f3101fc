/**
 * gatsby-plugin-sitemap's options: only pages people should find in search (never /success/,
 * /status/ or 404). The site's address comes from the content nodes, not siteMetadata. Build-time only.
 */
import { GIVEAWAY_DRAW_PATH, LEADERBOARD_PATH, TRANSPARENCY_PATH } from "../../shared/routes";

export interface SitemapQueryData {
  allSiteContent: { nodes: { derived: { pagePath: string }; site: { url: string } }[] };
  allSitePage: { nodes: { path: string }[] };
}

/** The query the plugin runs once, after the pages exist. */
export const SITEMAP_QUERY = `
  {
    allSiteContent {
      nodes {
        derived {
          pagePath
        }
        site {
          url
        }
      }
    }
    allSitePage {
      nodes {
        path
      }
    }
  }
`;

/**
 * The site's address, e.g. `https://www.pickfund.com`.
 * @throws Error when the build made no content node (it stops earlier in that case)
 */
export function sitemapSiteUrl(data: SitemapQueryData): string {
  const url = data.allSiteContent.nodes[0]?.site.url;
  if (!url) throw new Error("The sitemap needs site.url from the content, but the build has no content node.");
  return url;
}

/**
 * Built pages people should find in search besides the signup pages: the giveaway draw, where anyone checks the
 * winners, the referral program's leaderboard (built only while the program runs) and the transparency record. The
 * status page is personal and never listed.
 */
export const LISTED_PAGE_PATHS: readonly string[] = [GIVEAWAY_DRAW_PATH, LEADERBOARD_PATH, TRANSPARENCY_PATH];

/** The built pages that are signup pages (a content node's `derived.pagePath`) or LISTED_PAGE_PATHS, in path order. */
export function sitemapPages(data: SitemapQueryData): { path: string }[] {
  const listed = new Set([...data.allSiteContent.nodes.map((node) => node.derived.pagePath), ...LISTED_PAGE_PATHS]);
  return data.allSitePage.nodes.filter((page) => listed.has(page.path)).sort((a, b) => a.path.localeCompare(b.path));
}

export const sitemapOptions = {
  query: SITEMAP_QUERY,
  resolveSiteUrl: sitemapSiteUrl,
  resolvePages: sitemapPages,
  // robots.txt names the sitemap (written after the build), so the pages' <head> stays as it is.
  createLinkInHead: false,
};

/** The sitemap index the plugin writes at the site's root. */
export const SITEMAP_INDEX_PATH = "/sitemap-index.xml";

/** robots.txt from static/ with a `Sitemap:` line naming the index by absolute URL, as search engines expect. */
export function robotsWithSitemap(robots: string, siteUrl: string): string {
  const line = `Sitemap: ${new URL(SITEMAP_INDEX_PATH, siteUrl).toString()}`;
  const kept = robots.split(/\r?\n/).filter((entry) => entry.trim() !== "" && !/^sitemap:/i.test(entry.trim()));
  return `${[...kept, "", line].join("\n")}\n`;
}
