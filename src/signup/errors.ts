/**
 * The ways a signup can fail, as client.ts throws them and the form tells them apart. Free of the
 * transports, so the form's first bundle carries these classes while the sending code loads later. The provider's
 * temporary failures, which only the engine tells apart, load with it (temporaryErrors.ts).
 */

/** The key or list id is missing: a configuration mistake, never retried (product rule 10). */
export class SignupConfigurationError extends Error {
  constructor(message = "A public API key and a list id are both required to subscribe.") {
    super(message);
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

/**
 * The waitlist service could not verify the visitor with Cloudflare Turnstile (403 `turnstile_failed`): not retried
 * as it is; the visitor sends again once the widget has a new token.
 */
export class SignupVerificationError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "SignupVerificationError";
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
