/**
 * The engine that sends and retries a signup: client.ts run by query-core's MutationObserver with
 * product rule 9's policy. A chunk of its own, so a visit that never uses the form never loads it.
 */
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { subscribe, type ProviderConfig } from "./client";
import { shouldRetrySignup, signupRetryDelay } from "./retryPolicy";
import type { Submission } from "./submission";
import type { SignupVerification } from "./turnstile";

/** In demo mode a signup "succeeds" after this delay and nothing is sent (ms; product rule 15). */
export const DEMO_SUBMIT_DELAY_MS = 1_500;

/** What each attempt sends with, read afresh per attempt (a retry uses what the page has then). */
export interface SignupSettings {
  /** transport, endpoint, public API key, list id, custom source and demo mode */
  provider: ProviderConfig;
  /** the form's Turnstile widget, when it has one */
  verification?: SignupVerification | null;
}

let client: QueryClient | null = null;

/**
 * One attempt. With a robot check (Turnstile, waitlist-api only) it carries a token of its own:
 * Cloudflare accepts each token once, so an attempt that failed spends its token and the retry
 * waits for a new one. In demo mode it resolves after DEMO_SUBMIT_DELAY_MS without a request.
 */
async function attempt({ provider, verification }: SignupSettings, submission: Submission): Promise<void> {
  if (provider.demoMode) return new Promise<void>((resolve) => setTimeout(resolve, DEMO_SUBMIT_DELAY_MS));
  const turnstileToken = verification ? await verification.token() : undefined;
  try {
    return await subscribe(provider, turnstileToken ? { ...submission, turnstileToken } : submission);
  } catch (error) {
    if (turnstileToken) verification?.spent();
    throw error;
  }
}

/**
 * Run one signup to its end, retried by shouldRetrySignup and signupRetryDelay.
 * @param settings called before each attempt
 * @returns once an attempt went through
 * @throws the last attempt's error (src/signup/errors.ts) once no retry is left
 */
export function runSignup(settings: () => SignupSettings, submission: Submission): Promise<void> {
  client ??= new QueryClient();
  const observer = new MutationObserver<void, Error, Submission>(client, {
    mutationKey: ["signup"],
    mutationFn: (values) => attempt(settings(), values),
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
  return observer.mutate(submission);
}
