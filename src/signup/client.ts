/**
 * The signup client: the one call that sends a signup, by the transport content/site.yaml chooses
 * (endpoints.ts; docs/api.md "Signups: Klaviyo transports and what a visitor sees"). Only `legacy-form`'s
 * answer is opaque, so there a call that does not throw counts as success.
 */
import { send } from "../api/client";
import { readProviderAnswer } from "./answer";
import { clientApiRequest } from "./clientApi";
import type { SignupTransport } from "./endpoints";
import type { Submission } from "./submission";
import { readWaitlistAnswer, waitlistApiRequest, type WaitlistAnswer } from "./waitlistApi";
import {
  SignupConfigurationError,
  SignupNetworkError,
  SignupEmailRefusedError,
  SignupVerificationError,
  SignupRejectedError,
} from "./errors";
import { SignupServerError, SignupThrottledError } from "./temporaryErrors";

/** Where and how to subscribe (from content/site.yaml → provider). */
export interface ProviderConfig {
  /** Which call the script makes; `legacy-form` when left out (the older embed endpoint, product rule 17). */
  transport?: SignupTransport;
  /** The transport's endpoint: an absolute URL for Klaviyo's, the path `/api/signups` (same origin) for the service. */
  endpointUrl: string;
  /** Klaviyo public API key (site id); client-api and legacy-form call only when it is set (the service does not need it). */
  publicApiKey?: string | null;
  /**
   * Klaviyo list id (`g` in the legacy form, the list relationship in the Client API); every transport calls only
   * when it is set (the service subscribes to the list of its own settings, which the same build wrote).
   */
  listId?: string | null;
  /** Klaviyo custom source recorded on the profile (waitlist-api and client-api). */
  customSource?: string | null;
  /**
   * Simulate signups and send nothing (product rule 15). The build decides it once
   * (`derived.demoMode`: `provider.demoMode`, or a missing key or list id); the browser only reads it.
   */
  demoMode?: boolean;
}

/** Each attempt is aborted after this long (ms) and counts as a network failure: a visitor waits no longer per try. */
export const SIGNUP_ATTEMPT_TIMEOUT_MS = 5_000;

/**
 * The form-urlencoded body of the legacy form (product rule 17).
 * @returns `g=<listId>&email=…&first_name=…&last_name=…`
 */
export function subscriptionBody(listId: string, submission: Submission): URLSearchParams {
  return new URLSearchParams({ g: listId, email: submission.email, first_name: submission.firstName, last_name: submission.lastName });
}

/** URL and fetch options of the legacy-form call. */
function legacyFormRequest(config: ProviderConfig & { listId: string }, submission: Submission): [string, RequestInit] {
  return [
    config.endpointUrl,
    {
      method: "POST",
      mode: "no-cors",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: subscriptionBody(config.listId, submission),
    },
  ];
}

/**
 * URL and fetch options of the chosen transport's call.
 * @throws SignupConfigurationError when a setting the transport needs is missing
 */
function signupRequest(transport: SignupTransport, config: ProviderConfig, submission: Submission): [string, RequestInit] {
  const { publicApiKey, listId, endpointUrl, customSource } = config;
  if (transport === "waitlist-api") {
    if (!listId) throw new SignupConfigurationError("A list id is required to subscribe.");
    return waitlistApiRequest({ endpointUrl, customSource }, submission);
  }
  if (!publicApiKey || !listId) throw new SignupConfigurationError();
  return transport === "client-api"
    ? clientApiRequest({ endpointUrl, publicApiKey, listId, customSource }, submission)
    : legacyFormRequest({ ...config, listId }, submission);
}

/**
 * Subscribe one visitor to the list.
 * @param timeoutMs per-attempt timeout (ms)
 * @returns once the provider accepted (or, legacy-form, answered opaquely)
 * @throws SignupConfigurationError when the list id (or, for client-api and legacy-form, the public API key) is missing (no request is made)
 * @throws SignupNetworkError when fetch rejects or the attempt (the request and its answer) times out
 * @throws SignupEmailRefusedError, SignupThrottledError, SignupServerError, SignupRejectedError (waitlist-api and client-api)
 *   and SignupVerificationError (waitlist-api) for what the answer said
 */
export async function subscribe(config: ProviderConfig, submission: Submission, timeoutMs = SIGNUP_ATTEMPT_TIMEOUT_MS): Promise<void> {
  const transport = config.transport ?? "legacy-form";
  const [url, init] = signupRequest(transport, config, submission);
  const response = await send(url, init, { timeoutMs, readBody: transport !== "legacy-form" });
  if (!response.answered) {
    const { error, timedOut } = response;
    // The runtime's text, for developers; none after our own timeout.
    throw new SignupNetworkError(!timedOut && error instanceof Error ? error.message : "", { cause: error, timedOut });
  }
  if (transport === "legacy-form") return;
  // The Client API's outcomes are a subset of the service's (its accepted answer has no body).
  const retryAfter = response.headers.get("retry-after");
  const answer: WaitlistAnswer =
    transport === "waitlist-api"
      ? readWaitlistAnswer(response.status, response.body, retryAfter)
      : readProviderAnswer(response.status, response.body, retryAfter);
  switch (answer.outcome) {
    case "accepted":
      return;
    case "emailRefused":
      throw new SignupEmailRefusedError(answer.detail);
    case "verificationRefused":
      throw new SignupVerificationError(answer.detail);
    case "throttled":
      throw new SignupThrottledError(answer.retryAfterMs);
    case "failed":
      throw new SignupServerError(answer.status);
    case "rejected":
      throw new SignupRejectedError(answer.status, answer.detail);
  }
}
