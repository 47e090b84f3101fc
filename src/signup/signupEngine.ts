/**
 * The engine that sends a signup and retries it: the signup client (client.ts, every transport)
 * run by react-query's MutationObserver (from `@tanstack/query-core`, without the React bindings)
 * with product rule 9's retry policy. Loaded on its own, when the form is first used (useSignup's
 * `prepare`), so that a page view that never touches the form never downloads or parses it.
 */
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { subscribe, type ProviderConfig } from "./client";
import { shouldRetrySignup, signupRetryDelay } from "./retryPolicy";
import type { SignupAnswer } from "../../shared/contract";
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
async function attempt({ provider, verification }: SignupSettings, submission: Submission): Promise<SignupAnswer | undefined> {
  if (provider.demoMode) return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), DEMO_SUBMIT_DELAY_MS));
  const turnstileToken = verification ? await verification.token() : undefined;
  try {
    return await subscribe(provider, turnstileToken ? { ...submission, turnstileToken } : submission);
  } catch (error) {
    if (turnstileToken) verification?.spent();
    throw error;
  }
}

/**
 * Run one signup to its end: network failures, 5xx and 429 are retried with product rule 9's
 * backoff or the provider's `Retry-After` (shouldRetrySignup, signupRetryDelay); configuration
 * errors and refusals are not.
 * @param settings called before each attempt
 * @param submission what the visitor typed, trimmed and checked
 * @returns what the last attempt resolved with (the waitlist service's answer; undefined on the other transports and in demo mode)
 * @throws the last attempt's error (src/signup/errors.ts) once no retry is left
 */
export function runSignup(settings: () => SignupSettings, submission: Submission): Promise<SignupAnswer | undefined> {
  client ??= new QueryClient();
  const observer = new MutationObserver<SignupAnswer | undefined, Error, Submission>(client, {
    mutationKey: ["signup"],
    mutationFn: (values) => attempt(settings(), values),
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
  return observer.mutate(submission);
}
