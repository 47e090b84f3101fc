/**
 * GET /api/leaderboard: the top referrers, `{ "entries": [{ "rank", "name", "referrals" }] }`, at most the content's
 * `leaderboard.size`, only people with at least one counted referral, names shortened to "First L."
 * (worker/src/referrals/standing.ts: leaderboardName; never an address). A person whose name cannot be shown is left
 * out and their rank stays empty, so the ranks stay true.
 *
 * The board is the same for everyone, so it is cached at the edge with the Cache API (caches.default) for
 * LEADERBOARD_CACHE_S: a spike of visitors reads D1 once a minute per Cloudflare location. (The Cache API works on a
 * custom domain; on a *.workers.dev address it stores nothing and every read goes to D1.) 404 while the program is
 * off; 403 for another origin's page; 405 for another method.
 */
import type { ServiceEnv } from "../env";
import { errorResponse, isSameOrigin, jsonResponse, methodNotAllowed } from "../http";
import { leaderboardName } from "../referrals/standing";
import { readSettings, SettingsUnavailable } from "../settings";
import { topReferrers } from "../store/leaderboard";
import { notConfigured, programOff } from "./common";

/** How long a leaderboard answer is reused (s): a minute-old board is fresh enough for a waitlist. */
export const LEADERBOARD_CACHE_S = 60;

/** One row of the answer. */
export interface LeaderboardEntry {
  /** 1 = most counted referrals (ties: the earlier signup first). */
  rank: number;
  /** "First L." */
  name: string;
  referrals: number;
}

/**
 * Answer GET /api/leaderboard, from the edge cache when it holds a fresh copy.
 * @param request the leaderboard page's request
 * @param env bindings (DB, ASSETS)
 * @param ctx keeps the cache write running after the answer
 */
export async function handleLeaderboard(request: Request, env: ServiceEnv, ctx: ExecutionContext): Promise<Response> {
  if (request.method !== "GET") return methodNotAllowed(request, ["GET"]);
  if (!isSameOrigin(request))
    return errorResponse([{ status: 403, code: "origin_not_allowed", detail: "The leaderboard is read only from the site's own pages." }]);
  let settings;
  try {
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    if (error instanceof SettingsUnavailable) return notConfigured();
    throw error;
  }
  if (!settings.referrals.enabled) return programOff(request);

  // One key for every visitor: the URL alone (no headers, no query), so that `?x` cannot bypass the cache.
  const key = new Request(new URL("/api/leaderboard", request.url).href, { method: "GET" });
  const cache = caches.default;
  const cached = await cache.match(key);
  if (cached) return cached;

  const { rows } = await topReferrers(env.DB, settings.leaderboard.size);
  const entries: LeaderboardEntry[] = rows.flatMap(({ rank, firstName, lastName, referrals }) => {
    const name = leaderboardName(firstName, lastName);
    return name === null ? [] : [{ rank, name, referrals }];
  });
  const response = jsonResponse(200, { entries }, { "cache-control": `public, max-age=${LEADERBOARD_CACHE_S}` });
  ctx.waitUntil(cache.put(key, response.clone()));
  return response;
}
