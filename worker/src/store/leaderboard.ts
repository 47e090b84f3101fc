/**
 * The leaderboard's query: the top referrers, more counted referrals first, then the earlier signup (the usual tie
 * rule of referral leaderboards). Only people who chose to be shown (`leaderboard_shown_at`) and have a counted
 * referral are on it. Reads through the partial index signups_leaderboard (migrations/0006_leaderboard_visibility.sql),
 * so it reads about `limit` rows at any size of the list, however many people stay hidden.
 */
import type { D1Database } from "@cloudflare/workers-types";

/** One row of the leaderboard, before its name is masked (worker/src/referrals/standing.ts: leaderboardName). */
export interface LeaderboardRow {
  /** 1 = most referrals. */
  rank: number;
  firstName: string;
  lastName: string;
  /** Counted referrals, at least 1. */
  referrals: number;
}

/**
 * The top `limit` referrers among the people who chose to be shown.
 * @param db the D1 binding
 * @param limit how many rows at most (content: the leaderboard's size), a positive integer
 * @returns the rows, best first, and the rows D1 read (`meta.rows_read`)
 * @throws RangeError when limit is not a positive safe integer
 */
export async function topReferrers(db: D1Database, limit: number): Promise<{ rows: LeaderboardRow[]; rowsRead: number }> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const result = await db
    .prepare(
      `SELECT first_name AS firstName, last_name AS lastName, referrals FROM signups
       WHERE referrals > 0 AND leaderboard_shown_at IS NOT NULL ORDER BY referrals DESC, seq LIMIT ?1`,
    )
    .bind(limit)
    .all<Omit<LeaderboardRow, "rank">>();
  return { rows: result.results.map((row, index) => ({ rank: index + 1, ...row })), rowsRead: result.meta.rows_read };
}
