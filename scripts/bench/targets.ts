/**
 * Every number the bench measures against, with where it comes from.
 * Issue 5 ("Performance budget") items 1 and 2 are the source unless a line says otherwise.
 */

/** Issue 5: Lighthouse performance score target on mobile emulation (Lighthouse's default config). */
export const PERFORMANCE_MIN_MOBILE = 98;
/** Issue 5: Lighthouse performance score target with Lighthouse's desktop config. */
export const PERFORMANCE_MIN_DESKTOP = 100;
/** Issue 5: accessibility, best practices and SEO must each score this on both pages and both form factors. */
export const CATEGORY_MIN_SCORE = 100;
/** Issue 5: no layout shift at all. */
export const CLS_MAX = 0;
/** Issue 5: mobile LCP may be at most this multiple of the same page's LCP with every script removed (the "no-JS floor"). */
export const LCP_FLOOR_RATIO_MAX = 1.25;

/**
 * Issue 5: first-load JavaScript of a Gatsby 5 hello-world (gatsby-starter-minimal), gzip, in KB.
 * This is the figure, not something this bench measures.
 */
export const GATSBY_HELLO_WORLD_FIRST_LOAD_KB_GZIP = 79;
/** Issue 5: what our own code and libraries may add on top of the hello-world's first load (KB gzip). */
export const FIRST_LOAD_JS_ALLOWANCE_KB_GZIP = 40;
/** Issue 5: the first-load JS budget, hello-world plus allowance (KB gzip). */
export const FIRST_LOAD_JS_BUDGET_KB_GZIP = GATSBY_HELLO_WORLD_FIRST_LOAD_KB_GZIP + FIRST_LOAD_JS_ALLOWANCE_KB_GZIP;
/** gzip level for size figures: 9, as `gzip -9`, gzip-size and size-limit report. Hosts often use 6, about 1% larger. */
export const GZIP_LEVEL = 9;
/** 1 KB = 1024 bytes, as webpack and Gatsby's build output print sizes. */
export const BYTES_PER_KB = 1024;

/** Issue 5: Lighthouse runs per page and form factor; the median of these is reported. */
export const LIGHTHOUSE_RUNS = 3;
/** Issue 5 §4: pages marked noindex on purpose; their SEO target excludes Lighthouse's is-crawlable audit. */
export const NOINDEX_PATHS: readonly string[] = ["/success/"];
/** Issue 5: the pages the bench audits. */
export const AUDITED_PATHS = ["/", "/success/"] as const;

/** Bundles Gatsby itself ships in every site: counted as "runtime" in the first-load split (brief, item 5). */
export const GATSBY_RUNTIME_BUNDLE_PREFIXES = ["framework-", "webpack-runtime-", "polyfill-"];
