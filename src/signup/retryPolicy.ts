/**
 * The signup's retry policy (product rule 9) as react-query `retry` and `retryDelay` functions.
 * No library imports: the first bundle carries it, the retrying engine loads later.
 */
import { SignupNetworkError, SignupServerError, SignupThrottledError } from "./errors";

/** Retries after the first attempt (product rule 9). */
export const MAX_RETRIES = 3;
/** Backoff base: the first retry waits this long, each next one twice as long (ms). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Backoff cap (ms; product rule 9). */
export const RETRY_MAX_DELAY_MS = 30_000;

/**
 * Exponential backoff from RETRY_BASE_DELAY_MS, doubling, capped at RETRY_MAX_DELAY_MS.
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
 * How long to wait before the next attempt: a 429's `Retry-After`, capped at RETRY_MAX_DELAY_MS;
 * otherwise (or when the page could not read it) the exponential backoff.
 * @param failureCount failures so far, starting at 0 for the first retry
 * @returns delay in ms
 */
export function signupRetryDelay(failureCount: number, error: unknown): number {
  if (error instanceof SignupThrottledError && error.retryAfterMs !== null) return Math.min(error.retryAfterMs, RETRY_MAX_DELAY_MS);
  return retryDelay(failureCount);
}
