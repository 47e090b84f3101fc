/**
 * The retry policy of a signup (product rule 9: 3 retries, exponential backoff capped at 30 s),
 * as functions of the failure count and error that react-query's `retry` and `retryDelay` take.
 * No library imports: the signup's first bundle carries it, the retrying engine loads later.
 */
import { SignupNetworkError, SignupServerError, SignupThrottledError } from "./errors";

/** Retries after the first attempt (product rule 9). */
export const MAX_RETRIES = 3;
/** Backoff base: the first retry waits this long, each next one twice as long (ms). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Backoff cap (ms; product rule 9). */
export const RETRY_MAX_DELAY_MS = 30_000;

/**
 * Exponential backoff: 1 s, 2 s, 4 s, … capped at 30 s.
 * @param failureCount failures so far, starting at 0 for the first retry
 * @returns delay in ms
 */
export function retryDelay(failureCount: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** failureCount, RETRY_MAX_DELAY_MS);
}

/**
 * Retry what may pass (network failures and timeouts, 5xx, 429), at most MAX_RETRIES
 * times in all; configuration errors, a refused address and any other refusal fail at once.
 */
export function shouldRetrySignup(failureCount: number, error: unknown): boolean {
  const passing = error instanceof SignupNetworkError || error instanceof SignupServerError || error instanceof SignupThrottledError;
  return passing && failureCount < MAX_RETRIES;
}

/**
 * How long to wait before the next signup attempt: what a 429's `Retry-After` asked for,
 * capped at product rule 9's 30 s backoff cap; otherwise (or when the page could not read the
 * header) the exponential backoff.
 * @param failureCount failures so far, starting at 0 for the first retry
 * @param error the failure being retried
 * @returns delay in ms
 */
export function signupRetryDelay(failureCount: number, error: unknown): number {
  if (error instanceof SignupThrottledError && error.retryAfterMs !== null) return Math.min(error.retryAfterMs, RETRY_MAX_DELAY_MS);
  return retryDelay(failureCount);
}
