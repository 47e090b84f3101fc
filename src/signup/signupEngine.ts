/**
 * The engine that sends a signup and retries it: react-query's MutationObserver (from
 * `@tanstack/query-core`, without the React bindings), with product rule 9's retry policy.
 * Loaded on its own, when the form is first used (useSignup's `prepare`), so that a page view
 * that never touches the form never downloads or parses it.
 */
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import type { SignupAnswer, Submission } from "./submission";
import { shouldRetrySignup, signupRetryDelay } from "./retryPolicy";

/** Sends one signup: the transport's request, with its Turnstile token when the form has one. */
export type SendSignup = (submission: Submission) => Promise<SignupAnswer | undefined>;

let client: QueryClient | null = null;

/**
 * Run one signup to its end: network failures, 5xx and 429 are retried with product rule 9's
 * backoff or the provider's `Retry-After` (shouldRetrySignup, signupRetryDelay); configuration
 * errors and refusals are not.
 * @param send one attempt
 * @param submission what the visitor typed, trimmed and checked
 * @returns what the last attempt resolved with
 * @throws the last attempt's error once no retry is left
 */
export function runSignup(send: SendSignup, submission: Submission): Promise<SignupAnswer | undefined> {
  client ??= new QueryClient();
  const observer = new MutationObserver<SignupAnswer | undefined, Error, Submission>(client, {
    mutationKey: ["signup"],
    mutationFn: send,
    retry: shouldRetrySignup,
    retryDelay: signupRetryDelay,
    // An offline browser must fail and show the toast, not wait silently for the network to return.
    networkMode: "always",
  });
  return observer.mutate(submission);
}
