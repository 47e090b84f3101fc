/**
 * Whether `gatsby build` keeps webpack's persistent cache (`.cache/webpack/`).
 *
 * The cache speeds up a build that follows another in the same folder (about 16 s instead of
 * 30 s here), but writing it costs every build that does not: to know when to throw it away,
 * webpack resolves every file Gatsby's webpack setup and loaders require (some 3,500, twice, once
 * per bundle) and saves two 25 MB packs, about 8 s of a 38 s clean build on this 2-core machine.
 * The production build is a clean build (CI, and hosts such as Netlify or Cloudflare Pages start
 * from a fresh clone), so it skips the cache; a build that is repeated in the same folder (the
 * browser tests build the fixture twice per run, and again on the next run) asks for it with
 * WEBPACK_PERSISTENT_CACHE=1. `gatsby develop` keeps its own cache either way. Build-time only.
 */

/** Set to "1" to keep webpack's persistent cache in `gatsby build`. */
export const PERSISTENT_CACHE_VAR = "WEBPACK_PERSISTENT_CACHE";

/** The webpack stages of `gatsby build` whose cache this decides (the browser bundles and the HTML renderer). */
const BUILD_STAGES = ["build-javascript", "build-html"];

/**
 * Whether to turn webpack's persistent cache off for this stage.
 * @param stage Gatsby's webpack stage, e.g. "build-javascript" or "develop"
 */
export function skipsPersistentCache(stage: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return BUILD_STAGES.includes(stage) && env[PERSISTENT_CACHE_VAR] !== "1";
}
