/**
 * The signup client: the one call to the email-marketing provider, by the transport
 * content/site.yaml chooses (see endpoints.ts):
 *
 * - `client-api`: Klaviyo's Client API, sent `cors`, whose answer is read and turned into
 *   an outcome (answer.ts): accepted, e-mail refused, throttled, failed, rejected;
 * - `legacy-form`: the legacy form's urlencoded body (`g` = list id, `email`, `first_name`,
 *   `last_name`) sent `no-cors`; the answer is opaque, so a call that does not throw counts
 *   as success.
 */
import { readProviderAnswer } from "./answer";
import { clientApiRequest } from "./clientApi";
import type { SignupTransport } from "./endpoints";
import type { Submission } from "./submission";

/** Where and how to subscribe (from content/site.yaml → provider). */
export interface ProviderConfig {
  /** Which call the script makes; `legacy-form` when left out (the older embed endpoint, product rule 17). */
  transport?: SignupTransport;
  /** Absolute URL of the transport's endpoint. */
  endpointUrl: string;
  /** Klaviyo public API key (site id); the call is made only when it is set. */
  publicApiKey?: string | null;
  /** Klaviyo list id (`g` in the legacy form, the list relationship in the Client API). */
  listId?: string | null;
  /** Klaviyo custom source recorded on the profile (client-api only). */
  customSource?: string | null;
  /**
   * Simulate signups and send nothing (product rule 15). The build decides it once
   * (`derived.demoMode`: `provider.demoMode`, or a missing key or list id); the browser only reads it.
   */
  demoMode?: boolean;
}

/** Each attempt is aborted after this long and counts as a network failure (about 5 s: a visitor waits no longer per try). */
export const SIGNUP_ATTEMPT_TIMEOUT_MS = 5_000;

/** The key or list id is missing: a configuration mistake, never retried (product rule 10). */
export class SignupConfigurationError extends Error {
  constructor() {
    super("A public API key and a list id are both required to subscribe.");
    this.name = "SignupConfigurationError";
  }
}

/**
 * The request never completed (offline, connection dropped, timed out): retried (product rule 9).
 * `message` is the browser's text, for developers only; visitors read the content's words.
 */
export class SignupNetworkError extends Error {
  /** true when our per-attempt timeout gave up, false when the browser reported a failure. */
  readonly timedOut: boolean;
  constructor(message: string, options?: { cause?: unknown; timedOut?: boolean }) {
    super(message, options);
    this.name = "SignupNetworkError";
    this.timedOut = options?.timedOut ?? false;
  }
}

/** The provider refused the e-mail address (400 pointing at the e-mail): never retried. */
export class SignupEmailRefusedError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "SignupEmailRefusedError";
  }
}

/** The provider asked us to slow down (429): retried after `retryAfterMs`, or product rule 9's backoff when unknown. */
export class SignupThrottledError extends Error {
  readonly retryAfterMs: number | null;
  constructor(retryAfterMs: number | null) {
    super("HTTP 429: too many requests");
    this.name = "SignupThrottledError";
    this.retryAfterMs = retryAfterMs;
  }
}

/** The provider failed (5xx): retried with product rule 9's backoff. */
export class SignupServerError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`HTTP ${status} from the provider`);
    this.name = "SignupServerError";
    this.status = status;
  }
}

/** The provider refused the request itself (other 4xx: wrong public key or list id): never retried. */
export class SignupRejectedError extends Error {
  readonly status: number;
  constructor(status: number, detail: string) {
    super(`HTTP ${status}: ${detail}`);
    this.name = "SignupRejectedError";
    this.status = status;
  }
}

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

/** The answer's body as JSON, or null when it is empty, opaque or not JSON. */
async function jsonBody(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/**
 * Subscribe one visitor to the list.
 * @param config transport, endpoint, public API key, list id and custom source
 * @param submission the visitor's trimmed values (and profile properties)
 * @param timeoutMs per-attempt timeout in ms (default SIGNUP_ATTEMPT_TIMEOUT_MS)
 * @returns when the provider accepted the signup (client-api), or answered opaquely (legacy-form)
 * @throws SignupConfigurationError when the key or list id is missing (no request is made)
 * @throws SignupNetworkError when fetch rejects or the attempt times out
 * @throws SignupEmailRefusedError, SignupThrottledError, SignupServerError, SignupRejectedError (client-api only) for what the answer said
 */
export async function subscribe(config: ProviderConfig, submission: Submission, timeoutMs = SIGNUP_ATTEMPT_TIMEOUT_MS): Promise<void> {
  const { publicApiKey, listId } = config;
  if (!publicApiKey || !listId) throw new SignupConfigurationError();
  const clientApi = config.transport === "client-api";
  const [url, init] = clientApi
    ? clientApiRequest({ endpointUrl: config.endpointUrl, publicApiKey, listId, customSource: config.customSource }, submission)
    : legacyFormRequest({ ...config, listId }, submission);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let answer;
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    if (!clientApi) return;
    // The body is read under the same timeout: a provider that stalls mid-answer is a network failure too.
    answer = readProviderAnswer(response.status, await jsonBody(response), response.headers.get("retry-after"));
  } catch (error) {
    const timedOut = controller.signal.aborted;
    throw new SignupNetworkError(!timedOut && error instanceof Error ? error.message : "", { cause: error, timedOut });
  } finally {
    clearTimeout(timer);
  }
  switch (answer.outcome) {
    case "accepted":
      return;
    case "emailRefused":
      throw new SignupEmailRefusedError(answer.detail);
    case "throttled":
      throw new SignupThrottledError(answer.retryAfterMs);
    case "failed":
      throw new SignupServerError(answer.status);
    case "rejected":
      throw new SignupRejectedError(answer.status, answer.detail);
  }
}
