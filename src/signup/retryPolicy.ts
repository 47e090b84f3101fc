/**
 * The query/cache client and the retry policy of the signup
 * mutation (product rule 9: 3 retries, exponential backoff capped at 30 s; 5 min gc time).
 */
import { QueryClient } from "@tanstack/react-query";
import { SignupNetworkError, SignupServerError, SignupThrottledError } from "./client";

/** Retries after the first attempt (product rule 9). */
export const MAX_RETRIES = 3;
/** Backoff base: the first retry waits this long, each next one twice as long (ms). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Backoff cap (ms; product rule 9). */
export const RETRY_MAX_DELAY_MS = 30_000;
/** Garbage-collection time of unused cache entries (ms): long enough to outlive a signup's retries. */
export const GC_TIME_MS = 5 * 60 * 1_000;

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

/**
 * A QueryClient with product rule 9's defaults. The signup mutation (useSignup) sets its
 * own retry rule from the same policy: only network failures, `networkMode: "always"`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: MAX_RETRIES, retryDelay, gcTime: GC_TIME_MS },
    },
  });
}
