/**
 * The signup's retry policy (product rule 9) as react-query `retry` and `retryDelay` functions.
 * No library imports: the first bundle carries it, the retrying engine loads later. The backoff itself is the
 * page's (src/lib/backoff.ts), which the referral pages' reads share.
 */
import { retryDelay, RETRY_MAX_DELAY_MS } from "../lib/backoff";
import { SignupNetworkError } from "./errors";
import { SignupServerError, SignupThrottledError } from "./temporaryErrors";

/** Retries after the first attempt (product rule 9). */
export const MAX_RETRIES = 3;
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
