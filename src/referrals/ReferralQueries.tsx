/**
 * The query client of the referral program's reading pages (/status/ and /leaderboard/), the only
 * pages that read from the waitlist service. It lives with those pages, not around the whole app,
 * so that the signup page never loads react-query (its signup loads its own engine when the form is
 * first used: src/signup/useSignup.ts).
 */
import React, { useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { retryDelay } from "../signup/retryPolicy";

/** Garbage-collection time of unused cache entries (ms): a visitor who leaves and comes back within it sees the last read at once. */
export const GC_TIME_MS = 5 * 60 * 1_000;

/**
 * Provides one QueryClient for the page's life, with product rule 9's backoff between retries
 * (each query sets how often it retries: src/referrals/queries.ts).
 */
export function ReferralQueries({ children }: { children: React.ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retryDelay, gcTime: GC_TIME_MS } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
