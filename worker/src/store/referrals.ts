/**
 * The referral program's D1 queries beyond the signup's insert: a person by status token, an address's confirmation,
 * and counting a referral once confirmed (the credit itself is rank.ts's).
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
}

/**
 * The person a status token's hash belongs to (through the UNIQUE index on status_token_hash: one row read).
 * @param tokenHash hashStatusToken() of the token the request brought
 * @returns the person, or null when no row has that hash (or it has no referral code)
 */
export async function personByStatusTokenHash(db: D1Database, tokenHash: string): Promise<ReferralPerson | null> {
  const { results } = await db
    .prepare("SELECT id, referral_code AS referralCode, referrals FROM signups WHERE status_token_hash = ?1 AND referral_code IS NOT NULL")
    .bind(tokenHash)
    .all<ReferralPerson>();
  return results[0] ?? null;
}

/**
 * Record that an address was confirmed (the list's double opt-in): `confirmed_at` is set the first time only, so a
 * repeated confirmation changes nothing.
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
 * Count a person's referral for their first referrer, once (rank.ts's creditStatements, in one batch with the read of
 * who the referrer is): a repeated call, a person without a referrer, and a referral already counted change nothing.
 * @param referredId signups.id
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
