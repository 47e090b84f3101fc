import { useMutation } from "@tanstack/react-query";
import { subscribe, type ProviderConfig } from "./client";
import type { SignupAnswer, Submission } from "./submission";
import { shouldRetrySignup, signupRetryDelay } from "./queryClient";
import type { SignupVerification } from "./turnstile";

/** In demo mode a signup "succeeds" after this delay and nothing is sent (ms; product rule 15). */
export const DEMO_SUBMIT_DELAY_MS = 1_500;

/**
 * The signup as a react-query mutation: network failures, 5xx and 429 are retried
 * with product rule 9's backoff or the provider's `Retry-After` (the form stays submitting
 * meanwhile); configuration errors and refusals are not. In demo mode (`provider.demoMode`, the
 * build's decision) it resolves after DEMO_SUBMIT_DELAY_MS without a request.
 *
 * With a robot check (Turnstile, waitlist-api only), every attempt carries a token of its own: Cloudflare
 * accepts each token once, so an attempt that failed spends its token and the retry waits for a new one.
 * @param provider transport, endpoint, public API key, list id, custom source and demo mode
 * @param verification the form's Turnstile widget, when it has one
 * @returns the mutation; its data is what the waitlist service answered about the signup (undefined on the other transports and in demo mode)
 */
export function useSignup(provider: ProviderConfig, verification?: SignupVerification | null) {
  return useMutation<SignupAnswer | undefined, Error, Submission>({
    mutationKey: ["signup"],
    mutationFn: async (submission) => {
      if (provider.demoMode) return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), DEMO_SUBMIT_DELAY_MS));
      const turnstileToken = verification ? await verification.token() : undefined;
      try {
        return await subscribe(provider, turnstileToken ? { ...submission, turnstileToken } : submission);
      } catch (error) {
        if (turnstileToken) verification?.spent();
        throw error;
      }
    },
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
}
