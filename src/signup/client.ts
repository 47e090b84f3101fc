/**
 * The signup client: the one call to the email-marketing provider (spec §7).
 *
 * POSTs a form-urlencoded body (`g` = list id, `email`, `first_name`, `last_name`)
 * cross-origin in `no-cors` mode, as Klaviyo's list-subscribe endpoint expects.
 * The response is opaque, so a call that does not throw counts as success.
 */

/** One signup as sent to the provider (spec §3). Values are already trimmed. */
export interface Submission {
  email: string;
  firstName: string;
  lastName: string;
}

/** Where and how to subscribe (from content/site.yaml → provider). */
export interface ProviderConfig {
  /** Absolute URL of the list-subscription endpoint. */
  endpointUrl: string;
  /** Klaviyo public API key (site id); the call is made only when it is set. */
  publicApiKey?: string | null;
  /** Klaviyo list id, sent as `g`. */
  listId?: string | null;
}

/** Each attempt is aborted after this long and counts as a network failure (issue 6: about 5 s). */
export const SIGNUP_ATTEMPT_TIMEOUT_MS = 5_000;

/** The key or list id is missing: a configuration mistake, never retried (spec §8). */
export class SignupConfigurationError extends Error {
  constructor() {
    super("A public API key and a list id are both required to subscribe.");
    this.name = "SignupConfigurationError";
  }
}

/** The request never completed (offline, connection dropped, timed out): retried (spec §9). */
export class SignupNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SignupNetworkError";
  }
}

/**
 * The form-urlencoded body the provider receives.
 * @returns `g=<listId>&email=…&first_name=…&last_name=…`
 */
export function subscriptionBody(listId: string, submission: Submission): URLSearchParams {
  return new URLSearchParams({ g: listId, email: submission.email, first_name: submission.firstName, last_name: submission.lastName });
}

/**
 * Subscribe one visitor to the list.
 * @param config endpoint, public API key and list id
 * @param submission the visitor's trimmed values
 * @param timeoutMs per-attempt timeout in ms (default SIGNUP_ATTEMPT_TIMEOUT_MS)
 * @returns when the request was sent and answered (opaquely)
 * @throws SignupConfigurationError when the key or list id is missing (no request is made)
 * @throws SignupNetworkError when fetch rejects or the attempt times out
 */
export async function subscribe(config: ProviderConfig, submission: Submission, timeoutMs = SIGNUP_ATTEMPT_TIMEOUT_MS): Promise<void> {
  if (!config.publicApiKey || !config.listId) throw new SignupConfigurationError();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await fetch(config.endpointUrl, {
      method: "POST",
      mode: "no-cors",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: subscriptionBody(config.listId, submission),
      signal: controller.signal,
    });
  } catch (error) {
    // A timeout has no message of its own, so the visitor sees the content's fallback text.
    const message = !controller.signal.aborted && error instanceof Error ? error.message : "";
    throw new SignupNetworkError(message, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
