/**
 * What the sitemap lists (gatsby-plugin-sitemap's resolvePages): the pages people should find in
 * search, never the personal or after-signup ones.
 * @jest-environment node
 */
import { sitemapPages } from "../../src/build/sitemap";

const built = (...paths: string[]) => ({
  allSiteContent: {
    nodes: ["/", "/nba-ads/"].map((pagePath) => ({ derived: { pagePath }, site: { url: "https://www.pickfund.example" } })),
  },
  allSitePage: { nodes: paths.map((path) => ({ path })) },
});

describe("the sitemap's pages", () => {
  it("are the signup pages, the giveaway draw, the transparency record and the leaderboard while the referral program runs, never /success/, /status/, /console/ or 404", () => {
    const pages = sitemapPages(
      built(
        "/",
        "/success/",
        "/status/",
        "/leaderboard/",
        "/console/",
        "/404/",
        "/404.html",
        "/nba-ads/",
        "/giveaway/draw/",
        "/transparency/",
      ),
    );
    expect(pages.map(({ path }) => path)).toEqual(["/", "/giveaway/draw/", "/leaderboard/", "/nba-ads/", "/transparency/"]);
  });

  it("are the signup pages and the giveaway draw when the program is off (the build has no /leaderboard/ then)", () => {
    expect(sitemapPages(built("/", "/success/", "/nba-ads/", "/giveaway/draw/")).map(({ path }) => path)).toEqual([
      "/",
      "/giveaway/draw/",
      "/nba-ads/",
    ]);
  });
});
