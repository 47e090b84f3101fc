/** The referral program's reads as react-query queries: retried on failures that may pass, refreshed while open. */
import { useQuery } from "@tanstack/react-query";
import { fetchLeaderboard, fetchStatus, StatusTokenRefusedError } from "./api";

/** How often an open status page reads the standing again (ms), besides on tab focus: no faster than it changes. */
export const STATUS_REFRESH_MS = 60_000;

/** Retries after a read that may pass (network, timeout, 5xx); a refused token is final. */
export const REFERRAL_READ_RETRIES = 2;

export function shouldRetryReferralRead(failureCount: number, error: unknown): boolean {
  return !(error instanceof StatusTokenRefusedError) && failureCount < REFERRAL_READ_RETRIES;
}

/**
 * A person's standing, by their status token, kept up to date while the page is open.
 * @param token null while there is none (the query then does not run)
 */
export function useStatus(token: string | null) {
  return useQuery({
    queryKey: ["referral-status", token],
    queryFn: ({ signal }) => fetchStatus(token ?? "", signal),
    enabled: token !== null,
    retry: shouldRetryReferralRead,
    refetchInterval: STATUS_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

/** The leaderboard, which the service caches at the edge. */
export function useLeaderboard() {
  return useQuery({
    queryKey: ["referral-leaderboard"],
    queryFn: ({ signal }) => fetchLeaderboard(signal),
    retry: shouldRetryReferralRead,
  });
}
