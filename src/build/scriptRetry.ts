/**
 * How a page retries a script that failed to load: Gatsby's first scripts (the inline loader, deferScripts.ts) and the
 * chunks webpack loads later (RetryChunkLoadPlugin, gatsby-node.ts). Gatsby renders nothing when one of a page's
 * scripts is missing, so without a retry one dropped request leaves the page as prerendered for good: a status page
 * with dashes where the person's standing belongs; a chunk whose request stalls counts as failed after a timeout.
 * Build-time only.
 */

/** Retries after the first attempt. */
export const SCRIPT_LOAD_RETRIES = 3;

/** The first retry waits this long, each next one twice as long (ms): a dropped connection is usually back at once. */
export const SCRIPT_RETRY_BASE_DELAY_MS = 500;

/**
 * How long webpack waits for a chunk's script before it counts the load as failed and the retry asks again (ms):
 * a request that gets no answer at all (a stalled connection) would otherwise hold the page for webpack's default
 * two minutes. Long enough for a small chunk on a slow phone connection.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 15_000;

/** The webpack plugin's `retryDelay`: the same backoff, as the source of a function of the retry's number (1, 2, …). */
export const WEBPACK_RETRY_DELAY = `function(attempt){return ${SCRIPT_RETRY_BASE_DELAY_MS}*Math.pow(2,attempt-1)}`;
