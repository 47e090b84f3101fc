/**
 * The giveaway's eligible entrants in D1: who is in a draw (confirmed by the cut-off, not disqualified; an erased
 * person has no row) with the referrals credited by then, read a page of signups.seq at a time, and each person's
 * ticket, the seed of their pseudonym. The commitment job (job.ts) runs these.
 */
import type { D1Database } from "@cloudflare/workers-types";
import { DRAW_COMMIT_ACTION } from "../../../shared/giveaway/commit";

/**
 * The eligible people among signups with seq in (?2, ?3]: their ticket and the referrals credited to them by the
 * cut-off (`?1`, ISO 8601 UTC). Reads the page's rows by the seq index, plus each eligible person's referred rows.
 */
export const ELIGIBLE_PAGE_SQL =
  "SELECT s.draw_ticket, s.referrals - (SELECT count(*) FROM signups r WHERE r.referred_by = s.id AND r.referral_counted_at > ?1) " +
  "AS referrals FROM signups s WHERE s.seq > ?2 AND s.seq <= ?3 AND s.confirmed_at IS NOT NULL AND s.confirmed_at <= ?1 " +
  "AND s.disqualified_at IS NULL";

/** Whether a format 1 draw is committed: its `draw_commit` audit entry (`?1` the draw's id). */
export const DRAW_COMMITTED_SQL = `SELECT count(*) AS committed FROM audit_log WHERE action = '${DRAW_COMMIT_ACTION}' AND json_extract(after, '$.draw') = ?1`;

/** A row of ELIGIBLE_PAGE_SQL. */
export interface EligibleRow {
  draw_ticket: string | null;
  referrals: number;
}

/**
 * The eligible people of one page of seq.
 * @throws Error when an eligible person has no ticket (a database the migrations have not reached)
 */
export async function eligiblePage(
  db: D1Database,
  cutoff: string,
  afterSeq: number,
  throughSeq: number,
): Promise<{ ticket: string; referrals: number }[]> {
  const { results } = await db.prepare(ELIGIBLE_PAGE_SQL).bind(cutoff, afterSeq, throughSeq).all<EligibleRow>();
  return results.map((row) => {
    if (!row.draw_ticket) throw new Error("An eligible person has no draw ticket: run the migrations first.");
    return { ticket: row.draw_ticket, referrals: Math.max(0, row.referrals) };
  });
}

/** Whether draw `drawId` has a format 1 commitment in the audit log. */
export async function drawCommitted(db: D1Database, drawId: string): Promise<boolean> {
  const row = await db.prepare(DRAW_COMMITTED_SQL).bind(drawId).first<{ committed: number }>();
  return (row?.committed ?? 0) > 0;
}
