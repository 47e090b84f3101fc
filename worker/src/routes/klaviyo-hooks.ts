/**
 * POST /api/hooks/klaviyo/confirmed: Klaviyo tells the service that someone confirmed their address. A Klaviyo flow
 * triggered "when someone is subscribed to the list" (with the list's double opt-in, that is when they confirm) runs a
 * webhook action to this URL with the header `Authorization: Bearer <KLAVIYO_WEBHOOK_SECRET>` and the JSON body
 * WEBHOOK_BODY_TEMPLATE (README: The referral program → Klaviyo's confirmation webhook).
 *
 * It records `confirmed_at` (the first time only) and, with `referrals.countAfter: confirmation`, counts the person's
 * referral for their first referrer, exactly once however often Klaviyo calls (worker/src/store/referrals.ts), then
 * queues the referrer's profile update. Answers:
 * - 200 `{ "matched": true, "referralCounted": boolean }`; 200 `{ "matched": false }` for an address not on the
 *   waitlist (someone who subscribed another way): nothing to do, and not a failure Klaviyo should retry;
 * - 400 `invalid_json` / `email_required` (pointer `/email`) for a body without an address;
 * - 401 without the secret or with a wrong one (compared in constant time);
 * - 405 for another method; 413 / 415 for a body too large / not JSON;
 * - 503 `not_configured` when KLAVIYO_WEBHOOK_SECRET is unset (the service cannot tell Klaviyo from anyone) or the
 *   build's settings are missing; `unavailable` when D1 fails (Klaviyo retries a failed webhook).
 * Not a browser's request, so no Origin rule: the secret is the check. No address is logged.
 */
import type { DeliveryMessage, ServiceEnv } from "../env";
import {
  BodyTooLarge,
  errorResponse,
  JSON_CONTENT_TYPE,
  jsonResponse,
  MAX_BODY_BYTES,
  mediaType,
  methodNotAllowed,
  readBody,
} from "../http";
import { readSettings, SettingsUnavailable } from "../settings";
import { emailKey } from "../signups/email-key";
import { confirmAddress, countReferral } from "../store/referrals";
import { bearerToken, notConfigured } from "./common";

/** The body the Klaviyo flow's webhook action sends (Klaviyo's template syntax); the README tells the operator to paste it. */
export const WEBHOOK_BODY_TEMPLATE = `{"email": "{{ person.email|default:'' }}"}`;

/** Retry-After of a 503 `unavailable` (s). */
const UNAVAILABLE_RETRY_AFTER_S = 5;

function log(event: string, fields: Record<string, string | number | boolean>): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/**
 * Whether two secrets are equal, in time that does not depend on where they differ: both are hashed first (SHA-256),
 * so the comparison is of equal lengths, then compared with the runtime's timingSafeEqual.
 */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/**
 * Answer POST /api/hooks/klaviyo/confirmed.
 * @param request Klaviyo's webhook request
 * @param env bindings and the KLAVIYO_WEBHOOK_SECRET secret
 */
export async function handleKlaviyoConfirmed(request: Request, env: ServiceEnv): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(request, ["POST"]);
  const secret = env.KLAVIYO_WEBHOOK_SECRET;
  if (!secret) {
    log("confirmation_not_configured", { missing: "KLAVIYO_WEBHOOK_SECRET" });
    return notConfigured();
  }
  const given = bearerToken(request);
  if (given === null || !(await sameSecret(given, secret)))
    return errorResponse([{ status: 401, code: "unauthorized", detail: "Send the webhook secret as Authorization: Bearer." }], {
      "www-authenticate": 'Bearer realm="klaviyo-webhook"',
    });
  const type = mediaType(request);
  if (type !== JSON_CONTENT_TYPE && type !== "")
    return errorResponse([{ status: 415, code: "unsupported_media_type", detail: `Send ${JSON_CONTENT_TYPE}.` }]);
  let settings;
  try {
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    if (error instanceof SettingsUnavailable) return notConfigured();
    throw error;
  }

  let document: unknown;
  try {
    document = JSON.parse(await readBody(request));
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return errorResponse([{ status: 413, code: "body_too_large", detail: `The body may be at most ${MAX_BODY_BYTES} bytes.` }]);
    return errorResponse([{ status: 400, code: "invalid_json", detail: "The body is not valid JSON." }]);
  }
  const email = (document as { email?: unknown } | null)?.email;
  if (typeof email !== "string" || email.trim() === "")
    return errorResponse([{ status: 400, code: "email_required", detail: "email is required.", pointer: "/email" }]);

  const now = new Date().toISOString();
  const program = settings.referrals;
  let id: string | null;
  let referrerId: string | null = null;
  try {
    id = await confirmAddress(env.DB, emailKey(email), now);
    if (id !== null && program.enabled && program.countAfter === "confirmation")
      referrerId = await countReferral(env.DB, id, program.placesPerReferral, now);
  } catch (error) {
    log("confirmation_failed", { reason: error instanceof Error ? error.name : "unknown" });
    return errorResponse([{ status: 503, code: "unavailable", detail: "The waitlist is briefly unavailable; try again shortly." }], {
      "retry-after": String(UNAVAILABLE_RETRY_AFTER_S),
    });
  }
  if (id === null) {
    log("confirmation_unmatched", {});
    return jsonResponse(200, { matched: false });
  }
  if (referrerId !== null) {
    try {
      await env.DELIVERY.send({ signupId: referrerId, kind: "profile" } satisfies DeliveryMessage);
    } catch (error) {
      log("confirmation_enqueue_failed", { id: referrerId, reason: error instanceof Error ? error.name : "unknown" });
    }
  }
  log("confirmation_recorded", { id, referralCounted: referrerId !== null });
  return jsonResponse(200, { matched: true, referralCounted: referrerId !== null });
}
