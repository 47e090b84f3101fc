/**
 * Scenario E of the API bench: the operator's dashboard (GET /api/console/dashboard) at 10,000 / 100,000 / 1,000,000
 * seeded signups (seed.ts, spread over DASHBOARD_SPAN_DAYS from the build's signup pages, with UTM values and a
 * stranger's junk values). Per size: the first load (which cuts the rollups' days into the site's time zone from every
 * row, once), then DASHBOARD_LOADS loads per range, DASHBOARD_CONNECTIONS at once: latency p50/p99 and D1 rows read
 * (`Server-Timing: d1-rows-read`). Then the rollups against a full count of the rows: every (day, source) count, every
 * kept UTM value and each day's UTM total, the delivery states, and the dashboard's funnel.
 * Targets at 1,000,000: every load reads ≤ DASHBOARD_ROWS_READ_MAX rows; each range's p99 ≤ DASHBOARD_P99_MAX_MS.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CONSOLE_DASHBOARD_ENDPOINT, DASHBOARD_RANGES, type DashboardRange } from "../../../shared/console";
import { OPERATOR_VARS } from "./console-call";
import { percentile, runLoad, type PlannedRequest } from "./load";
import { rowsReadOf } from "./referrals";
import { fmtCount, fmtMs, fmtS, info, type Check, type ScenarioReport } from "./report";
import { seedLocalD1 } from "./seed";
import { startBenchService, type BenchAssets, type BenchService } from "./service";
import {
  DASHBOARD_CONNECTIONS,
  DASHBOARD_LOADS,
  DASHBOARD_P99_MAX_MS,
  DASHBOARD_ROWS_READ_MAX,
  DASHBOARD_SPAN_DAYS,
  DASHBOARD_TARGET_SIZE,
} from "./targets";
import type { DashboardAnswer } from "../../../shared/api/console";

/** The seed of the seeded referral graph (C's, so the same lists). */
const SEED = 1;

/** One range's figures at one size. */
interface RangeFigures {
  size: number;
  range: DashboardRange;
  requests: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  rowsReadMax: number;
  rowsReadMedian: number;
  withoutRowsRead: number;
}

/** The first load at one size, and the full count's verdict. */
interface SizeFigures {
  size: number;
  seedS: number;
  firstLoadMs: number;
  firstLoadRowsRead: number | null;
  mismatches: string[];
  countS: number;
}

