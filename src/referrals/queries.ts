/**
 * The referral program's reads as react-query queries (retried on failures that may pass, refreshed while open), and
 * the status page's leaderboard choice as a mutation.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchLeaderboard, fetchStatus, putLeaderboardChoice, StatusTokenRefusedError, type PersonalStatus } from "./api";

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
    queryKey: statusKey(token),
    queryFn: ({ signal }) => fetchStatus(token ?? "", signal),
    enabled: token !== null,
    retry: shouldRetryReferralRead,
    refetchInterval: STATUS_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

function statusKey(token: string | null) {
  return ["referral-status", token] as const;
}

/**
 * Show or hide the person on the leaderboard; once the service stored it, the status on screen says so. Not retried:
 * the visitor sees the failure and presses again.
 * @param token the status page's token
 */
export function useLeaderboardChoice(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shown: boolean) => putLeaderboardChoice(token, shown),
    onSuccess: (leaderboardShown) =>
      client.setQueryData<PersonalStatus>(statusKey(token), (status) => status && { ...status, leaderboardShown }),
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
