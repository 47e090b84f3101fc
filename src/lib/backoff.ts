/**
 * The backoff the page's retries share (product rule 9): the signup's, and the referral pages' reads. It imports
 * nothing, so that a page that only retries its reads does not load the signup's failures with it.
 */

/** Backoff base: the first retry waits this long, each next one twice as long (ms). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Backoff cap (ms; product rule 9). */
export const RETRY_MAX_DELAY_MS = 30_000;

/**
 * Exponential backoff from RETRY_BASE_DELAY_MS, doubling, capped at RETRY_MAX_DELAY_MS: react-query's `retryDelay`.
 * @param failureCount failures so far, starting at 0 for the first retry
 * @returns delay in ms
 */
export function retryDelay(failureCount: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** failureCount, RETRY_MAX_DELAY_MS);
}
