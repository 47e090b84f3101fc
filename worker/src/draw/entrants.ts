/**
 * The giveaway's eligible entrants and its commitment in D1: who is in a draw (confirmed by the cut-off, not
 * disqualified; an erased person has no row) with the referrals credited by then, and the audit entry that makes a
 * commitment once and only once. The console's commit route runs these; the command line runs the same SQL through
 * wrangler (scripts/giveaway/draw.ts).
 */
import type { D1Database } from "@cloudflare/workers-types";
import { DRAW_COMMIT_ACTION, type EligibleEntrant } from "../../../shared/giveaway/commit";
import { appendAudit, appendStatement } from "../console/audit-log";
import { entriesOf } from "../referrals/standing";

/**
 * Every eligible person's referral code and the referrals credited to them by the cut-off (`?1`, ISO 8601 UTC).
 * Reads every confirmed row once, plus each one's referred rows through signups_referred_recent: about 2 rows per
 * signup (2,000,000 at a million), once per draw.
 */
export const ELIGIBLE_ENTRANTS_SQL =
  "SELECT s.referral_code, s.referrals - (SELECT count(*) FROM signups r WHERE r.referred_by = s.id AND r.referral_counted_at > ?1) " +
  "AS referrals FROM signups s WHERE s.confirmed_at IS NOT NULL AND s.confirmed_at <= ?1 AND s.disqualified_at IS NULL";

/** Whether a draw is committed: its `draw_commit` audit entry (`?1` the draw's id). Reads the audit log once. */
export const DRAW_COMMITTED_SQL = `SELECT count(*) AS committed FROM audit_log WHERE action = '${DRAW_COMMIT_ACTION}' AND json_extract(after, '$.draw') = ?1`;

/** A row of ELIGIBLE_ENTRANTS_SQL. */
export interface EligibleRow {
  referral_code: string | null;
  referrals: number;
}

/**
 * The rows as entrants with their entries (1 + entriesPerReferral × referrals).
 * @throws Error when an eligible person has no referral code (a database the migrations have not reached)
 */
export function eligibleEntrantsOf(rows: readonly EligibleRow[], entriesPerReferral: number): EligibleEntrant[] {
  return rows.map((row) => {
    if (!row.referral_code) throw new Error("An eligible person has no referral code, so no pseudonym: run the migrations first.");
    return { referralCode: row.referral_code, entries: entriesOf(Math.max(0, row.referrals), entriesPerReferral) };
  });
}

/**
 * The eligible entrants at `cutoff` (ISO 8601 UTC).
 * @throws Error as eligibleEntrantsOf
 */
export async function eligibleEntrants(db: D1Database, cutoff: string, entriesPerReferral: number): Promise<EligibleEntrant[]> {
  const { results } = await db.prepare(ELIGIBLE_ENTRANTS_SQL).bind(cutoff).all<EligibleRow>();
  return eligibleEntrantsOf(results, entriesPerReferral);
}

/** Whether draw `drawId` is committed already. */
export async function drawCommitted(db: D1Database, drawId: string): Promise<boolean> {
  const row = await db.prepare(DRAW_COMMITTED_SQL).bind(drawId).first<{ committed: number }>();
  return (row?.committed ?? 0) > 0;
}

/**
 * Append a commitment's audit entry unless the draw already has one, in one statement, so two operators committing at
 * once cannot both succeed.
 * @returns false when the draw was committed already (nothing written)
 */
export async function recordCommitment(
  db: D1Database,
  entry: { at: string; operator: string; action: string; reason: string; after: Record<string, unknown> },
): Promise<boolean> {
  const fields = { ...entry, person_id: null, before: null, after: JSON.stringify(entry.after) };
  const result = await appendAudit(db, async (tail) =>
    (
      await appendStatement(
        db,
        tail,
        fields,
        "WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE action = ?4 AND json_extract(after, '$.draw') = json_extract(?7, '$.draw'))",
      )
    ).run(),
  );
  return (result.meta.changes ?? 0) > 0;
}
