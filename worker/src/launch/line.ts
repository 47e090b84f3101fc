/**
 * Who "invite the next N" invites: the people in line in the order the status page shows (store/rank.ts: smaller
 * score first, on an equal score more referrals first), read a page at a time through the signups_line index from
 * where the last page stopped, so choosing reads the invited and the skipped people and no one else.
 */
import type { SkipReason } from "../../../shared/launch";

/** People one page reads at most: also the most messages one `sendBatch` takes. */
export const LINE_PAGE_SIZE = 100;

/** Where a page starts: after this (score, referrals) in line order; null for the head of the line. */
export interface LineCursor {
  score: number;
  referrals: number;
}

/** One person as the line reads them. */
export interface LineRow {
  id: string;
  score: number;
  referrals: number;
  /** Why they are passed over, or null when they are invited. */
  skip: SkipReason | null;
}

/**
 * Who may be invited, as an SQL condition on the person's row `p`: in line, never invited, not disqualified,
 * confirmed, and not flagged or held for review unless an operator approved them.
 */
export const INVITABLE = `p.score IS NOT NULL AND p.invitation_id IS NULL AND p.disqualified_at IS NULL AND p.confirmed_at IS NOT NULL
  AND NOT (p.reviewed_at IS NULL AND (p.flags IS NOT NULL OR p.referral_hold IS NOT NULL))`;

/** Why a person is skipped, the first reason that holds (SKIP_REASONS' order), as an SQL expression on `p`. */
const SKIP = `CASE WHEN p.disqualified_at IS NOT NULL THEN 'disqualified' WHEN p.confirmed_at IS NULL THEN 'unconfirmed'
  WHEN p.reviewed_at IS NULL AND (p.flags IS NOT NULL OR p.referral_hold IS NOT NULL) THEN 'flagged'
  WHEN p.invitation_id IS NOT NULL THEN 'invited' END`;

/**
 * The next page of the line after `after`. The range on score uses the index; the few people sharing the cursor's
 * score with as many referrals or more are left out by the second condition.
 * @param limit people at most (LINE_PAGE_SIZE)
 */
export async function readLinePage(db: D1Database, after: LineCursor | null, limit: number): Promise<LineRow[]> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.score, p.referrals, ${SKIP} AS skip FROM signups AS p INDEXED BY signups_line
       WHERE p.score IS NOT NULL AND p.score >= ?1 AND (p.score > ?1 OR p.referrals < ?2)
       ORDER BY p.score, p.referrals DESC LIMIT ?3`,
    )
    .bind(after?.score ?? Number.MIN_SAFE_INTEGER, after?.referrals ?? Number.MAX_SAFE_INTEGER, limit)
    .all<LineRow>();
  return results;
}

/** What a walk down the line found: whom it takes (at most `count`), and whom it passed over, by reason. */
export interface LineWalk {
  taken: LineRow[];
  /** Everyone read up to the last person taken (or the end of the line): taken and skipped, in order. */
  read: LineRow[];
  /** true when the line ended before `count` people were taken. */
  ended: boolean;
}

/**
 * Walk one page: take people in order until `count` are taken or the page ends.
 * @param count people still wanted (≥ 1)
 */
export async function walkPage(db: D1Database, after: LineCursor | null, count: number): Promise<LineWalk> {
  const page = await readLinePage(db, after, LINE_PAGE_SIZE);
  const taken: LineRow[] = [];
  let consumed = 0;
  for (const row of page) {
    if (taken.length === count) break;
    consumed += 1;
    if (row.skip === null) taken.push(row);
  }
  return { taken, read: page.slice(0, consumed), ended: page.length < LINE_PAGE_SIZE && consumed === page.length && taken.length < count };
}

/** The skipped people among `rows`, counted by reason. */
export function skippedCounts(rows: LineRow[]): Record<SkipReason, number> {
  const counts: Record<SkipReason, number> = { disqualified: 0, unconfirmed: 0, flagged: 0, invited: 0 };
  for (const row of rows) if (row.skip) counts[row.skip] += 1;
  return counts;
}
