/**
 * The operator's dashboard's counts (docs/operators.md: The dashboard's numbers). The tables and the triggers that keep
 * them are migrations/0010_rollups.sql and 0013_rollups_by_confirmed.sql: every insert, change and delete of a signups
 * row moves its counts in the same statement, whoever runs it, so nothing here has to be added to a signup's, a
 * confirmation's or a console action's batch, and the rollups always equal a full count of the rows as they are (an
 * erased person leaves every count, and a row whose count reaches 0 is deleted, so their UTM values leave too). This
 * module reads them, counts dead letters (no row records those) and rebuilds everything from the rows (the bench's bulk
 * load; the migration's backfill runs the same counts).
 *
 * One time zone: the triggers cut days at rollup_settings' offset, so every read here first makes that offset the
 * build's (cutDaysIn), and a day chart can never be read in one zone after its rows were cut in another.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { log } from "../log";

/** The rollups' triggers (migrations 0010 and 0013): a bulk load may drop them and call rebuildStatements after. */
export const ROLLUP_TRIGGERS = [
  "rollups_signup_inserted",
  "rollups_signup_deleted",
  "rollups_signup_counts_changed",
  "rollups_signup_delivery_changed",
  "rollups_utm_inserted",
  "rollups_utm_deleted",
  "rollups_utm_changed",
  "rollups_launch_invited",
  "rollups_launch_state_changed",
] as const;

/** The delivery states counted, as in signups.delivery_state. */
export const DELIVERY_STATES = ["pending", "delivered", "refused", "demo"] as const;

/** The UTM properties counted per value. */
export const UTM_KINDS = ["utm_source", "utm_campaign"] as const;
export type UtmKind = (typeof UTM_KINDS)[number];

/** rollup_utm's day of the all-time counts. */
export const ALL_TIME = "";

/** One rollup_days row: a local day's signups from one source, and how far those people got. */
export interface DayRollup {
  /** YYYY-MM-DD in the time zone of rollup_settings. */
  day: string;
  /** signups.source, "" for none. */
  source: string;
  signups: number;
  confirmed: number;
  referred: number;
  referralCounted: number;
}

/** One UTM value's signups over the days read, and how many of them confirmed. */
export interface UtmRollup {
  kind: UtmKind;
  value: string;
  signups: number;
  confirmed: number;
}

/** One of the top referrers as stored. */
export interface ReferrerRow {
  id: string;
  firstName: string;
  lastName: string;
  referralCode: string | null;
  referrals: number;
  flags: string | null;
  disqualifiedAt: string | null;
}

/** Everything the dashboard reads, from one batch (one snapshot). */
export interface RollupSnapshot {
  days: DayRollup[];
  /** Per kind, the values with the most confirmed signups of each day read (UTM_VALUES_PER_DAY), summed over the days. */
  utm: UtmRollup[];
  /** Per kind, the signups with a value on the days read, listed or not. */
  utmTotals: Record<UtmKind, number>;
  /** rollup_counters by name (`delivery_<state>`, `dead_lettered`). */
  counters: Record<string, number>;
  /** created_at of the oldest pending signup, or null. */
  oldestPendingAt: string | null;
  topReferrers: ReferrerRow[];
  /** Invitations made and accepted on the days read (rollup_launch_days). */
  launch: { invited: number; accepted: number };
}

/** Which days to read: from `from` to `to` (YYYY-MM-DD, both included), or every day (UTM counts then all-time). */
export type DaySpan = { from: string; to: string } | "all";

/** The rollups' time zone (rollup_settings). */
export interface RollupSettings {
  utcOffsetMinutes: number;
}

/**
 * UTM values read per kind and day (or for all time), those with the most confirmed signups: the dashboard lists this
 * many, so a value junk cannot outnumber in confirmed signups is always read.
 */
export const UTM_VALUES_PER_DAY = 10;

/** How many referrers the dashboard lists (the contract's "at most 10"). */
export const TOP_REFERRERS = 10;

/**
 * Make the rollups' time zone the build's before their days are read: one row read, and when rollup_settings holds
 * another offset (a new D1 starts at 0; a build whose launch moment moved), the dated counts are cut again from the
 * rows (rezoneStatements: a full scan of signups and invitations, once per change), logged as `rollups_rezoned`.
 * Rows written meanwhile wait for the batch and count in the new zone.
 * @param utcOffsetMinutes the build's time zone (service-settings.json: utcOffsetMinutes)
 * @throws Error when migration 0010 has not been applied (rollup_settings has no row)
 */
