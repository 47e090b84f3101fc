import { useMutation } from "@tanstack/react-query";
import { subscribe, type ProviderConfig, type Submission } from "./client";
import { shouldRetrySignup, signupRetryDelay } from "./queryClient";

/** Spec §7, §9: in demo mode a signup "succeeds" after this delay and nothing is sent (ms). */
export const DEMO_SUBMIT_DELAY_MS = 1_500;

/** Demo mode: the component was given neither a public API key nor a list id (spec §7). */
export function isDemoProvider(provider: ProviderConfig): boolean {
  return !provider.publicApiKey && !provider.listId;
}

/**
 * The signup as a react-query mutation: network failures, 5xx and 429 are retried
 * with the spec's backoff or the provider's `Retry-After` (the form stays submitting
 * meanwhile); configuration errors and refusals are not. In demo mode it resolves after DEMO_SUBMIT_DELAY_MS without a request.
 * @param provider transport, endpoint, public API key, list id and custom source
 */
export function useSignup(provider: ProviderConfig) {
  return useMutation<void, Error, Submission>({
    mutationKey: ["signup"],
    mutationFn: (submission) =>
      isDemoProvider(provider)
        ? new Promise<void>((resolve) => setTimeout(resolve, DEMO_SUBMIT_DELAY_MS))
        : subscribe(provider, submission),
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
}
