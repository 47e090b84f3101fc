/**
 * Whether `gatsby build` keeps webpack's persistent cache. It speeds up a repeated build in the same
 * folder but writing it slows every clean one, and production builds start from a fresh clone: so
 * it is off unless WEBPACK_PERSISTENT_CACHE=1 (the browser tests). Build-time only.
 */

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
