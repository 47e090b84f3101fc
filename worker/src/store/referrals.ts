/**
 * The D1 queries of the referral program beyond a signup's own insert (worker/src/store/signups.ts): a person by
 * their status token and their choice to be shown on the leaderboard, a confirmation of their address, and counting
 * their referral once it is confirmed. Positions and credits themselves are worker/src/store/rank.ts's.
 */
import type { D1Database } from "@cloudflare/workers-types";
import { creditStatements } from "./rank";

/** A person's referral standing as stored (their position is rank.ts's positionOf). */
export interface ReferralPerson {
  /** signups.id */
  id: string;
  referralCode: string;
  /** Counted referrals. */
  referrals: number;
  /** Whether they chose to be shown on the public leaderboard (hidden until they do). */
  leaderboardShown: boolean;
}

/**
 * The person a status token's hash belongs to (through the UNIQUE index on status_token_hash: one row read).
 * @param tokenHash hashStatusToken() of the token the request brought
 * @returns the person, or null when no row has that hash (or it has no referral code)
 */
export async function personByStatusTokenHash(db: D1Database, tokenHash: string): Promise<ReferralPerson | null> {
  const { results } = await db
    .prepare(
      `SELECT id, referral_code AS referralCode, referrals, leaderboard_shown_at IS NOT NULL AS shown FROM signups
       WHERE status_token_hash = ?1 AND referral_code IS NOT NULL`,
    )
    .bind(tokenHash)
    .all<Omit<ReferralPerson, "leaderboardShown"> & { shown: number }>();
  const row = results[0];
  if (!row) return null;
  const { shown, ...person } = row;
  return { ...person, leaderboardShown: shown === 1 };
}

/**
 * Show a person on the public leaderboard from now on (`leaderboard_shown_at`: when they chose it, kept while they
 * stay shown), or hide them (NULL).
 * @param id their signups.id
 * @param shown true to show, false to hide
 * @param at ISO 8601 UTC, the time of the choice
 */
export async function chooseLeaderboardShown(db: D1Database, id: string, shown: boolean, at: string): Promise<void> {
  await db
    .prepare("UPDATE signups SET leaderboard_shown_at = CASE WHEN ?2 THEN COALESCE(leaderboard_shown_at, ?3) END WHERE id = ?1")
    .bind(id, shown ? 1 : 0, at)
    .run();
}

/**
 * Record that an address was confirmed (the list's double opt-in): `confirmed_at` is set the first time only, so a
 * repeated confirmation changes nothing.
 * @param emailKey the address's comparison key (worker/src/signups/email-key.ts)
 * @param at ISO 8601 UTC
 * @returns the person's signups.id, or null when the address is not on the waitlist
 */
export async function confirmAddress(db: D1Database, emailKey: string, at: string): Promise<string | null> {
  const { results } = await db
    .prepare("UPDATE signups SET confirmed_at = COALESCE(confirmed_at, ?2) WHERE email_key = ?1 RETURNING id")
    .bind(emailKey, at)
    .all<{ id: string }>();
  return results[0]?.id ?? null;
}

/**
 * Record that a person's address counts as confirmed, by their row: `confirmed_at` is set the first time only. For
 * demo delivery outside production (delivery/demo.ts), where no confirmation from Klaviyo can come.
 * @param id signups.id
 * @param at ISO 8601 UTC
 * @returns whether the row exists
 */
export async function confirmSignup(db: D1Database, id: string, at: string): Promise<boolean> {
  const result = await db.prepare("UPDATE signups SET confirmed_at = COALESCE(confirmed_at, ?2) WHERE id = ?1").bind(id, at).run();
  return (result.meta.changes ?? 0) > 0;
}

/**
 * Count a person's referral for their first referrer, once (rank.ts's creditStatements, in one batch with the read of
 * who the referrer is): a repeated call, a person without a referrer, and a referral already counted change nothing.
 * @param referredId signups.id of the person whose referral counts now
 * @param placesPerReferral content: referrals.placesPerReferral
 * @param at ISO 8601 UTC (referral_counted_at)
 * @returns the referrer's signups.id when this call counted the referral, else null
 * @throws whatever D1 throws (nothing was written)
 */
export async function countReferral(db: D1Database, referredId: string, placesPerReferral: number, at: string): Promise<string | null> {
  const results = await db.batch<{ referred_by: string | null }>([
    ...creditStatements(db, referredId, placesPerReferral, at),
    db.prepare("SELECT referred_by FROM signups WHERE id = ?1").bind(referredId),
  ]);
  const counted = (results[results.length - 2].meta.changes ?? 0) > 0;
  return counted ? (results[results.length - 1].results[0]?.referred_by ?? null) : null;
}
