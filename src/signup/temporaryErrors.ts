/**
 * The provider's temporary failures (429, 5xx), as client.ts throws them: the engine retries them (retryPolicy.ts),
 * and once no retry is left the form shows its fallback message, as for any failure it does not tell apart. So
 * they load with the engine, not with the form's first bundle (errors.ts).
 */

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
