/**
 * The referral program's D1 queries beyond the signup's insert: a person by status token and their choice to be
 * shown on the leaderboard, an address's confirmation, counting a referral once confirmed (the credit is rank.ts's),
 * and the "already on the list" notice: its grant per network and its claim per person.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
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
 * The person a status token's hash belongs to: their link in use (status_token_hash), or the link an "already on the
 * list" notice sent them (pending_status_token_hash), through the UNIQUE index on each (a row read from each). The
 * notice's link is promoted on its first use: it becomes the link in use, and the older one stops working then, not
 * when a stranger signed up with the address.
 * @param tokenHash hashStatusToken() of the token the request brought
 * @returns the person, or null when no row has that hash (or it has no referral code)
 * @throws whatever D1 throws
 */
export async function personByStatusTokenHash(db: D1Database, tokenHash: string): Promise<ReferralPerson | null> {
  const { results } = await db
    .prepare(
      `SELECT id, referral_code AS referralCode, referrals, leaderboard_shown_at IS NOT NULL AS shown,
         pending_status_token_hash IS ?1 AS pending
       FROM signups WHERE (status_token_hash = ?1 OR pending_status_token_hash = ?1) AND referral_code IS NOT NULL`,
    )
    .bind(tokenHash)
    .all<Omit<ReferralPerson, "leaderboardShown"> & { shown: number; pending: number }>();
  const row = results[0];
  if (!row) return null;
  const { shown, pending, ...person } = row;
  if (pending === 1)
    await db
      .prepare(
        `UPDATE signups SET status_token_hash = pending_status_token_hash, pending_status_token_hash = NULL
         WHERE id = ?1 AND pending_status_token_hash = ?2`,
      )
      .bind(person.id, tokenHash)
      .run();
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
 * The person an address's comparison key stands for (through the UNIQUE index on email_key: one row read).
 * @returns their signups.id, or null when the address is not on the waitlist
 */
export async function personByEmailKey(db: D1Database, emailKey: string): Promise<string | null> {
  const row = await db.prepare("SELECT id FROM signups WHERE email_key = ?1").bind(emailKey).first<{ id: string }>();
  return row?.id ?? null;
}

/** What a confirmation changed. */
export interface Confirmation {
  /** false when no row has that id (erased since). */
  found: boolean;
  /** The referrer whose referral this confirmation counted, for their profile update; null when none. */
  creditedReferrerId: string | null;
  /** How many of the person's own friends' referrals counted now that the person is confirmed. */
  friendsCounted: number;
}

/** Friends' referrals credited per batch when a referrer confirms (a batch is one transaction). */
const FRIENDS_PER_BATCH = 50;

/**
 * Record that a person confirmed their address (the list's double opt-in): `confirmed_at` is set the first time only.
 * With `program.confirmed` (countAfter: confirmation) a referral counts only when both people are confirmed, so this
 * counts the person's own referral for their first referrer, and every referral of their friends who had confirmed
 * first and waited for them. Each credit is rank.ts's creditStatements, idempotent: a repeated confirmation counts
 * nothing twice.
 * @param at ISO 8601 UTC
 * @throws whatever D1 throws (the queue consumer retries the message)
 */
export async function confirmPerson(
  db: D1Database,
  id: string,
  at: string,
  program: { placesPerReferral: number; confirmed: boolean },
): Promise<Confirmation> {
  const { results } = await db
    .prepare("UPDATE signups SET confirmed_at = COALESCE(confirmed_at, ?2) WHERE id = ?1 RETURNING id")
    .bind(id, at)
    .all<{ id: string }>();
  if (results.length === 0) return { found: false, creditedReferrerId: null, friendsCounted: 0 };
  if (!program.confirmed) return { found: true, creditedReferrerId: null, friendsCounted: 0 };
  const creditedReferrerId = await countReferral(db, id, program.placesPerReferral, at);
  let friendsCounted = 0;
  for (;;) {
    const { results: waiting } = await db
      .prepare(
        `SELECT id FROM signups WHERE referred_by = ?1 AND confirmed_at IS NOT NULL AND referral_counted_at IS NULL
           AND referral_hold IS NULL LIMIT ${FRIENDS_PER_BATCH}`,
      )
      .bind(id)
      .all<{ id: string }>();
    if (waiting.length === 0) break;
    const results = await db.batch(
      waiting.flatMap((friend) => creditStatements(db, friend.id, program.placesPerReferral, at, { confirmed: true })),
    );
    // The third statement of each credit marks the friend counted; a friend another confirmation counted meanwhile is skipped.
    friendsCounted += results.filter((result, index) => index % 3 === 2 && (result.meta.changes ?? 0) > 0).length;
    if (waiting.length < FRIENDS_PER_BATCH) break;
  }
  return { found: true, creditedReferrerId, friendsCounted };
}

/**
 * Count a person's referral for their first referrer once both are confirmed (rank.ts's creditStatements, in one batch
 * with the read of who the referrer is): a repeated call, a person without a referrer, a held referral and a referral
 * already counted change nothing.
 * @returns the referrer's signups.id when this call counted the referral, else null
 * @throws whatever D1 throws (nothing was written)
 */
async function countReferral(db: D1Database, referredId: string, placesPerReferral: number, at: string): Promise<string | null> {
  const results = await db.batch<{ referred_by: string | null }>([
    ...creditStatements(db, referredId, placesPerReferral, at, { confirmed: true }),
    db.prepare("SELECT referred_by FROM signups WHERE id = ?1").bind(referredId),
  ]);
  const counted = (results[results.length - 2].meta.changes ?? 0) > 0;
  return counted ? (results[results.length - 1].results[0]?.referred_by ?? null) : null;
}

/** How often a person is told at most that someone signed up again with their address (ms). */
export const ALREADY_NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * "Already on the list" notices one client network (store: already_notices) may set off per UTC day. Anyone may type
 * anyone's address, so without it one network could have the brand e-mail every address it knows once a day; a
 * person who signs up again to find their link is rarely behind a network that did so this often today.
 */
export const ALREADY_NOTICES_PER_NETWORK_PER_DAY = 5;

/**
 * The statement, for the signup's own batch after its insert, that grants an "already on the list" notice: only when
 * the address was on the list before this signup (a row of its key other than `newId`), the person's welcome was
 * delivered (or demo) and they were not told within ALREADY_NOTICE_INTERVAL_MS, and the client network has had fewer
 * than ALREADY_NOTICES_PER_NETWORK_PER_DAY today. Its RETURNING row is the grant; a newcomer's batch runs it too, so
 * both cost the same round trip.
 * @param signup the signup's new id, address key, time (ISO 8601 UTC) and client network hash (null: none)
 */
export function alreadyNoticeGrant(
  db: D1Database,
  signup: { newId: string; emailKey: string; at: string; ipHash: string | null },
): D1PreparedStatement {
  const since = new Date(Date.parse(signup.at) - ALREADY_NOTICE_INTERVAL_MS).toISOString();
  return db
    .prepare(
      `INSERT INTO already_notices (day, network, notices)
       SELECT ?1, ?2, 1 FROM signups
       WHERE email_key = ?3 AND id <> ?4 AND delivery_state IN ('delivered', 'demo') AND (notified_again_at IS NULL OR notified_again_at < ?5)
       ON CONFLICT (day, network) DO UPDATE SET notices = notices + 1 WHERE notices < ?6
       RETURNING notices`,
    )
    .bind(signup.at.slice(0, 10), signup.ipHash ?? "", signup.emailKey, signup.newId, since, ALREADY_NOTICES_PER_NETWORK_PER_DAY);
}

/**
 * Forget the notices granted before `day` (YYYY-MM-DD, UTC): the cron sweep's, so the table holds today's networks only.
 */
export async function forgetAlreadyNoticesBefore(db: D1Database, day: string): Promise<void> {
  await db.prepare("DELETE FROM already_notices WHERE day < ?1").bind(day).run();
}

/**
 * Claim the "you're already on the list" e-mail for a person whose welcome was delivered (or demo) and who was not told
 * within ALREADY_NOTICE_INTERVAL_MS: a new status token is made pending beside their link in use, which keeps working
 * until the new one is first used (personByStatusTokenHash); only hashes are stored, so the link in use cannot be sent
 * again. The token is kept in the row until the notice is sent, so a retry sends the same link.
 * @param token a new status token, used unless a claimed notice still waits with one
 * @returns the token to send, or null when the person may not be told now
 */
export async function claimAlreadyNotice(
  db: D1Database,
  id: string,
  token: { token: string; hash: string },
  now: string,
): Promise<string | null> {
  const since = new Date(Date.parse(now) - ALREADY_NOTICE_INTERVAL_MS).toISOString();
  const row = await db
    .prepare(
      `UPDATE signups SET pending_status_token_hash = CASE WHEN status_token IS NULL THEN ?3 ELSE pending_status_token_hash END,
         status_token = COALESCE(status_token, ?2)
       WHERE id = ?1 AND delivery_state IN ('delivered', 'demo') AND (notified_again_at IS NULL OR notified_again_at < ?4)
       RETURNING status_token`,
    )
    .bind(id, token.token, token.hash, since)
    .first<{ status_token: string }>();
  return row?.status_token ?? null;
}

/** The notice reached Klaviyo: the token is no longer kept (its hash stays), and the time is recorded. */
export async function settleAlreadyNotice(db: D1Database, id: string, at: string): Promise<void> {
  await db.prepare("UPDATE signups SET status_token = NULL, notified_again_at = ?2 WHERE id = ?1").bind(id, at).run();
}
