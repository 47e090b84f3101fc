/**
 * The D1 queries of delivery to Klaviyo: the delivery columns of `signups` (docs/delivery.md). Every write
 * of the delivery state is conditional on the row still being `pending`, so a message delivered twice (queues deliver
 * at least once) never moves a settled row.
 */

/** A row's delivery state (the CHECK constraint of migrations/0001_signups.sql). */
export type DeliveryState = "pending" | "delivered" | "refused" | "demo";

/** What the queue consumer reads of a signup. */
export interface DeliveryRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  /** Klaviyo custom source the signup named; null: the build's default. */
  source: string | null;
  /** JSON object of profile properties (UTM / attribution), as stored. */
  properties: string;
  delivery_state: DeliveryState;
  delivery_attempts: number;
  /** The last failure's or the refusal's reason (no personal data); null when none. */
  delivery_error: string | null;
  referral_code: string | null;
  /** Counted referrals. */
  referrals: number;
  referrer_code: string | null;
  /** The status link's token, kept until the delivery settles; null after, or when none was made. */
  status_token: string | null;
}

const SELECT_ROWS = `
SELECT signups.id, signups.email, signups.first_name, signups.last_name, signups.source, signups.properties,
  signups.delivery_state, signups.delivery_attempts, signups.delivery_error, signups.referral_code, signups.referrals,
  referrer.referral_code AS referrer_code, signups.status_token
FROM signups LEFT JOIN signups AS referrer ON referrer.id = signups.referred_by
WHERE signups.id IN (SELECT value FROM json_each(?1))`;

/**
 * The rows of a batch of messages (signups.id values), in one query.
 * @returns the rows found, by id; an id without a row (erased since it was queued) is absent
 * @throws whatever D1 throws (the consumer retries the batch)
 */
export async function readDeliveryRows(db: D1Database, ids: string[]): Promise<Map<string, DeliveryRow>> {
  const { results } = await db.prepare(SELECT_ROWS).bind(JSON.stringify(ids)).all<DeliveryRow>();
  return new Map(results.map((row) => [row.id, row]));
}

/**
 * Klaviyo took the signup: `delivered` at `at` (ISO 8601 UTC), one more attempt. The status token has reached
 * Klaviyo (the profile's `waitlist_status_url`) and is no longer kept; only its hash stays.
 */
export function markDelivered(db: D1Database, id: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE signups SET delivery_state = 'delivered', delivery_attempts = delivery_attempts + 1, delivery_error = NULL,
       delivered_at = ?2, delivery_due_at = NULL, status_token = NULL WHERE id = ?1 AND delivery_state = 'pending'`,
    )
    .bind(id, at);
}

/** Klaviyo refused the address: `refused`, with its reason (no personal data), one more attempt; the status token is dropped (never sent). */
export function markRefused(db: D1Database, id: string, reason: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE signups SET delivery_state = 'refused', delivery_attempts = delivery_attempts + 1, delivery_error = ?2,
       delivery_due_at = NULL, status_token = NULL WHERE id = ?1 AND delivery_state = 'pending'`,
    )
    .bind(id, reason);
}

/** The attempt failed and is retried: still `pending`, the failure (no personal data), when the retry is due (ISO 8601 UTC). */
export function markRetrying(db: D1Database, id: string, reason: string, dueAt: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE signups SET delivery_attempts = delivery_attempts + 1, delivery_error = ?2, delivery_due_at = ?3
       WHERE id = ?1 AND delivery_state = 'pending'`,
    )
    .bind(id, reason, dueAt);
}

/** Demo delivery (no Klaviyo key): `demo`, nothing was sent, so no attempt is counted; the status token is dropped. */
export function markDemo(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE signups SET delivery_state = 'demo', delivery_due_at = NULL, status_token = NULL WHERE id = ?1 AND delivery_state = 'pending'`,
    )
    .bind(id);
}

/**
 * Run the statements of a batch's outcomes in one round trip (D1 runs a batch as one transaction).
 * @returns each statement's RETURNING rows, in order
 * @throws whatever D1 throws (the consumer then retries every message of the batch; Klaviyo's calls are idempotent)
 */
export async function saveDeliveryOutcomes(db: D1Database, statements: D1PreparedStatement[]): Promise<unknown[][]> {
  if (statements.length === 0) return [];
  return (await db.batch(statements)).map((result) => result.results);
}

/**
 * Claims the pending rows whose delivery is overdue: due before `overdueBefore`, or never attempted and created
 * before it (both times ISO 8601 UTC). Their due time becomes `now`, so the next sweep leaves them alone until they
 * are overdue again; one statement, so two sweeps running at once never claim the same row.
 * @param limit rows at most, oldest signups first
 * @returns the claimed rows' ids
 */
export async function claimOverdueDeliveries(db: D1Database, overdueBefore: string, now: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `UPDATE signups SET delivery_due_at = ?2 WHERE id IN (
         SELECT id FROM signups WHERE delivery_state = 'pending' AND COALESCE(delivery_due_at, created_at) < ?1 ORDER BY seq LIMIT ?3
       ) RETURNING id`,
    )
    .bind(overdueBefore, now, limit)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/**
 * A profile update of the person ran out of the queue's retries: it falls due at `at` (ISO 8601 UTC) for the sweep.
 * A row that is gone or refused owes nothing and is left as it is.
 */
export function markProfileUpdateDue(db: D1Database, id: string, at: string): D1PreparedStatement {
  return db.prepare(`UPDATE signups SET profile_update_due_at = ?2 WHERE id = ?1 AND delivery_state != 'refused'`).bind(id, at);
}

/**
 * The people owed a profile update that fell due before `dueBefore` (ISO 8601 UTC), earliest first.
 * @param limit rows at most
 * @returns their ids and due times, to clear with clearProfileUpdatesDue once the updates are queued
 */
export async function dueProfileUpdates(db: D1Database, dueBefore: string, limit: number): Promise<{ id: string; dueAt: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, profile_update_due_at AS dueAt FROM signups
       WHERE profile_update_due_at IS NOT NULL AND profile_update_due_at < ?1 ORDER BY profile_update_due_at LIMIT ?2`,
    )
    .bind(dueBefore, limit)
    .all<{ id: string; dueAt: string }>();
  return results;
}

/**
 * Clear the due marks of updates that have been queued again; a mark set anew since it was read (a later dead letter)
 * stays. Cleared after the send, not before: a send that fails leaves the marks for the next sweep, and an update sent
 * twice is harmless (Klaviyo's profile-import is idempotent).
 * @param due what dueProfileUpdates returned
 */
export async function clearProfileUpdatesDue(db: D1Database, due: { id: string; dueAt: string }[]): Promise<void> {
  if (due.length === 0) return;
  await db.batch(
    due.map(({ id, dueAt }) =>
      db.prepare(`UPDATE signups SET profile_update_due_at = NULL WHERE id = ?1 AND profile_update_due_at = ?2`).bind(id, dueAt),
    ),
  );
}
