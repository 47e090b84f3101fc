/**
 * Every number the bench measures against, with where it comes from. Lighthouse figures are
 * held on every one of LIGHTHOUSE_RUNS runs unless a target says "median": a budget that only
 * the median meets fails the visitors who got the other runs.
 */

/**
 * Lighthouse mobile performance score (Lighthouse's default config: a mid-range phone on slow 4G)
 * in EVERY run of every audited page. The page is static HTML with all its copy; whatever keeps it
 * from 100 is work of ours, so no run may lose a point, to a slow run of the machine or otherwise.
 */
export const PERFORMANCE_MIN_MOBILE = 100;
/** Lighthouse performance score with Lighthouse's desktop config (median): a desktop has no excuse a phone has. */
export const PERFORMANCE_MIN_DESKTOP = 100;
/**
 * Accessibility, best practices and SEO must each score this (median) on every audited page and both
 * form factors: every point lost is an audit Lighthouse names, so there is no reason to ship with it.
 */
export const CATEGORY_MIN_SCORE = 100;
/** No layout shift at all, in any run: the prerendered page is the finished page (static HTML carries all copy). */
export const CLS_MAX = 0;
/**
 * Mobile LCP of every run ÷ the median LCP of the same page with every script removed (the "no-JS
 * floor", measured alternately with it). Scripts start only once the page has painted, so they may
 * cost the paint nothing: the 5% is room for the spread between runs, not for any work of ours.
 */
export const LCP_FLOOR_RATIO_MAX = 1.05;
/**
 * Lighthouse mobile Total Blocking Time of the worst run (ms), on every audited page. Lighthouse
 * scores TBT ≤ 200 ms as good, but the page's own work after the paint is hydration of content that is
 * already on screen: a visitor who taps during it must get an answer at once, and 50 ms is the
 * long-task threshold TBT itself is built on (one task just over it already counts).
 */
export const TBT_WORST_MAX_MS = 50;

/**
 * What `/` of Gatsby's hello-world (gatsby-starter-minimal, no plugins, this repository's Gatsby and React)
 * fetches without interaction (gzip KB): Gatsby's floor. A fixed reference, not measured per run; to
 * measure it again, build the starter and run js-size.ts's scriptsFetchedWithoutInteraction and
 * measurePageJs on its public/, then update this value.
 */
export const GATSBY_HELLO_WORLD_JS_KB_GZIP = 66.9;
/**
 * What our own code and libraries may add on top of the hello-world on `/` (gzip KB): the signup page is
 * a form, a countdown and some copy, and "load nothing a page does not use until it is used" keeps what
 * only an interaction needs (tooltips, the toaster, the signup transport) out of the first view.
 */
export const PAGE_JS_ALLOWANCE_KB_GZIP = 30;
/** The JavaScript budget of `/`, hello-world plus allowance (gzip KB). */
export const PAGE_JS_BUDGET_KB_GZIP = GATSBY_HELLO_WORLD_JS_KB_GZIP + PAGE_JS_ALLOWANCE_KB_GZIP;
/** 1 KB = 1024 bytes, as webpack and Gatsby's build output print sizes. */
export const BYTES_PER_KB = 1024;

/** A clean `gatsby build` (s): what CI and a cacheless host pay per deploy, and an editor waits after a Publish. */
export const CLEAN_BUILD_MAX_S = 30;

/**
 * Lighthouse runs per page and form factor (and of each page's no-JS floor); their median and worst
 * are reported. Five runs: Lighthouse's own guidance on variability takes the median of five.
 */
export const LIGHTHOUSE_RUNS = 5;
/** Pages marked noindex on purpose (product rule 3); their SEO target excludes Lighthouse's is-crawlable audit. */
export const NOINDEX_PATHS: readonly string[] = ["/success/"];
/**
 * The pages the bench audits when the build has them (the pages a visitor sees on the way in and comes back
 * to); run.ts adds the first campaign page, and features-build.ts supplies a page the production build lacks.
 */
export const AUDITED_PATHS = ["/", "/success/", "/leaderboard/", "/transparency/"] as const;

/** Bundles Gatsby itself ships in every site: counted as "runtime" in the JavaScript split. */
export const GATSBY_RUNTIME_BUNDLE_PREFIXES = ["framework-", "webpack-runtime-", "polyfill-"];
