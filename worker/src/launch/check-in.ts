/**
 * POST /api/invitations/check-in: the firm's product accepts an invitation by its token, with
 * `Authorization: Bearer <LAUNCH_CHECKIN_SECRET>`, and learns whom it was for. Not a browser's request, so no Origin
 * rule: the shared secret is the check. In development the stand-in /invite/ page accepts through the same code
 * (POST /api/invitations/accept, same origin, no secret). docs/api.md: Check-in.
 */
import type { Context, MiddlewareHandler } from "hono";
import { LAUNCH_ERROR_CODE } from "../../../shared/launch";
import { type AppEnv, isDevelopment } from "../env";
import { type ApiError, bearerToken, errorResponse, jsonResponse, notConfigured, notFound, sameSecret } from "../http";
import { log } from "../log";
import { rateLimited, withinLimit } from "../rate-limit";
import { checkIn, type CheckInResult } from "./invitations";

/**
 * 503 while LAUNCH_CHECKIN_SECRET is unset; 429 past CHECKIN_LIMITER for the client network, counted before the
 * secret is compared, so a guess over the limit is never tried; 401 without the secret or with another (compared in
 * constant time).
 */
export const checkInSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.env.LAUNCH_CHECKIN_SECRET;
  if (!secret) {
    log("check_in_not_configured", { missing: "LAUNCH_CHECKIN_SECRET" });
    return notConfigured();
  }
  if (!(await withinLimit(c.env, "CHECKIN_LIMITER", c.req.raw)))
    return rateLimited("CHECKIN_LIMITER", "Too many check-ins from this network.");
  const given = bearerToken(c.req.raw);
  if (given === null || !(await sameSecret(given, secret)))
    return errorResponse(
      [{ status: 401, code: LAUNCH_ERROR_CODE.unauthorized, detail: "Send LAUNCH_CHECKIN_SECRET as Authorization: Bearer." }],
      {
        "www-authenticate": 'Bearer realm="check-in"',
      },
    );
  await next();
};

/** 404 outside development: the stand-in page's route does not exist in production. */
export const developmentOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isDevelopment(c.env)) return notFound(c.req.raw, ": development only");
  await next();
};

/** Each refusal's error: nothing was changed. */
const REFUSALS: Record<Exclude<CheckInResult["kind"], "accepted">, ApiError> = {
  unknown: { status: 404, code: LAUNCH_ERROR_CODE.invitationUnknown, detail: "No invitation has this token.", pointer: "/token" },
  used: { status: 409, code: LAUNCH_ERROR_CODE.invitationUsed, detail: "This invitation was accepted already.", pointer: "/token" },
  expired: { status: 410, code: LAUNCH_ERROR_CODE.invitationExpired, detail: "This invitation has expired.", pointer: "/token" },
  revoked: { status: 410, code: LAUNCH_ERROR_CODE.invitationRevoked, detail: "This invitation was revoked.", pointer: "/token" },
};

/** 200 CheckInAnswer once the invitation is accepted; 404, 409 or 410 (REFUSALS) otherwise. */
export async function handleCheckIn(c: Context<AppEnv>, token: string): Promise<Response> {
  const result = await checkIn(c.env.DB, token, new Date());
  if (result.kind !== "accepted") {
    log("check_in_refused", { reason: result.kind });
    return errorResponse([REFUSALS[result.kind]]);
  }
  log("check_in_accepted", { place: result.answer.place });
  return jsonResponse(200, result.answer);
}
