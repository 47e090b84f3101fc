/** Cloudflare Turnstile's server-side check: siteverify judges the widget's token before anything is stored. */

/** Cloudflare's limit on a token's length (characters); a longer one is refused without asking. */
export const TURNSTILE_TOKEN_MAX_LENGTH = 2_048;

/** How long one siteverify call may take (ms) before it counts as failed. */
const VERIFY_TIMEOUT_MS = 5_000;

/** Calls per check: one retry after a network failure or a 5xx, with the same idempotency key (so it cannot count twice). */
const VERIFY_ATTEMPTS = 2;

/** What siteverify decided. */
export interface TurnstileVerdict {
  success: boolean;
  /**
   * siteverify's `error-codes`, e.g. `invalid-input-response`, `timeout-or-duplicate`; [] on success. A token siteverify
   * accepted for another host or action is a failure here, `hostname-mismatch` or `action-mismatch` (our codes).
   */
  errorCodes: string[];
}

/** siteverify could not be reached or answered nothing usable, after the retry. */
export class TurnstileUnavailable extends Error {}

export interface TurnstileCheck {
  /** siteverify's address (TURNSTILE_VERIFY_URL). */
  verifyUrl: string;
  /** The secret key (TURNSTILE_SECRET_KEY). */
  secret: string;
  /** The widget's token from the request; "" when the request carried none. */
  token: string;
  /** The visitor's IP (CF-Connecting-IP), which siteverify compares with the one that solved the challenge. */
  remoteIp: string | null;
  /** Where the token must have been solved: siteverify's `hostname` (the site's own host) and `action` (the widget's). */
  expected: { hostname: string; action: string };
}

/**
 * Ask siteverify (form fields `secret`, `response`, `remoteip`, `idempotency_key`). A missing or over-long token is
 * refused here, as siteverify would (`missing-input-response`, `invalid-input-response`), without a call. A success
 * counts only when its `hostname` and `action` are the expected ones: Cloudflare accepts a token of the site key from
 * any page it was solved on, and leaves that check to the server.
 * @throws TurnstileUnavailable when siteverify fails twice (network, timeout, 5xx, a body that is not its JSON)
 */
export async function verifyTurnstile({ verifyUrl, secret, token, remoteIp, expected }: TurnstileCheck): Promise<TurnstileVerdict> {
  if (!token) return { success: false, errorCodes: ["missing-input-response"] };
  if (token.length > TURNSTILE_TOKEN_MAX_LENGTH) return { success: false, errorCodes: ["invalid-input-response"] };
  const form = new URLSearchParams({ secret, response: token, idempotency_key: crypto.randomUUID() });
  if (remoteIp) form.set("remoteip", remoteIp);
  let problem = "";
  for (let attempt = 1; attempt <= VERIFY_ATTEMPTS; attempt += 1) {
    try {
      const response = await fetch(verifyUrl, { method: "POST", body: form, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
      if (response.status >= 500) {
        problem = `siteverify answered ${response.status}`;
        continue;
      }
      const answer = await response.json<{ success?: unknown; "error-codes"?: unknown; hostname?: unknown; action?: unknown }>();
      if (typeof answer.success !== "boolean") throw new Error("siteverify's answer has no success member");
      const errorCodes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].map(String) : [];
      // Cloudflare's own fault, not the visitor's: ask once more.
      if (!answer.success && errorCodes.includes("internal-error")) {
        problem = "siteverify reported internal-error";
        continue;
      }
      if (!answer.success) return { success: false, errorCodes };
      if (answer.hostname !== expected.hostname) return { success: false, errorCodes: ["hostname-mismatch"] };
      if (answer.action !== expected.action) return { success: false, errorCodes: ["action-mismatch"] };
      return { success: true, errorCodes };
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
  }
  throw new TurnstileUnavailable(problem);
}
