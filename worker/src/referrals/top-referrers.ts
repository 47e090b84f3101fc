/**
 * The leaderboard's query: the top referrers, more counted referrals first, then the earlier signup. Only people who
 * chose to be shown (`leaderboard_shown_at`), have a counted referral and are not disqualified are on it. It reads through the partial index
 * signups_leaderboard, so the rows it reads follow `limit`, not the size of the list.
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
 * @param limit how many rows at most (content: the leaderboard's size), a positive integer
 * @param confirmedOnly leave out people who never confirmed their address (countAfter: confirmation)
 * @returns the rows, best first, and the rows D1 read (`meta.rows_read`)
 * @throws RangeError when limit is not a positive safe integer
 */
export async function topReferrers(
  db: D1Database,
  limit: number,
  { confirmedOnly = false } = {},
): Promise<{ rows: LeaderboardRow[]; rowsRead: number }> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const result = await db
    .prepare(
      `SELECT first_name AS firstName, last_name AS lastName, referrals FROM signups
       WHERE referrals > 0 AND leaderboard_shown_at IS NOT NULL AND disqualified_at IS NULL AND (?2 = 0 OR confirmed_at IS NOT NULL)
       ORDER BY referrals DESC, seq LIMIT ?1`,
    )
    .bind(limit, confirmedOnly ? 1 : 0)
    .all<Omit<LeaderboardRow, "rank">>();
  return { rows: result.results.map((row, index) => ({ rank: index + 1, ...row })), rowsRead: result.meta.rows_read };
}