async function cutDaysIn(db: D1Database, utcOffsetMinutes: number): Promise<void> {
  const stored = await db
    .prepare(`SELECT utc_offset_minutes AS utcOffsetMinutes FROM rollup_settings WHERE id = 1`)
    .first<RollupSettings>();
  if (!stored) throw new Error("rollup_settings has no row: apply migrations/0010_rollups.sql.");
  if (stored.utcOffsetMinutes === utcOffsetMinutes) return;
  await db.batch(rezoneStatements(db, utcOffsetMinutes));
  log("rollups_rezoned", { from: stored.utcOffsetMinutes, to: utcOffsetMinutes });
}

/**
 * Read what the dashboard shows, in one batch, its days cut in the build's time zone first (cutDaysIn: one row read).
 * `span`'s days are local days at `utcOffsetMinutes`. Rows read, at 1,000,000 signups as at 10: one per (day, source) row of
 * the span; per UTM kind and day of a dated span (or once for "all") the first UTM_VALUES_PER_DAY entries of
 * rollup_utm_top and a primary-key lookup of each, so at most 2 × UTM_VALUES_PER_DAY, however many values strangers
 * made up, plus one rollup_utm_totals row; the counters (5 rows); the oldest pending signup (1 row, through
 * signups_delivery); the top referrers (TOP_REFERRERS rows, through signups_referrers).
 */
export async function readRollups(db: D1Database, span: DaySpan, utcOffsetMinutes: number): Promise<RollupSnapshot> {
  await cutDaysIn(db, utcOffsetMinutes);
  const dated = span !== "all";
  // All time is the one day ''.
  const [from, to] = dated ? [span.from, span.to] : [ALL_TIME, ALL_TIME];
  const [days, utm, totals, counters, oldest, referrers, launch] = await db.batch<Record<string, unknown>>([
    dated
      ? db.prepare(`${SELECT_DAYS} WHERE day BETWEEN ?1 AND ?2 ORDER BY day, source`).bind(span.from, span.to)
      : db.prepare(`${SELECT_DAYS} ORDER BY day, source`),
    db.prepare(SELECT_TOP_UTM).bind(from, to, UTM_VALUES_PER_DAY),
    db.prepare("SELECT kind, sum(signups) AS signups FROM rollup_utm_totals WHERE day BETWEEN ?1 AND ?2 GROUP BY kind").bind(from, to),
    db.prepare("SELECT name, count FROM rollup_counters"),
    db.prepare("SELECT created_at AS createdAt FROM signups WHERE delivery_state = 'pending' ORDER BY seq LIMIT 1"),
    db
      .prepare(
        `SELECT id, first_name AS firstName, last_name AS lastName, referral_code AS referralCode, referrals, flags,
           disqualified_at AS disqualifiedAt
         FROM signups WHERE referrals > 0 ORDER BY referrals DESC, seq LIMIT ?1`,
      )
      .bind(TOP_REFERRERS),
    dated
      ? db.prepare(`${SELECT_LAUNCH_TOTALS} AND day BETWEEN ?1 AND ?2 GROUP BY state`).bind(span.from, span.to)
      : db.prepare(`${SELECT_LAUNCH_TOTALS} GROUP BY state`),
  ]);
  const launched = Object.fromEntries((launch.results as { state: string; count: number }[]).map(({ state, count }) => [state, count]));
  return {
    days: days.results as unknown as DayRollup[],
    utm: utm.results as unknown as UtmRollup[],
    utmTotals: {
      utm_source: 0,
      utm_campaign: 0,
      ...Object.fromEntries((totals.results as { kind: UtmKind; signups: number }[]).map(({ kind, signups }) => [kind, signups])),
    },
    counters: Object.fromEntries((counters.results as { name: string; count: number }[]).map(({ name, count }) => [name, count])),
    oldestPendingAt: (oldest.results[0] as { createdAt: string } | undefined)?.createdAt ?? null,
    topReferrers: referrers.results as unknown as ReferrerRow[],
    launch: { invited: launched.invited ?? 0, accepted: launched.accepted ?? 0 },
  };
}

/** One week's counts from the rollups: signups (and of those, confirmed) and invitations made. */
export interface WeekRollup {
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  signups: number;
  confirmed: number;
  invited: number;
}

/** SQLite's Monday on or before a YYYY-MM-DD `day` column. */
export const MONDAY_OF_DAY = "date(day, '-6 days', 'weekday 1')";