/** GET the dashboard once. */
async function loadOnce(origin: string, range: DashboardRange): Promise<{ ms: number; rowsRead: number | null; answer: DashboardAnswer }> {
  const started = performance.now();
  const response = await fetch(`${origin}${CONSOLE_DASHBOARD_ENDPOINT}?range=${range}`, { signal: AbortSignal.timeout(120_000) });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`GET ${CONSOLE_DASHBOARD_ENDPOINT}?range=${range} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, rowsRead: rowsReadOf(Object.fromEntries(response.headers)), answer: JSON.parse(body) as DashboardAnswer };
}

/**
 * The rollups against a full count of the rows (full scans of signups), days in the site's time zone.
 * @returns what differs, one line each (none: they are equal)
 */
async function fullCountMismatches(service: BenchService, utcOffsetMinutes: number, answer: DashboardAnswer): Promise<string[]> {
  const { query } = service.d1;
  const mismatches: string[] = [];
  const day = `date(created_at, ?1 || ' minutes')`;

  const truthDays = await query<{ day: string; source: string; n: number; c: number; r: number; k: number }>(
    `SELECT ${day} AS day, coalesce(source, '') AS source, count(*) AS n, count(confirmed_at) AS c, count(referred_by) AS r,
       count(referral_counted_at) AS k FROM signups GROUP BY 1, 2`,
    utcOffsetMinutes,
  );
  const rolled = await query<{ day: string; source: string; n: number; c: number; r: number; k: number }>(
    `SELECT day, source, signups AS n, confirmed AS c, referred AS r, referral_counted AS k FROM rollup_days WHERE signups > 0`,
  );
  const key = (row: { day: string; source: string }) => `${row.day} ${row.source}`;
  const rolledByKey = new Map(rolled.map((row) => [key(row), row]));
  for (const row of truthDays) {
    const other = rolledByKey.get(key(row));
    if (!other || other.n !== row.n || other.c !== row.c || other.r !== row.r || other.k !== row.k)
      mismatches.push(`rollup_days ${key(row)}: ${JSON.stringify(other ?? null)} ≠ ${JSON.stringify(row)}`);
  }
  if (rolled.length !== truthDays.length)
    mismatches.push(`rollup_days: ${rolled.length} rows with signups ≠ ${truthDays.length} (day, source) pairs`);

  for (const kind of ["utm_source", "utm_campaign"]) {
    const truth = await query<{ day: string; value: string; n: number }>(
      `SELECT ${day} AS day, json_extract(properties, '$.${kind}') AS value, count(*) AS n FROM signups
       WHERE json_extract(properties, '$.${kind}') <> '' GROUP BY 1, 2`,
      utcOffsetMinutes,
    );
    const totals = new Map<string, number>();
    const allTime = new Map<string, number>();
    const byValue = new Map<string, number>();
    for (const row of truth) {
      totals.set(row.day, (totals.get(row.day) ?? 0) + row.n);
      allTime.set(row.value, (allTime.get(row.value) ?? 0) + row.n);
      byValue.set(`${row.day} ${row.value}`, row.n);
    }
    const rows = await query<{ day: string; value: string; signups: number }>(
      "SELECT day, value, signups FROM rollup_utm WHERE kind = ?1",
      kind,
    );
    for (const row of rows) {
      const expected = row.day === "" ? (allTime.get(row.value) ?? 0) : (byValue.get(`${row.day} ${row.value}`) ?? 0);
      if (row.signups !== expected)
        mismatches.push(`rollup_utm ${kind} ${row.day || "all time"} ${row.value}: ${row.signups} ≠ ${expected}`);
    }
    // Every value has its row, day by day and for all time; none counts nobody.
    if (rows.length !== byValue.size + allTime.size)
      mismatches.push(`rollup_utm ${kind}: ${rows.length} rows ≠ ${byValue.size + allTime.size} values`);
    const rolledTotals = new Map(
      (await query<{ day: string; signups: number }>("SELECT day, signups FROM rollup_utm_totals WHERE kind = ?1", kind)).map((row) => [
        row.day,
        row.signups,
      ]),
    );
    const everyone = [...allTime.values()].reduce((sum, n) => sum + n, 0);
    if ((rolledTotals.get("") ?? 0) !== everyone)
      mismatches.push(`rollup_utm_totals ${kind} all time: ${rolledTotals.get("")} ≠ ${everyone}`);
    for (const [date, n] of totals)
      if ((rolledTotals.get(date) ?? 0) !== n) mismatches.push(`rollup_utm_totals ${kind} ${date}: ${rolledTotals.get(date)} ≠ ${n}`);
  }

  const states = await query<{ state: string; n: number }>("SELECT delivery_state AS state, count(*) AS n FROM signups GROUP BY 1");
  for (const state of ["pending", "delivered", "refused", "demo"] as const) {
    const n = states.find((row) => row.state === state)?.n ?? 0;
    if (answer.delivery[state] !== n) mismatches.push(`delivery ${state}: ${answer.delivery[state]} ≠ ${n}`);
  }
  const total = truthDays.reduce((sum, row) => sum + row.n, 0);
  if (answer.funnel.signedUp !== total) mismatches.push(`funnel signedUp: ${answer.funnel.signedUp} ≠ ${total}`);
  const counted = truthDays.reduce((sum, row) => sum + row.k, 0);
  if (answer.funnel.referralCounted !== counted) mismatches.push(`funnel referralCounted: ${answer.funnel.referralCounted} ≠ ${counted}`);
  return mismatches;
}

/**
 * E: the dashboard at each list size.
 * @param sizes list sizes to seed, e.g. [10000, 100000, 1000000]
 * @param logDir where each size's wrangler output goes (E-<size>.log)
 */
export async function scenarioE(assets: BenchAssets, sizes: number[], logDir: string): Promise<ScenarioReport> {
  const title = `Operator's dashboard at ${sizes.map(fmtCount).join(" / ")} signups: loads per range, rows read, rollups = full count`;
  const ranges: RangeFigures[] = [];
  const perSize: SizeFigures[] = [];
  const sources = assets.settings.signupPages.map((page) => page.source);
  for (const size of [...sizes].sort((a, b) => a - b)) {
    const persistTo = await mkdtemp(path.join(os.tmpdir(), "bench-api-dashboard-"));
    let service: BenchService | null = null;
    try {
      console.log(`  seeding ${fmtCount(size)} signups over ${DASHBOARD_SPAN_DAYS} days…`);
      const seeded = await seedLocalD1(persistTo, {
        signups: size,
        placesPerReferral: assets.settings.referrals.placesPerReferral,
        seed: SEED,
        spanDays: DASHBOARD_SPAN_DAYS,
        sources,
      });
      service = await startBenchService({ assets, persistTo, logFile: path.join(logDir, `E-${size}.log`), vars: OPERATOR_VARS });
      const first = await loadOnce(service.consoleOrigin, "all");
      for (const range of DASHBOARD_RANGES) {
        console.log(`  dashboard ?range=${range} at ${fmtCount(size)}: ${DASHBOARD_LOADS} loads, ${DASHBOARD_CONNECTIONS} at once…`);
        const plan: PlannedRequest[] = Array.from({ length: DASHBOARD_LOADS }, () => ({
          method: "GET",
          path: `${CONSOLE_DASHBOARD_ENDPOINT}?range=${range}`,
          headers: {},
        }));
        const { figures, answers } = await runLoad(service.consoleOrigin, plan, DASHBOARD_CONNECTIONS);
        const rows = answers.flatMap((answer) => {
          const n = answer ? rowsReadOf(answer.headers) : null;
          return n === null ? [] : [n];
        });
        ranges.push({
          size,
          range,
          requests: plan.length,
          ok: figures.ok,
          p50Ms: figures.p50Ms,
          p99Ms: figures.p99Ms,
          rowsReadMax: rows.length ? Math.max(...rows) : Number.NaN,
          rowsReadMedian: percentile(rows, 50),
          withoutRowsRead: plan.length - rows.length,
        });
      }
      console.log(`  counting ${fmtCount(size)} rows in full against the rollups…`);
      const countStarted = performance.now();
      const { answer } = await loadOnce(service.consoleOrigin, "all");
      const mismatches = await fullCountMismatches(service, assets.settings.utcOffsetMinutes, answer);
      perSize.push({
        size,
        seedS: seeded.elapsedMs / 1000,
        firstLoadMs: first.ms,
        firstLoadRowsRead: first.rowsRead,
        mismatches,
        countS: (performance.now() - countStarted) / 1000,
      });
    } finally {
      await service?.stop();
      await rm(persistTo, { recursive: true, force: true });
    }
  }

  const checks: Check[] = [];
  for (const size of perSize) {
    checks.push(
      info(
        `first load @ ${fmtCount(size.size)} (days cut into the site's zone)`,
        `${fmtMs(size.firstLoadMs)}; rows read ${size.firstLoadRowsRead === null ? "—" : fmtCount(size.firstLoadRowsRead)}`,
      ),
    );
    for (const figures of ranges.filter((entry) => entry.size === size.size)) {
      const atTarget = figures.size === DASHBOARD_TARGET_SIZE;
      const label = `?range=${figures.range} @ ${fmtCount(figures.size)}`;
      checks.push({
        figure: `${label} p99 (p50 ${fmtMs(figures.p50Ms)})`,
        value: fmtMs(figures.p99Ms),
        target: atTarget ? `≤ ${DASHBOARD_P99_MAX_MS} ms` : "—",
        pass: atTarget ? figures.p99Ms <= DASHBOARD_P99_MAX_MS : null,
      });
      checks.push({
        figure: `${label} rows read (median ${fmtCount(figures.rowsReadMedian)})`,
        value: Number.isNaN(figures.rowsReadMax) ? "no Server-Timing header" : `max ${fmtCount(figures.rowsReadMax)}`,
        target: `≤ ${fmtCount(DASHBOARD_ROWS_READ_MAX)}`,
        pass: figures.withoutRowsRead === 0 && figures.rowsReadMax <= DASHBOARD_ROWS_READ_MAX && figures.ok === figures.requests,
      });
    }
    checks.push({
      figure: `rollups = full count @ ${fmtCount(size.size)} (counted in ${fmtS(size.countS * 1000)})`,
      value: size.mismatches.length === 0 ? "equal" : `${size.mismatches.length} differ: ${size.mismatches.slice(0, 3).join("; ")}`,
      target: "equal",
      pass: size.mismatches.length === 0,
    });
  }
  return {
    id: "E",
    title,
    checks,
    notes: [
      `Each size seeded by seed.ts (seed ${SEED}) over ${DASHBOARD_SPAN_DAYS} days from the build's ${sources.length} signup pages, with UTM values`,
      "(1 in 100 a junk utm_source of its own), the rollups counted once after the load (rollups.ts: rebuildStatements);",
      `then ${DASHBOARD_LOADS} loads per range, ${DASHBOARD_CONNECTIONS} at once, after one first load that cuts the days into the site's time zone.`,
      `Seeding: ${perSize.map((s) => `${fmtCount(s.size)} in ${fmtS(s.seedS * 1000)}`).join("; ")}.`,
    ],
    figures: { ranges, perSize },
  };
}
