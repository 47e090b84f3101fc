/**
 * How a page retries a script that failed to load: Gatsby's first scripts (the inline loader, deferScripts.ts) and the
 * chunks webpack loads later (RetryChunkLoadPlugin, gatsby-node.ts). Gatsby renders nothing when one of a page's
 * scripts is missing, so without a retry one dropped request leaves the page as prerendered for good: a status page
 * with dashes where the person's standing belongs. Build-time only.
 */

/** Retries after the first attempt. */
export const SCRIPT_LOAD_RETRIES = 3;

/** The first retry waits this long, each next one twice as long (ms): a dropped connection is usually back at once. */
export const SCRIPT_RETRY_BASE_DELAY_MS = 500;

/** The webpack plugin's `retryDelay`: the same backoff, as the source of a function of the retry's number (1, 2, …). */
export const WEBPACK_RETRY_DELAY = `function(attempt){return ${SCRIPT_RETRY_BASE_DELAY_MS}*Math.pow(2,attempt-1)}`;
