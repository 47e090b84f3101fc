/**
 * The status page's API, authenticated by the status token its link carries (`/status/#t=<token>`, sent as
 * `Authorization: Bearer <token>`; looked up by its SHA-256 hash, the only form stored):
 * - GET /api/status: the person's standing, and whether they chose to be shown on the leaderboard;
 * - PUT /api/status/leaderboard `{ "shown": bool }`: show or hide them on the public leaderboard.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { bearerToken, errorResponse, jsonResponse, readJsonBody } from "../http";
import { standingAnswer } from "../referrals/answer";
import { hashStatusToken, STATUS_TOKEN_PATTERN } from "../referrals/codes";
import { positionOf } from "../store/rank";
import { chooseLeaderboardShown, personByStatusTokenHash, type ReferralPerson } from "../store/referrals";
import type { LeaderboardChoiceAnswer, StatusAnswer } from "../../../shared/api/referrals";

/** 401 for a token the service does not take (RFC 6750: with a `WWW-Authenticate: Bearer` challenge). */
function unknownToken(): Response {
  return errorResponse([{ status: 401, code: "unknown_status_token", detail: "Send the status link's token as Authorization: Bearer." }], {
    "www-authenticate": 'Bearer realm="waitlist"',
  });
}

/** The person whose status token the request brings, with that token; null for a missing, malformed or unknown one. */
async function personOf(c: Context<AppEnv>): Promise<{ person: ReferralPerson; token: string } | null> {
  const token = bearerToken(c.req.raw);
  if (token === null || !STATUS_TOKEN_PATTERN.test(token)) return null;
  const person = await personByStatusTokenHash(c.env.DB, await hashStatusToken(token));
  return person && { person, token };
}

/** Answer GET /api/status: 200 with the standing, 401 for a missing, malformed or unknown token. */
export async function handleStatus(c: Context<AppEnv>): Promise<Response> {
  const found = await personOf(c);
  if (!found) return unknownToken();
  const { person, token } = found;
  const position = await positionOf(c.env.DB, person.id);
  if (!position) return unknownToken();
  const answer: StatusAnswer = {
    ...standingAnswer(c.var.settings, person, position.position, token),
    leaderboardShown: person.leaderboardShown,
  };
  return jsonResponse(200, answer);
}

/** PUT /api/status/leaderboard's body: exactly `{ "shown": true | false }`. */
const LeaderboardChoiceSchema = z.strictObject({ shown: z.boolean() });

/**
 * Answer PUT /api/status/leaderboard: 200 `{ "leaderboardShown" }` once the choice is stored; 401 for a missing or
 * unknown token (checked first: a stranger learns nothing from the body's errors), 400 `invalid_json` for a body that
 * is not `{ "shown": boolean }`, 413 for a body over the limit. The public board shows the change when its cached
 * copy expires (routes/leaderboard.ts: LEADERBOARD_CACHE_S).
 */
export async function handleLeaderboardChoice(c: Context<AppEnv>): Promise<Response> {
  const found = await personOf(c);
  if (!found) return unknownToken();
  const read = await readJsonBody(c.req.raw);
  if ("refused" in read) return read.refused;
  const { document } = read;
  const choice = LeaderboardChoiceSchema.safeParse(document);
  if (!choice.success)
    return errorResponse([
      { status: 400, code: "invalid_type", detail: 'Send { "shown": true } or { "shown": false }.', pointer: "/shown" },
    ]);
  await chooseLeaderboardShown(c.env.DB, found.person.id, choice.data.shown, new Date().toISOString());
  const answer: LeaderboardChoiceAnswer = { leaderboardShown: choice.data.shown };
  return jsonResponse(200, answer);
}
