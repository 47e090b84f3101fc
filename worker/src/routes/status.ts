/**
 * GET /api/status: one person's standing, for their status page, which sends the token from its fragment as
 * `Authorization: Bearer`. The token is looked up by its SHA-256 hash, the only form stored.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { bearerToken, errorResponse, jsonResponse } from "../http";
import { standingAnswer } from "../referrals/answer";
import { hashStatusToken, STATUS_TOKEN_PATTERN } from "../referrals/codes";
import { positionOf } from "../store/rank";
import { personByStatusTokenHash } from "../store/referrals";

/** 401 for a token the service does not take (RFC 6750: with a `WWW-Authenticate: Bearer` challenge). */
function unknownToken(): Response {
  return errorResponse([{ status: 401, code: "unknown_status_token", detail: "Send the status link's token as Authorization: Bearer." }], {
    "www-authenticate": 'Bearer realm="waitlist"',
  });
}

/** Answer GET /api/status: 200 with the standing, 401 for a missing, malformed or unknown token. */
export async function handleStatus(c: Context<AppEnv>): Promise<Response> {
  const token = bearerToken(c.req.raw);
  if (token === null || !STATUS_TOKEN_PATTERN.test(token)) return unknownToken();
  const person = await personByStatusTokenHash(c.env.DB, await hashStatusToken(token));
  if (!person) return unknownToken();
  const position = await positionOf(c.env.DB, person.id);
  if (!position) return unknownToken();
  return jsonResponse(200, standingAnswer(c.var.settings, person, position.position, token));
}