/**
 * Every week's signups, confirmations and invitations, weeks of local days at `utcOffsetMinutes` (cutDaysIn first:
 * one row read). Rows read: every rollup_days row (days × sources) and rollup_launch_days row (days × 4), however many
 * signups there are.
 */
export async function readWeeks(db: D1Database, utcOffsetMinutes: number): Promise<WeekRollup[]> {
  await cutDaysIn(db, utcOffsetMinutes);
  const [signups, invited] = await db.batch<{ week: string; signups: number; confirmed: number; invited: number }>([
    db.prepare(
      `SELECT ${MONDAY_OF_DAY} AS week, sum(signups) AS signups, sum(confirmed) AS confirmed, 0 AS invited
       FROM rollup_days WHERE day <> '' GROUP BY week`,
    ),
    db.prepare(
      `SELECT ${MONDAY_OF_DAY} AS week, 0 AS signups, 0 AS confirmed, sum(count) AS invited
       FROM rollup_launch_days WHERE state = 'invited' GROUP BY week`,
    ),
  ]);
  const byWeek = new Map<string, WeekRollup>();
  for (const row of [...signups.results, ...invited.results]) {
    const week = byWeek.get(row.week) ?? { week: row.week, signups: 0, confirmed: 0, invited: 0 };
    week.signups += row.signups;
    week.confirmed += row.confirmed;
    week.invited += row.invited;
    byWeek.set(row.week, week);
  }
  return [...byWeek.values()];
}

const SELECT_LAUNCH_TOTALS = "SELECT state, sum(count) AS count FROM rollup_launch_days WHERE state IN ('invited', 'accepted')";

/** One local day of launch day's rollups: people who joined the line, and invitations that reached each state. */
export interface LaunchDayRollup {
  day: string;
  joined: number;
  invited: number;
  accepted: number;
  expired: number;
  revoked: number;
}

/**
 * The launch funnel's days from `from` to `to` (YYYY-MM-DD local days at `utcOffsetMinutes`, both included), days
 * without a row left out, cut in that zone first (cutDaysIn: one row read). Rows read: the days' rollup_days rows
 * (days × sources) and rollup_launch_days rows (days × 4), both by primary key.
 */
export async function readLaunchDays(db: D1Database, from: string, to: string, utcOffsetMinutes: number): Promise<LaunchDayRollup[]> {
  await cutDaysIn(db, utcOffsetMinutes);
  const [joined, states] = await db.batch<{ day: string; state: string; count: number }>([
    db
      .prepare("SELECT day, 'joined' AS state, sum(signups) AS count FROM rollup_days WHERE day BETWEEN ?1 AND ?2 GROUP BY day")
      .bind(from, to),
    db.prepare("SELECT day, state, count FROM rollup_launch_days WHERE day BETWEEN ?1 AND ?2").bind(from, to),
  ]);
  const byDay = new Map<string, LaunchDayRollup>();
  for (const row of [...joined.results, ...states.results]) {
    const day = byDay.get(row.day) ?? { day: row.day, joined: 0, invited: 0, accepted: 0, expired: 0, revoked: 0 };
    day[row.state as Exclude<keyof LaunchDayRollup, "day">] = row.count;
    byDay.set(row.day, day);
  }
  return [...byDay.values()];
}

const SELECT_DAYS = `SELECT day, source, signups, confirmed, referred, referral_counted AS referralCounted FROM rollup_days`;

/**
 * Per kind, each day's ?3 values with the most confirmed signups (then the most signups, then by value) from ?1 to ?2
 * (YYYY-MM-DD; '' and '' for all time), summed per value. The IN list, read from rollup_utm_top's first entries for the
 * day, drives a primary-key lookup of each, so a day's other values are never read.
 */
const SELECT_TOP_UTM = `
WITH RECURSIVE span (day) AS (SELECT ?1 UNION ALL SELECT date(day, '+1 day') FROM span WHERE day < ?2)
SELECT u.kind, u.value, sum(u.signups) AS signups, sum(u.confirmed) AS confirmed
FROM span, (SELECT 'utm_source' AS kind UNION ALL SELECT 'utm_campaign') AS k, rollup_utm AS u
WHERE u.day = span.day AND u.kind = k.kind AND u.value IN (
  SELECT top.value FROM rollup_utm AS top WHERE top.day = span.day AND top.kind = k.kind
  ORDER BY top.confirmed DESC, top.signups DESC, top.value LIMIT ?3)
GROUP BY u.kind, u.value`;

/** The local day of signups.created_at in the rollups' time zone, in SQL. */
const DAY_OF_ROW = `date(signups.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes')`;

