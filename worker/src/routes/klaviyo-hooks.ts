/**
 * POST /api/hooks/klaviyo/confirmed: a Klaviyo flow says someone confirmed their address (README: The referral
 * program (the service's side)). Not a browser's request, so no Origin rule: the shared secret is the check.
 */
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv, DeliveryMessage } from "../env";
import {
  BODY_TOO_LARGE,
  BodyTooLarge,
  bearerToken,
  errorResponse,
  jsonResponse,
  notConfigured,
  readBody,
  UNAVAILABLE,
  UNAVAILABLE_HEADERS,
} from "../http";
import { errorName, log } from "../log";
import { emailKey } from "../signups/email-key";
import { confirmAddress, countReferral } from "../store/referrals";

/** The body the flow sends (referrals/klaviyo-webhook.ts: WEBHOOK_BODY_TEMPLATE). */
const ConfirmationSchema = z.object({ email: z.string().trim().min(1) }, { error: "email is required." });

/**
 * Whether two secrets are equal, in time that does not depend on where they differ: both are hashed first (SHA-256),
 * so the comparison is of equal lengths, then compared with the runtime's timingSafeEqual.
 */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** 503 while KLAVIYO_WEBHOOK_SECRET is unset (nobody can be told from Klaviyo); 401 without it or with another. */
export const webhookSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.env.KLAVIYO_WEBHOOK_SECRET;
  if (!secret) {
    log("confirmation_not_configured", { missing: "KLAVIYO_WEBHOOK_SECRET" });
    return notConfigured();
  }
  const given = bearerToken(c.req.raw);
  if (given === null || !(await sameSecret(given, secret)))
    return errorResponse([{ status: 401, code: "unauthorized", detail: "Send the webhook secret as Authorization: Bearer." }], {
      "www-authenticate": 'Bearer realm="klaviyo-webhook"',
    });
  await next();
};

/**
 * Answer the webhook: 200 `{ matched: true, referralCounted }`, 200 `{ matched: false }` for an address not on the
 * waitlist (nothing for Klaviyo to retry), 400 without an address, 503 `unavailable` when D1 fails (Klaviyo retries).
 */
export async function handleKlaviyoConfirmed(c: Context<AppEnv>): Promise<Response> {
  let document: unknown;
  try {
    document = JSON.parse(await readBody(c.req.raw));
  } catch (error) {
    if (error instanceof BodyTooLarge) return errorResponse([BODY_TOO_LARGE]);
    return errorResponse([{ status: 400, code: "invalid_json", detail: "The body is not valid JSON." }]);
  }
  const body = ConfirmationSchema.safeParse(document);
  if (!body.success) return errorResponse([{ status: 400, code: "email_required", detail: "email is required.", pointer: "/email" }]);

  const now = new Date().toISOString();
  const program = c.var.settings.referrals;
  let id: string | null;
  let referrerId: string | null = null;
  try {
    id = await confirmAddress(c.env.DB, emailKey(body.data.email), now);
    if (id !== null && program.enabled && program.countAfter === "confirmation")
      referrerId = await countReferral(c.env.DB, id, program.placesPerReferral, now);
  } catch (error) {
    log("confirmation_failed", { reason: errorName(error) });
    return errorResponse([UNAVAILABLE], UNAVAILABLE_HEADERS);
  }
  if (id === null) {
    log("confirmation_unmatched");
    return jsonResponse(200, { matched: false });
  }
  if (referrerId !== null) {
    try {
      await c.env.DELIVERY.send({ signupId: referrerId, kind: "profile" } satisfies DeliveryMessage);
    } catch (error) {
      log("confirmation_enqueue_failed", { id: referrerId, reason: errorName(error) });
    }
  }
  log("confirmation_recorded", { id, referralCounted: referrerId !== null });
  return jsonResponse(200, { matched: true, referralCounted: referrerId !== null });
}
