/**
 * A Client API answer read as one outcome the form acts on (202 with no body, or a JSON:API
 * `errors` document); the waitlist service answers in the same shape, so waitlistApi.ts uses it too.
 */
import { jsonApiErrors } from "../api/errors";

/**
 * The outcome of one answer:
 * - `accepted`: 2xx. With double opt-in the person still has to confirm by e-mail.
 * - `emailRefused`: 400 whose error points at the profile's e-mail: the address was refused; never retried.
 * - `throttled`: 429; `retryAfterMs` from `Retry-After`, or null when the page may not read it.
 * - `failed`: 5xx, a fault on the provider's side that may pass; retried.
 * - `rejected`: any other 4xx, a configuration mistake (public key, list id); never retried.
 */
export type ProviderAnswer =
  | { outcome: "accepted" }
  | { outcome: "emailRefused"; detail: string }
  | { outcome: "throttled"; retryAfterMs: number | null }
  | { outcome: "failed"; status: number }
  | { outcome: "rejected"; status: number; detail: string };

/**
 * The JSON pointer of the profile's e-mail ends with this: Klaviyo's `/data/attributes/profile/data/attributes/email`,
 * the waitlist service's `/email`.
 */
const EMAIL_POINTER_END = "/email";

/**
 * `Retry-After` in ms: either delay-seconds (`"3"`) or an HTTP date, as RFC 9110 allows.
 * @param value the header, or null when absent or not exposed to the page by CORS
 * @param nowMs the clock an HTTP date is measured from (ms since the epoch)
 * @returns a delay of 0 ms or more, or null when there is no usable value
 */
export function retryAfterMs(value: string | null, nowMs = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Read one Client API answer.
 * @param body parsed JSON, or null when it is empty or not JSON
 * @param retryAfter null when absent or not exposed by CORS
 * @param nowMs ms since the epoch, for an HTTP-date `Retry-After`
 */
export function readProviderAnswer(status: number, body: unknown, retryAfter: string | null, nowMs = Date.now()): ProviderAnswer {
  if (status >= 200 && status < 300) return { outcome: "accepted" };
  if (status === 429) return { outcome: "throttled", retryAfterMs: retryAfterMs(retryAfter, nowMs) };
  if (status >= 500) return { outcome: "failed", status };
  const errors = jsonApiErrors(body);
  const detail =
    errors
      .map((error) => error.detail || error.title || error.code)
      .filter(Boolean)
      .join("; ") || `HTTP ${status}`;
  const emailError = errors.find((error) => error.source?.pointer?.endsWith(EMAIL_POINTER_END));
  if (status === 400 && emailError) return { outcome: "emailRefused", detail: emailError.detail || emailError.title || detail };
  return { outcome: "rejected", status, detail };
}
