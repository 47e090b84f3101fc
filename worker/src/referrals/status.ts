/**
 * The status page's API, authenticated by the status token its link carries (`/status/#t=<token>`, sent as
 * `Authorization: Bearer <token>`; looked up by its SHA-256 hash, the only form stored):
 * - GET /api/status: the person's standing, and whether they chose to be shown on the leaderboard;
 * - PUT /api/status/leaderboard `{ "shown": bool }`: show or hide them on the public leaderboard;
 * and the token check every route of the status link runs first (statusTokenHolder), rate limited per client network.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { LeaderboardChoice, LeaderboardChoiceAnswer, StatusAnswer } from "../../../shared/api/referrals";
import type { AppEnv } from "../env";
import { bearerToken, errorResponse, jsonResponse } from "../http";
import { log } from "../log";
import { currentInvitation } from "../launch/invitations";
import { rateLimited, withinLimit } from "../rate-limit";
import { invitationLink } from "../launch/tokens";
import { positionOf } from "../store/rank";
import { chooseLeaderboardShown, personByStatusTokenHash, type ReferralPerson } from "../store/referrals";
import { standingAnswer } from "./answer";
import { hashStatusToken, STATUS_TOKEN_PATTERN } from "./codes";

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

/**
 * Middleware: the person the status token names, in `c.var.statusHolder`, or 401 for a missing, malformed or unknown
 * token. Each request counts against STATUS_LIMITER for its client network before the token is looked up (429 past
 * it), so guessing tokens is bounded. Runs before the body is read, so a stranger learns nothing from the body's errors.
 */
export const statusTokenHolder: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await withinLimit(c.env, "STATUS_LIMITER", c.req.raw)))
    return rateLimited("STATUS_LIMITER", "Too many status reads from this network.");
  const found = await personOf(c);
  if (!found) return unknownToken();
  c.set("statusHolder", found);
  await next();
};

/**
 * Answer GET /api/status: 200 with the standing and the invitation (its link while it is open); 401 when the person
 * has neither a place in line nor an invitation. Needs statusTokenHolder.
 */
export async function handleStatus(c: Context<AppEnv>): Promise<Response> {
  const { person, token } = c.var.statusHolder;
  const [position, invitation] = await Promise.all([positionOf(c.env.DB, person.id), currentInvitation(c.env.DB, person.id)]);
  if (!position && !invitation) return unknownToken();
  const answer: StatusAnswer = {
    ...standingAnswer(c.var.settings, person, position?.position ?? 1, token),
    position: position?.position ?? null,
    leaderboardShown: person.leaderboardShown,
    invitation: invitation && {
      state: invitation.state,
      expiresAt: invitation.expires_at,
      inviteUrl: invitation.state === "invited" ? await openLink(c, invitation) : null,
    },
  };
  return jsonResponse(200, answer);
}

/** The open invitation's link for its person, or null (logged) when the Worker builds none (launch/tokens.ts). */
async function openLink(c: Context<AppEnv>, invitation: { id: string; token_sealed: string | null }): Promise<string | null> {
  const link = await invitationLink(c.var.settings, invitation, c.env);
  if ("url" in link) return link.url;
  log("invitation_link_refused", { id: invitation.id, reason: link.refused });
  return null;
}

/**
 * Answer PUT /api/status/leaderboard with its validated body: 200 `{ "leaderboardShown" }` once the choice is stored.
 * Needs statusTokenHolder. The public board shows the change when its cached copy expires (leaderboard.ts:
 * LEADERBOARD_CACHE_S).
 */
export async function handleLeaderboardChoice(c: Context<AppEnv>, { shown }: LeaderboardChoice): Promise<Response> {
  await chooseLeaderboardShown(c.env.DB, c.var.statusHolder.person.id, shown, new Date().toISOString());
  const answer: LeaderboardChoiceAnswer = { leaderboardShown: shown };
  return jsonResponse(200, answer);
}