/** rollup_days from the rows: the triggers' counts, all at once (a full scan). */
const INSERT_DAYS = `INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
SELECT ${DAY_OF_ROW}, coalesce(source, ''), count(*), count(confirmed_at), count(referred_by), count(referral_counted_at)
FROM signups GROUP BY 1, 2`;

/** rollup_launch_days from the invitations (a full scan): each reached `invited` on its day, and its end state on its. */
const INSERT_LAUNCH_DAYS = `INSERT INTO rollup_launch_days (day, state, count)
SELECT day, state, count(*) FROM (
  SELECT date(invited_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AS day, 'invited' AS state FROM invitations
  UNION ALL
  SELECT date(coalesce(accepted_at, expired_at, revoked_at), (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes'), state
  FROM invitations WHERE state <> 'invited'
) GROUP BY day, state`;

/** rollup_utm from the rows (a full scan): per day (and for ?1 = 1 also all-time), every value's signups and confirmed. */
const INSERT_UTM = `INSERT INTO rollup_utm (day, kind, value, signups, confirmed)
SELECT day, kind, value, count(*), count(confirmed_at)
FROM (
  SELECT CASE WHEN span.all_time THEN '' ELSE ${DAY_OF_ROW} END AS day, utm.kind, signups.confirmed_at,
    CASE WHEN json_valid(signups.properties) AND json_type(signups.properties, utm.path) = 'text'
      THEN nullif(json_extract(signups.properties, utm.path), '') END AS value
  FROM signups,
    (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS utm,
    (SELECT 0 AS all_time UNION ALL SELECT 1 WHERE ?1 = 1) AS span
)
WHERE value IS NOT NULL
GROUP BY day, kind, value`;

/** rollup_utm_totals from rollup_utm: its dated days (and for ?1 = 1 also all-time). */
const INSERT_UTM_TOTALS = `INSERT INTO rollup_utm_totals (day, kind, signups)
SELECT day, kind, sum(signups) FROM rollup_utm WHERE day <> '' OR ?1 = 1 GROUP BY day, kind`;

/**
 * The statements that cut the days again in another time zone, for one batch: the dated counts are dropped and counted
 * again from the rows (a full scan of signups: run once, when the build's time zone differs from the one stored; a
 * signup meanwhile waits for the batch and then counts in the new zone). All-time and delivery counts stay.
 * @param utcOffsetMinutes the site's time zone (service-settings.json: utcOffsetMinutes)
 */
export function rezoneStatements(db: D1Database, utcOffsetMinutes: number): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM rollup_days"),
    db.prepare("DELETE FROM rollup_utm WHERE day <> ''"),
    db.prepare("DELETE FROM rollup_utm_totals WHERE day <> ''"),
    db.prepare("DELETE FROM rollup_launch_days"),
    db.prepare("UPDATE rollup_settings SET utc_offset_minutes = ?1 WHERE id = 1").bind(utcOffsetMinutes),
    db.prepare(INSERT_DAYS),
    db.prepare(INSERT_LAUNCH_DAYS),
    db.prepare(INSERT_UTM).bind(0),
    db.prepare(INSERT_UTM_TOTALS).bind(0),
  ];
}

/**
 * The statements that count everything again from the rows, for one batch (full scans): after a bulk load with the
 * triggers dropped (the bench's seeding). The dead-letter count, which no row records, stays.
 */
export function rebuildStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM rollup_days"),
    db.prepare("DELETE FROM rollup_utm"),
    db.prepare("DELETE FROM rollup_utm_totals"),
    db.prepare("DELETE FROM rollup_launch_days"),
    db.prepare(INSERT_DAYS),
    db.prepare(INSERT_LAUNCH_DAYS),
    db.prepare(INSERT_UTM).bind(1),
    db.prepare(INSERT_UTM_TOTALS).bind(1),
    db.prepare(
      `UPDATE rollup_counters SET count = (SELECT count(*) FROM signups WHERE delivery_state = substr(rollup_counters.name, 10))
       WHERE name LIKE 'delivery\\_%' ESCAPE '\\'`,
    ),
  ];
}

/**
 * The statement that counts messages that reached the dead-letter queue, for the dead-letter consumer's batch. Queues
 * deliver at least once, so a dead letter handed over twice counts twice.
 * @param messages how many arrived
 */
export function deadLettersStatement(db: D1Database, messages: number): D1PreparedStatement {
  return db.prepare("UPDATE rollup_counters SET count = count + ?1 WHERE name = 'dead_lettered'").bind(messages);
}
