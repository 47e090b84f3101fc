/**
 * The query client of /status/ and /leaderboard/, the only pages that read from the service.
 * It wraps those pages, not the app, so that the signup page never loads react-query.
 */
import React, { useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { retryDelay } from "../lib/backoff";

/** Garbage-collection time of unused cache entries (ms): a visitor who leaves and comes back within it sees the last read at once. */
export const GC_TIME_MS = 5 * 60 * 1_000;

/** One QueryClient for the page's life, with product rule 9's backoff; each query sets its retry count (queries.ts). */
export function ReferralQueries({ children }: { children: React.ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retryDelay, gcTime: GC_TIME_MS } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
