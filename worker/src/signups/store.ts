/**
 * Storing a signup in D1, once per person. Every value is a bound parameter: a name like
 * `Robert'); DROP TABLE signups;--` is stored as the text it is.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { isConsumerDomain } from "../bots/consumer-domains";
import {
  BURST_REFERRALS,
  BURST_WINDOW_MS,
  DOMAIN_CLUSTER_REFERRALS,
  type FairPlayLimits,
  FLAGS,
  HOLD_WINDOW_MS,
  HOLDS,
} from "../referrals/fair-play";
import { creditStatements, insertStatements } from "../store/rank";
import { alreadyNoticeGrant } from "../store/referrals";

/** One signup to store; every value already checked and trimmed. */
export interface NewSignup {
  /** A random UUID. */
  id: string;
  /** As typed (trimmed): what Klaviyo receives. */
  email: string;
  /** The address compared (worker/src/signups/email-key.ts); one row per key. */
  emailKey: string;
  firstName: string;
  lastName: string;
  /** Klaviyo custom source; null when neither the request nor the settings name one. */
  source: string | null;
  /** Profile properties (UTM / attribution). */
  properties: Record<string, string>;
  /** Salted SHA-256 of the client IP (hex), or null when the request had none. */
  ipHash: string | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** A new referral code (worker/src/referrals/codes.ts); the caller draws another when ReferralCodeTaken is thrown. */
  referralCode: string;
  /** The new status token and its hash; null while the referral program is off. The token is kept until delivery settles. */
  statusToken: { token: string; hash: string } | null;
}

/** What the referral program does with one signup; null while it is off. */
export interface ReferralRules {
  /** The referral code the signup brought (`ref`), already well-formed; null when none. */
  ref: string | null;
  /** Count the referral in the same batch as the insert (content: `referrals.countAfter` is `signup`). */
  countNow: boolean;
  /** content: referrals.placesPerReferral. */
  placesPerReferral: number;
  /** Referred signups per hour past which a referral is held for review (fair-play.ts). */
  limits: FairPlayLimits;
}

/** The stored row a signup ended in. */
export interface StoredSignup {
  id: string;
  /** ISO 8601 UTC, when the person first signed up. */
  createdAt: string;
  /** true when this call made the row; false when the address (by its key) was on the list already. */
  created: boolean;
  /** null only for a row stored without a code. */
  referralCode: string | null;
  /** Counted referrals. */
  referrals: number;
  /** The signups.id of the referrer this call counted a referral for; null when it counted none. */
  creditedReferrerId: string | null;
  /**
   * An address already on the list whose person may be told so now (store/referrals.ts: alreadyNoticeGrant, per person
   * and per client network); always false for a new row.
   */
  noticeGranted: boolean;
}

/** The UNIQUE index on referral_code refused the new row's code: draw another and store again (nothing was written). */
export class ReferralCodeTaken extends Error {
  constructor() {
    super("The new referral code is taken already.");
    this.name = "ReferralCodeTaken";
  }
}

/**
 * New row, with the next `seq` taken inside the same statement, and the first referrer looked up by code inside it
 * too. D1 runs one statement at a time, so two signups can never read the same MAX(seq), and the limits and flags
 * below count the rows as they are at that moment (exact under concurrency, like the credit);
 * `ON CONFLICT(email_key) DO NOTHING` makes a second signup of one person, even a concurrent one, insert nothing,
 * so `referred_by` is written once, by the first signup: the first referrer only. A new row can never be its own
 * referrer (its code is not stored yet when the lookup runs). Every count stops at the number it is compared with
 * (LIMIT), so a signup reads a bounded number of rows however busy a referrer is. (SQLite needs the WHERE in an
 * INSERT … SELECT that has an ON CONFLICT clause.)
 * ?13 ref code · ?14 address domain · ?15 start of the hold window · ?16 the per-code limit · ?17 the per-domain limit
 * (NULL: a consumer domain, no limit) · ?18 start of the burst window · ?19 the friends before a burst · ?20 the
 * friends on one domain before a cluster (NULL: a consumer domain).
 */
