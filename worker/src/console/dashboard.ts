/**
 * GET /api/console/dashboard?range=7d|30d|all: the operator's dashboard (shared/console.ts: DashboardAnswer), read
 * from the rollups (store/rollups.ts, kept by the triggers of migrations 0010 and 0013), never by counting signups.
 *
 * Rows read, at 1,000,000 signups as at 10 (D1's `meta.rows_read`, Server-Timing in development):
 * - the rollups' settings: 1;
 * - signups per day and source (the chart and the funnel): one row per day and source with signups in the range
 *   (7d: at most 7 × sources; all: every day since the first signup × sources);
 * - UTM values: per kind and day of the range (or once for "all"), the UTM_VALUES_PER_DAY (10) values with the most
 *   confirmed signups, from rollup_utm_top's first entries and a lookup of each (at most 20 rows), and the day's total
 *   (1 row): at most 294, 1,260 and 42 rows, however many values strangers made up;
 * - invited and accepted (launch day): one row per day of the range with each (rollup_launch_days' primary key);
 * - delivery counters: 5; the oldest pending signup: 1 (signups_delivery); the top referrers: 10 (signups_referrers).
 * So a load stays under 10,000 rows while days × sources stays under about 9,500 (a year of 26 signup pages). The one
 * exception: the first load after the site's time zone changed cuts the days again from every row (a full scan, once).
 */
import type { D1Database } from "@cloudflare/workers-types";
import type { Context } from "hono";
import type { DashboardRange } from "../../../shared/console";
import { addDays, localDay, timeZoneName } from "../../../shared/local-days";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { type DaySpan, type DayRollup, readRollups, type RollupSnapshot, type UtmKind } from "../store/rollups";
import type { CountedValue, DashboardAnswer, DashboardDay, DashboardSource, Funnel } from "../../../shared/api/console";

/** The range without `?range`. */
const DEFAULT_RANGE: DashboardRange = "7d";

/** Days a dated range covers, today included. */
const RANGE_DAYS: Record<Exclude<DashboardRange, "all">, number> = { "7d": 7, "30d": 30 };

/** UTM values the answer lists per kind (the contract's "at most 10 each"). */
const TOP_UTM_VALUES = 10;

/** Answer GET /api/console/dashboard for the query's range (DEFAULT_RANGE when none). Needs withSettings. */
export async function handleDashboard(c: Context<AppEnv>, range: DashboardRange = DEFAULT_RANGE): Promise<Response> {
  const { settings } = c.var;
  const db = c.env.DB;

  const today = localDay(Date.now(), settings.utcOffsetMinutes);
  const span: DaySpan = range === "all" ? "all" : { from: addDays(today, 1 - RANGE_DAYS[range]), to: today };
  const [snapshot, erasures] = await Promise.all([readRollups(db, span, settings.utcOffsetMinutes), readErasureHealth(db)]);
  return jsonResponse(200, dashboardAnswer(range, settings, today, span, snapshot, erasures), { "cache-control": "no-store" });
}

/** A deletion job owed longer than this (ms) without Klaviyo taking it is overdue on the dashboard. */
const ERASURE_OVERDUE_MS = 24 * 60 * 60 * 1000;

/** The deletion jobs still owed: refused by Klaviyo, and overdue. Reads the `erasures` rows (one per owed job, few). */
async function readErasureHealth(db: D1Database): Promise<{ refused: number; overdue: number }> {
  const row = await db
    .prepare(
      `SELECT count(*) FILTER (WHERE refused_status IS NOT NULL) AS refused,
         count(*) FILTER (WHERE refused_status IS NULL AND created_at < ?1) AS overdue FROM erasures`,
    )
    .bind(new Date(Date.now() - ERASURE_OVERDUE_MS).toISOString())
    .first<{ refused: number; overdue: number }>();
  return { refused: row?.refused ?? 0, overdue: row?.overdue ?? 0 };
}

