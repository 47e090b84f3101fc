/**
 * GET /api/status: one person's standing in the referral program, for their status page (`/status/#t=<token>`),
 * which sends the token from its fragment as `Authorization: Bearer <token>`.
 *
 * Answers: 200 `{ referralCode, referralUrl, position, referrals, entries, statusUrl }` (src/referrals/standing.ts:
 * standingIn reads it); 401 for a missing, malformed or unknown token (with `WWW-Authenticate: Bearer`); 404 while
 * the program is off; 403 for another origin's page; 405 for another method; 503 `not_configured` without the
 * build's settings. Every answer `cache-control: no-store` (it is one person's). The token is looked up by its
 * SHA-256 hash, the only form stored.
 */
import type { ServiceEnv } from "../env";
import { errorResponse, isSameOrigin, jsonResponse, methodNotAllowed } from "../http";
import { standingAnswer } from "../referrals/answer";
import { hashStatusToken, STATUS_TOKEN_PATTERN } from "../referrals/codes";
import { readSettings, SettingsUnavailable } from "../settings";
import { positionOf } from "../store/rank";
import { personByStatusTokenHash } from "../store/referrals";
import { bearerToken, notConfigured, programOff } from "./common";

/** 401 for a token the service does not take (RFC 6750: with a `WWW-Authenticate: Bearer` challenge). */
function unknownToken(): Response {
  return errorResponse([{ status: 401, code: "unknown_status_token", detail: "Send the status link's token as Authorization: Bearer." }], {
    "www-authenticate": 'Bearer realm="waitlist"',
  });
}

/**
 * Answer GET /api/status.
 * @param request the status page's request
 * @param env bindings (DB, ASSETS)
 */
export async function handleStatus(request: Request, env: ServiceEnv): Promise<Response> {
  if (request.method !== "GET") return methodNotAllowed(request, ["GET"]);
  if (!isSameOrigin(request))
    return errorResponse([{ status: 403, code: "origin_not_allowed", detail: "The status is read only from the site's own pages." }]);
  let settings;
  try {
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    if (error instanceof SettingsUnavailable) return notConfigured();
    throw error;
  }
  if (!settings.referrals.enabled) return programOff(request);

  const token = bearerToken(request);
  if (token === null || !STATUS_TOKEN_PATTERN.test(token)) return unknownToken();
  const person = await personByStatusTokenHash(env.DB, await hashStatusToken(token));
  if (!person) return unknownToken();
  const position = await positionOf(env.DB, person.id);
  if (!position) return unknownToken();
  return jsonResponse(200, standingAnswer(settings, person, position.position, token));
}
