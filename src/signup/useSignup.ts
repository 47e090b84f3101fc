import { useMutation } from "@tanstack/react-query";
import { subscribe, type ProviderConfig } from "./client";
import type { Submission } from "./submission";
import { shouldRetrySignup, signupRetryDelay } from "./queryClient";

/** In demo mode a signup "succeeds" after this delay and nothing is sent (ms; product rule 15). */
export const DEMO_SUBMIT_DELAY_MS = 1_500;

/**
 * The signup as a react-query mutation: network failures, 5xx and 429 are retried
 * with product rule 9's backoff or the provider's `Retry-After` (the form stays submitting
 * meanwhile); configuration errors and refusals are not. In demo mode (`provider.demoMode`, the
 * build's decision) it resolves after DEMO_SUBMIT_DELAY_MS without a request.
 * @param provider transport, endpoint, public API key, list id, custom source and demo mode
 */
export function useSignup(provider: ProviderConfig) {
  return useMutation<void, Error, Submission>({
    mutationKey: ["signup"],
    mutationFn: (submission) =>
      provider.demoMode ? new Promise<void>((resolve) => setTimeout(resolve, DEMO_SUBMIT_DELAY_MS)) : subscribe(provider, submission),
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
}