/** The answer from one snapshot of the rollups and the owed deletion jobs. */
export function dashboardAnswer(
  range: DashboardRange,
  settings: ServiceSettings,
  today: string,
  span: DaySpan,
  snapshot: RollupSnapshot,
  erasures: { refused: number; overdue: number },
): DashboardAnswer {
  const counted = snapshot.days.filter((row) => row.signups > 0 && row.day <= today);
  const first = span === "all" ? (counted[0]?.day ?? today) : span.from;
  return {
    range,
    timeZone: timeZoneName(settings.utcOffsetMinutes),
    days: everyDay(first, today, counted),
    sources: sourcesOf(settings, counted),
    utmSources: topValues(snapshot, "utm_source"),
    utmCampaigns: topValues(snapshot, "utm_campaign"),
    utmSourcesOther: otherSignups(snapshot, "utm_source"),
    utmCampaignsOther: otherSignups(snapshot, "utm_campaign"),
    funnel: { ...funnelOf(counted), ...snapshot.launch },
    delivery: {
      pending: snapshot.counters.delivery_pending ?? 0,
      delivered: snapshot.counters.delivery_delivered ?? 0,
      refused: snapshot.counters.delivery_refused ?? 0,
      demo: snapshot.counters.delivery_demo ?? 0,
      oldestPendingAt: snapshot.oldestPendingAt,
      deadLettered: snapshot.counters.dead_lettered ?? 0,
      erasuresRefused: erasures.refused,
      erasuresOverdue: erasures.overdue,
    },
    topReferrers: snapshot.topReferrers.map((row) => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      referralCode: row.referralCode ?? "",
      referrals: row.referrals,
      flags: row.flags ? row.flags.split(" ").filter(Boolean) : [],
      disqualified: row.disqualifiedAt !== null,
    })),
  };
}

/** Every day from `first` to `last`, in order, with each day's signups per source (days without any included). */
function everyDay(first: string, last: string, rows: DayRollup[]): DashboardDay[] {
  const byDay = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const signups = byDay.get(row.day) ?? {};
    signups[row.source] = row.signups;
    byDay.set(row.day, signups);
  }
  const days: DashboardDay[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push({ date: day, signups: byDay.get(day) ?? {} });
  return days;
}

/** The build's signup pages, then any other source the range holds (an older build's), without a path. */
function sourcesOf(settings: ServiceSettings, rows: DayRollup[]): DashboardSource[] {
  const sources: DashboardSource[] = [];
  const seen = new Set<string>();
  for (const page of settings.signupPages)
    if (!seen.has(page.source)) {
      seen.add(page.source);
      sources.push({ key: page.source, path: page.path });
    }
  for (const { source } of rows)
    if (!seen.has(source)) {
      seen.add(source);
      sources.push({ key: source, path: null });
    }
  return sources;
}

/**
 * The values of one UTM property with the most confirmed signups, then the most signups, then by value: a stranger's
 * made-up values, which nobody confirms, never push out the values people really came by.
 */
function topValues(snapshot: RollupSnapshot, kind: UtmKind): CountedValue[] {
  return snapshot.utm
    .filter((row) => row.kind === kind && row.signups > 0)
    .sort((a, b) => b.confirmed - a.confirmed || b.signups - a.signups || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, TOP_UTM_VALUES)
    .map(({ value, signups }) => ({ value, signups }));
}

/** Signups with a value of one UTM property that topValues does not list. */
function otherSignups(snapshot: RollupSnapshot, kind: UtmKind): number {
  return snapshot.utmTotals[kind] - topValues(snapshot, kind).reduce((sum, value) => sum + value.signups, 0);
}

/** The funnel over the range's signups (its launch counts come from the snapshot). */
function funnelOf(rows: DayRollup[]): Omit<Funnel, "invited" | "accepted"> {
  const sum = (pick: (row: DayRollup) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const signedUp = sum((row) => row.signups);
  const referralCounted = sum((row) => row.referralCounted);
  return {
    signedUp,
    confirmed: sum((row) => row.confirmed),
    referred: sum((row) => row.referred),
    referralCounted,
    viralCoefficient: signedUp === 0 ? 0 : referralCounted / signedUp,
  };
}
