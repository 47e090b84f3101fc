/**
 * The query/cache client and the retry policy shared by queries and the signup
 * mutation (spec §9: 3 retries, exponential backoff capped at 30 s, 5 min gc time).
 */
import { QueryClient } from "@tanstack/react-query";
import { SignupNetworkError, SignupServerError, SignupThrottledError } from "./client";

/** Spec §9: retries after the first attempt. */
export const MAX_RETRIES = 3;
/** Backoff base: the first retry waits this long, each next one twice as long (ms). */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Spec §9: backoff cap (ms). */
export const RETRY_MAX_DELAY_MS = 30_000;
/** Spec §9: garbage-collection time of unused cache entries (ms). */
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
 * capped at the spec's 30 s backoff cap; otherwise (or when the page could not read the
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
 * A QueryClient with the spec's §9 defaults. The signup mutation (useSignup) sets its
 * own retry rule from the same policy: only network failures, `networkMode: "always"`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: MAX_RETRIES, retryDelay, gcTime: GC_TIME_MS },
    },
  });
}
