/**
 * POST /api/hooks/klaviyo/confirmed: a Klaviyo flow says that someone confirmed their address (docs/delivery.md:
 * Klaviyo's confirmation webhook). The webhook is a hint, not the authority: whoever can open the flow knows its secret, so the
 * person is queued for a check against Klaviyo's own API (delivery/confirmations.ts), which records the confirmation
 * and counts referrals only for someone on the list. Not a browser's request, so no Origin rule: the shared secret is
 * the check. No address is logged.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ConfirmationAnswer, ConfirmationRequest } from "../../../shared/api/hooks";
import type { AppEnv, DeliveryMessage } from "../env";
import { bearerToken, errorResponse, jsonResponse, notConfigured, sameSecret, UNAVAILABLE, UNAVAILABLE_HEADERS } from "../http";
import { errorName, log } from "../log";
import { emailKey } from "../signups/email-key";
import { personByEmailKey } from "../store/referrals";

/**
 * 503 while KLAVIYO_WEBHOOK_SECRET is unset (nobody can be told from Klaviyo); 401 without it or with another. While
 * the secret is rotated, KLAVIYO_WEBHOOK_SECRET_PREVIOUS is taken too; both are always compared, so the time taken
 * does not say which one matched.
 */
export const webhookSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.env.KLAVIYO_WEBHOOK_SECRET;
  if (!secret) {
    log("confirmation_not_configured", { missing: "KLAVIYO_WEBHOOK_SECRET" });
    return notConfigured();
  }
  const given = bearerToken(c.req.raw);
  const secrets = [secret, c.env.KLAVIYO_WEBHOOK_SECRET_PREVIOUS].filter((value): value is string => Boolean(value));
  const matches = given === null ? [] : await Promise.all(secrets.map((expected) => sameSecret(given, expected)));
  if (!matches.includes(true))
    return errorResponse([{ status: 401, code: "unauthorized", detail: "Send the webhook secret as Authorization: Bearer." }], {
      "www-authenticate": 'Bearer realm="klaviyo-webhook"',
    });
  await next();
};

/**
 * Answer the webhook with its validated body: 202 `{ matched: true }` once the person is queued for the check, 200
 * `{ matched: false }` for an address not on the waitlist (nothing for Klaviyo to retry), 503 `unavailable` when D1 or
 * the queue fails (Klaviyo retries).
 */
export async function handleKlaviyoConfirmed(c: Context<AppEnv>, { email }: ConfirmationRequest): Promise<Response> {
  let id: string | null;
  try {
    id = await personByEmailKey(c.env.DB, emailKey(email));
    if (id !== null) await c.env.DELIVERY.send({ signupId: id, kind: "confirm" } satisfies DeliveryMessage);
  } catch (error) {
    log("confirmation_failed", { reason: errorName(error) });
    return errorResponse([UNAVAILABLE], UNAVAILABLE_HEADERS);
  }
  if (id === null) {
    log("confirmation_unmatched");
    return jsonResponse(200, { matched: false } satisfies ConfirmationAnswer);
  }
  log("confirmation_queued", { id });
  return jsonResponse(202, { matched: true } satisfies ConfirmationAnswer);
}