const INSERT_SIGNUP = `
INSERT INTO signups (id, seq, email, email_key, first_name, last_name, source, properties, ip_hash, created_at,
  referral_code, status_token_hash, status_token, referred_by, flags, referral_hold, email_domain)
SELECT ?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM signups), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,
  referrer.id,
  CASE WHEN referrer.id IS NULL THEN NULL ELSE nullif(trim(
    CASE WHEN referrer.ip_hash = ?8 THEN ' ${FLAGS.sameIpAsReferrer}' ELSE '' END ||
    CASE WHEN EXISTS (SELECT 1 FROM signups AS friend WHERE friend.referred_by = referrer.id AND friend.ip_hash = ?8)
      THEN ' ${FLAGS.sameIpAsOtherReferral}' ELSE '' END ||
    CASE WHEN ?20 IS NOT NULL AND (SELECT count(*) FROM (SELECT 1 FROM signups AS friend
      WHERE friend.referred_by = referrer.id AND friend.email_domain = ?14 LIMIT ?20)) >= ?20
      THEN ' ${FLAGS.domainCluster}' ELSE '' END ||
    CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM signups AS friend
      WHERE friend.referred_by = referrer.id AND friend.created_at > ?18 LIMIT ?19)) >= ?19
      THEN ' ${FLAGS.burst}' ELSE '' END
  ), '') END,
  CASE
    WHEN referrer.id IS NULL THEN NULL
    WHEN (SELECT count(*) FROM (SELECT 1 FROM signups AS friend
      WHERE friend.referred_by = referrer.id AND friend.created_at > ?15 LIMIT ?16)) >= ?16 THEN '${HOLDS.codeLimit}'
    WHEN ?17 IS NOT NULL AND (SELECT count(*) FROM (SELECT 1 FROM signups AS friend
      WHERE friend.email_domain = ?14 AND friend.referred_by IS NOT NULL AND friend.created_at > ?15 LIMIT ?17)) >= ?17
      THEN '${HOLDS.domainLimit}'
  END,
  ?14
FROM (SELECT 1) LEFT JOIN signups AS referrer ON referrer.referral_code = ?13
WHERE true
ON CONFLICT (email_key) DO NOTHING`;

/** The person an address's key stands for, after the batch. */
const SELECT_PERSON = "SELECT id, created_at, referral_code, referrals, referred_by FROM signups WHERE email_key = ?1";

/**
 * Store a signup, once per person, in ONE batch (D1 runs a batch as one transaction, so a concurrent signup never
 * sees half of it): the insert, the person's place in line (worker/src/store/rank.ts), with `rules.countNow` the
 * referrer's credit, the grant of an "already on the list" notice, and the read of the person's row. For an address
 * already on the list every statement but the grant and the read changes nothing, so signing up twice credits nobody
 * twice.
 * @param rules the referral program's part, null while it is off (no `ref` is read)
 * @returns the new row (created) or the person's existing row
 * @throws ReferralCodeTaken when the new code collides (nothing is written; draw another and call again)
 * @throws whatever else D1 throws when it cannot write (the route answers 503)
 */
export async function insertSignup(db: D1Database, signup: NewSignup, rules: ReferralRules | null): Promise<StoredSignup> {
  const at = Date.parse(signup.createdAt);
  const since = (ms: number) => new Date(at - ms).toISOString();
  const domain = signup.emailKey.slice(signup.emailKey.lastIndexOf("@") + 1);
  const consumer = isConsumerDomain(domain);
  const insert = db
    .prepare(INSERT_SIGNUP)
    .bind(
      signup.id,
      signup.email,
      signup.emailKey,
      signup.firstName,
      signup.lastName,
      signup.source,
      JSON.stringify(signup.properties),
      signup.ipHash,
      signup.createdAt,
      signup.referralCode,
      signup.statusToken?.hash ?? null,
      signup.statusToken?.token ?? null,
      rules?.ref ?? null,
      domain,
      since(HOLD_WINDOW_MS),
      rules?.limits.perCodePerHour ?? 1,
      consumer ? null : (rules?.limits.perDomainPerHour ?? 1),
      since(BURST_WINDOW_MS),
      BURST_REFERRALS - 1,
      consumer ? null : DOMAIN_CLUSTER_REFERRALS - 1,
    );
  const credit: D1PreparedStatement[] =
    rules?.countNow && rules.ref ? creditStatements(db, signup.id, rules.placesPerReferral, signup.createdAt) : [];
  let results;
  try {
    results = await db.batch<Record<string, unknown>>([
      insert,
      ...insertStatements(db, signup.id),
      ...credit,
      alreadyNoticeGrant(db, { newId: signup.id, emailKey: signup.emailKey, at: signup.createdAt, ipHash: signup.ipHash }),
      db.prepare(SELECT_PERSON).bind(signup.emailKey),
    ]);
  } catch (error) {
    if (error instanceof Error && /UNIQUE/i.test(error.message) && error.message.includes("referral_code")) throw new ReferralCodeTaken();
    throw error;
  }
  const created = (results[0].meta.changes ?? 0) > 0;
  const counted = credit.length > 0 && (results[results.length - 3].meta.changes ?? 0) > 0;
  const noticeGranted = results[results.length - 2].results.length > 0;
  const person = results[results.length - 1].results[0] as
    { id: string; created_at: string; referral_code: string | null; referrals: number; referred_by: string | null } | undefined;
  if (!person) throw new Error("The signup was neither stored nor found by its email key.");
  return {
    id: person.id,
    createdAt: person.created_at,
    created,
    referralCode: person.referral_code,
    referrals: person.referrals,
    // A credit is counted only for the row this batch created, whose referrer is its referred_by.
    creditedReferrerId: counted ? person.referred_by : null,
    noticeGranted,
  };
}
