/**
 * Every number the bench measures against, with where it comes from: the performance
 * budget (Lighthouse, layout shift, LCP against the no-JS floor, JavaScript size).
 * A budget holds on the median of LIGHTHOUSE_RUNS runs and, where a "worst" bound is
 * set, on the worst run too: a budget that only the median meets fails some visitors.
 */

/** Lighthouse mobile performance score (Lighthouse's default config): the median run must score this… */
export const PERFORMANCE_MEDIAN_MIN_MOBILE = 100;
/** …and the worst run at least this: a slow run may lose a few points to noise, never to the page. */
export const PERFORMANCE_WORST_MIN_MOBILE = 97;
/** Lighthouse performance score target with Lighthouse's desktop config (median). */
export const PERFORMANCE_MIN_DESKTOP = 100;
/**
 * Accessibility, best practices and SEO must each score this on both pages and both form factors: every point
 * lost is an audit Lighthouse names, so there is no reason to ship with it (product rules 23 and 24).
 */
export const CATEGORY_MIN_SCORE = 100;
/** No layout shift at all, in any run. */
export const CLS_MAX = 0;
/**
 * Mobile LCP ÷ the same page's LCP with every script removed (the "no-JS floor", median of its runs):
 * the median run at most this… Scripts may cost the first paint almost nothing.
 */
export const LCP_FLOOR_RATIO_MEDIAN_MAX = 1.15;
/** …and the worst run at most this. */
export const LCP_FLOOR_RATIO_WORST_MAX = 1.3;
/** Lighthouse mobile Total Blocking Time of the median run (ms): hydration must not hold the main thread. */
export const TBT_MEDIAN_MAX_MS = 100;

/**
 * First-load JavaScript of a Gatsby 5 hello-world (gatsby-starter-minimal), gzip, in KB: Gatsby's own
 * floor, which no site built with it can go under. A fixed reference figure, not something this bench measures.
 */
export const GATSBY_HELLO_WORLD_FIRST_LOAD_KB_GZIP = 79;
/** What our own code and libraries may add on top of the hello-world's first load (KB gzip; product rule 24). */
export const FIRST_LOAD_JS_ALLOWANCE_KB_GZIP = 40;
/** The first-load JS budget, hello-world plus allowance (KB gzip). */
export const FIRST_LOAD_JS_BUDGET_KB_GZIP = GATSBY_HELLO_WORLD_FIRST_LOAD_KB_GZIP + FIRST_LOAD_JS_ALLOWANCE_KB_GZIP;
/** gzip level for size figures: 9, as `gzip -9`, gzip-size and size-limit report. Hosts often use 6, about 1% larger. */
export const GZIP_LEVEL = 9;
/** 1 KB = 1024 bytes, as webpack and Gatsby's build output print sizes. */
export const BYTES_PER_KB = 1024;

/**
 * Lighthouse runs per page and form factor; their median and worst are reported. Five runs of four
 * page/form-factor pairs plus the floor take about 8 minutes on 2 quiet cores.
 */
export const LIGHTHOUSE_RUNS = 5;
/** Pages marked noindex on purpose (product rule 3); their SEO target excludes Lighthouse's is-crawlable audit. */
export const NOINDEX_PATHS: readonly string[] = ["/success/"];
/** The pages the bench audits: the signup page and the confirmation page, the two a visitor sees on the way in. */
export const AUDITED_PATHS = ["/", "/success/"] as const;

/** Bundles Gatsby itself ships in every site: counted as "runtime" in the first-load split, since the budget is on what we add over them. */
export const GATSBY_RUNTIME_BUNDLE_PREFIXES = ["framework-", "webpack-runtime-", "polyfill-"];
