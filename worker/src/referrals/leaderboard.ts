/**
 * GET /api/leaderboard: the top referrers who chose to be shown (from their status page), names masked
 * (referrals/standing.ts). A person with no name to show leaves their rank empty, so the ranks stay true. The board is
 * the same for everyone, so it is cached at the edge (Cache API, which stores nothing on *.workers.dev) and a crowd
 * reads D1 once per LEADERBOARD_CACHE_S per location.
 */
import type { Context } from "hono";
import { LEADERBOARD_ENDPOINT } from "../../../shared/contract";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { leaderboardName } from "./standing";
import { topReferrers } from "./top-referrers";
import type { LeaderboardAnswer } from "../../../shared/api/referrals";

/** How long a leaderboard answer is reused (s): a minute-old board is fresh enough for a waitlist. */
export const LEADERBOARD_CACHE_S = 60;

/** Answer GET /api/leaderboard, from the edge cache when it holds a fresh copy. */
export async function handleLeaderboard(c: Context<AppEnv>): Promise<Response> {
  // One key for every visitor: the URL alone (no headers, no query), so that `?x` cannot bypass the cache.
  const key = new Request(new URL(LEADERBOARD_ENDPOINT, c.req.url).href, { method: "GET" });
  const cache = caches.default;
  const cached = await cache.match(key);
  if (cached) return cached;

  const { leaderboard, referrals } = c.var.settings;
  const { rows } = await topReferrers(c.env.DB, leaderboard.size, { confirmedOnly: referrals.countAfter === "confirmation" });
  const answer: LeaderboardAnswer = {
    entries: rows.flatMap(({ rank, firstName, lastName, referrals }) => {
      const name = leaderboardName(firstName, lastName);
      return name === null ? [] : [{ rank, name, referrals }];
    }),
  };
  const response = jsonResponse(200, answer, { "cache-control": `public, max-age=${LEADERBOARD_CACHE_S}` });
  c.executionCtx.waitUntil(cache.put(key, response.clone()));
  return response;
}
