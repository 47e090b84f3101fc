/**
 * Scenarios C and D of the API bench: the referral program at scale, and under a burst of referred signups.
 *
 * C. For each list size (seed.ts: a seeded waitlist with a referral program's skew), the service started on it and
 *    three operations loaded, LOOKUP_CONNECTIONS at a time: GET /api/status (`Authorization: Bearer <token>` of seeded
 *    people from the seed's sample), GET /api/leaderboard, and POST /api/signups with a seeded person's referral code
 *    as `ref`. Latency p50/p99 and the D1 rows each answer read, from the service's `Server-Timing:
 *    d1-rows-read;desc="<n>"` header. Targets: a status lookup reads ≤ STATUS_ROWS_READ_MAX rows at 1,000,000 signups,
 *    and its p99 there is ≤ STATUS_P99_GROWTH_MAX × its p99 at 10,000.
 * D. One person signs up, then RACE_SIGNUPS signups arrive LOAD_CONNECTIONS at a time, RACE_REFERRED of them with
 *    that person's code (a referral counted at signup). Afterwards every position is exactly 1..N with no repeats, as
 *    the service's own rank tree gives them (worker/src/store/rank.ts: positionOf, run on the service's D1) and as the
 *    program's rule orders the stored rows (score = seq − placesPerReferral × referrals, smaller first; then more
 *    referrals; then the earlier signup), the two agree, and the referrer has exactly RACE_REFERRED referrals. The
 *    same positions are read back through GET /api/status with each person's status link as their inbox gets it (the
 *    `waitlist_status_url` of their profile at the Klaviyo stand-in): the signup's answer carries no standing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ServiceSettings } from "../../../shared/service-settings";
import { positionOf } from "../../../worker/src/store/rank";
import { retryWhileLocked } from "../../lib/wrangler";
import { benchAddress, nextClientIp, percentile, runLoad, signupRequest, type LoadResult, type PlannedRequest } from "./load";
import { fmtCount, fmtMs, fmtS, info, type Check, type ScenarioReport } from "./report";
import { seedLocalD1, type SampledPerson } from "./seed";
import { startBenchService, type BenchAssets, type BenchService } from "./service";
import {
  DELIVERY_POLL_MS,
  DELIVERY_WAIT_MS,
  LOAD_CONNECTIONS,
  LOOKUP_CONNECTIONS,
  LOOKUP_REQUESTS,
  RACE_REFERRED,
  RACE_SIGNUPS,
  REFERRED_SIGNUP_REQUESTS,
  STATUS_P99_BASE_SIZE,
  STATUS_P99_GROWTH_MAX,
  STATUS_P99_LARGE_SIZE,
  STATUS_ROWS_READ_AT,
  STATUS_ROWS_READ_MAX,
} from "./targets";

/** The routes the referral program adds to the service. */
const STATUS_PATH = "/api/status";
const LEADERBOARD_PATH = "/api/leaderboard";
const SIGNUPS_PATH = "/api/signups";

/** The seed of the seeded referral graph: the same lists on every run. */
const SEED = 1;

/** Position lookups run on the service's D1 at once in D (each one batch of two statements). */
const POSITION_READS_AT_ONCE = 8;

/**
 * The D1 rows a response says its request read: the `d1-rows-read` metric of its Server-Timing header
 * (`d1-rows-read;desc="25"`), or null when it has none.
 */
export function rowsReadOf(headers: Record<string, string>): number | null {
  const match = /(?:^|,)\s*d1-rows-read\s*;[^,]*?desc\s*=\s*"?(\d+)"?/i.exec(headers["server-timing"] ?? "");
  return match ? Number(match[1]) : null;
}

/**
 * Why the referral routes cannot be measured, or null when they answer: a 404 from GET /api/leaderboard or from
 * GET /api/status means the service has no such route (or the program is off in the build, which the bench's settings
 * rule out).
 */
async function missingRoutes(origin: string, statusToken: string): Promise<string | null> {
  return (await probeRoutes(origin, statusToken)).missing;
}

/**
 * missingRoutes, and the D1 rows the first leaderboard read took: on a freshly started service that read finds the edge
 * cache empty, so it is the one that runs the leaderboard's query (null without a Server-Timing header).
 */
async function probeRoutes(
  origin: string,
  statusToken: string,
): Promise<{ missing: string | null; leaderboardMissRowsRead: number | null }> {
  const missing: string[] = [];
  const leaderboard = await fetch(`${origin}${LEADERBOARD_PATH}`, { signal: AbortSignal.timeout(10_000) });
  await leaderboard.arrayBuffer();
  if (leaderboard.status === 404) missing.push(`GET ${LEADERBOARD_PATH}`);
  const leaderboardMissRowsRead = rowsReadOf(
    Object.fromEntries([...leaderboard.headers].map(([name, value]) => [name.toLowerCase(), value])),
  );
  const status = await fetch(`${origin}${STATUS_PATH}`, {
    headers: { authorization: `Bearer ${statusToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  await status.arrayBuffer();
  if (status.status === 404) missing.push(`GET ${STATUS_PATH}`);
  return {
    missing:
      missing.length === 0 ? null : `the service answers 404 to ${missing.join(" and ")}: the referral routes are not in this build yet`,
    leaderboardMissRowsRead,
  };
}

/** One operation's figures at one size. */
interface OperationFigures {
  operation: string;
  size: number;
  requests: number;
  ok: number;
  non2xx: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  /** Rows read per answer (Server-Timing), median and most; NaN when no answer carried the header. */
  rowsReadMedian: number;
  rowsReadMax: number;
  /** Answers without the header. */
  withoutRowsRead: number;
}

function figuresOf(operation: string, size: number, result: LoadResult): OperationFigures {
  const rows = result.answers.flatMap((answer) => {
    const n = answer ? rowsReadOf(answer.headers) : null;
    return n === null ? [] : [n];
  });
  const answered = result.answers.filter(Boolean).length;
  return {
    operation,
    size,
    requests: result.figures.sent,
    ok: result.figures.ok,
    non2xx: result.figures.non2xx,
    timeouts: result.figures.timeouts,
    p50Ms: result.figures.p50Ms,
    p99Ms: result.figures.p99Ms,
    rowsReadMedian: percentile(rows, 50),
    rowsReadMax: rows.length ? Math.max(...rows) : Number.NaN,
    withoutRowsRead: answered - rows.length,
  };
}

/** The three operations' requests at one size. */
function plans(origin: string, sample: SampledPerson[], size: number): Array<{ operation: string; plan: PlannedRequest[] }> {
  const status = Array.from({ length: LOOKUP_REQUESTS }, (_, n) => ({
    method: "GET" as const,
    path: STATUS_PATH,
    headers: { authorization: `Bearer ${sample[n % sample.length].statusToken}`, "cf-connecting-ip": nextClientIp() },
  }));
  const leaderboard = Array.from({ length: LOOKUP_REQUESTS }, () => ({
    method: "GET" as const,
    path: LEADERBOARD_PATH,
    headers: { "cf-connecting-ip": nextClientIp() },
  }));
  const referred = Array.from({ length: REFERRED_SIGNUP_REQUESTS }, (_, n) =>
    signupRequest(origin, benchAddress(`c${size}`, n), n, sample[n % sample.length].referralCode),
  );
  // Reads first, on the list exactly as seeded; the signups then add REFERRED_SIGNUP_REQUESTS people to it.
  return [
    { operation: `GET ${STATUS_PATH}`, plan: status },
    { operation: `GET ${LEADERBOARD_PATH}`, plan: leaderboard },
    { operation: `POST ${SIGNUPS_PATH} with ref`, plan: referred },
  ];
}

/**
 * C: the referral program's reads and a referred signup at each list size.
 * @param sizes list sizes to seed, e.g. [10000, 100000, 1000000]
 * @param logDir where each size's wrangler output goes (C-<size>.log)
 */
export async function scenarioC(assets: BenchAssets, sizes: number[], logDir: string): Promise<ScenarioReport> {
  const title = `Referral program at ${sizes.map(fmtCount).join(" / ")} signups: status lookup, leaderboard, referred signup`;
  const measured: OperationFigures[] = [];
  const seeding: Array<{ size: number; seconds: number; referrers: number; topReferrals: number }> = [];
  const leaderboardMisses: Array<{ size: number; rowsRead: number | null }> = [];
  for (const size of [...sizes].sort((a, b) => a - b)) {
    const persistTo = await mkdtemp(path.join(os.tmpdir(), "bench-api-seeded-"));
    let service: BenchService | null = null;
    try {
      console.log(`  seeding ${fmtCount(size)} signups…`);
      const seeded = await seedLocalD1(persistTo, {
        signups: size,
        placesPerReferral: assets.settings.referrals.placesPerReferral,
        seed: SEED,
      });
      seeding.push({ size, seconds: seeded.elapsedMs / 1000, referrers: seeded.referrers, topReferrals: seeded.topReferrals });
      service = await startBenchService({ assets, persistTo, logFile: path.join(logDir, `C-${size}.log`) });
      const { missing, leaderboardMissRowsRead } = await probeRoutes(service.origin, seeded.sample[0].statusToken);
      leaderboardMisses.push({ size, rowsRead: leaderboardMissRowsRead });
      if (missing) return { id: "C", title, skipped: missing, checks: [], notes: [], figures: { seeding } };
      for (const { operation, plan } of plans(service.origin, seeded.sample, size)) {
        console.log(`  ${operation} at ${fmtCount(size)}: ${fmtCount(plan.length)} requests, ${LOOKUP_CONNECTIONS} at once…`);
        measured.push(figuresOf(operation, size, await runLoad(service.origin, plan, LOOKUP_CONNECTIONS)));
      }
    } finally {
      await service?.stop();
      await rm(persistTo, { recursive: true, force: true });
    }
  }

  const checks: Check[] = [];
  for (const figures of measured) {
    const label = `${figures.operation} @ ${fmtCount(figures.size)}`;
    // An answer without the header read no D1 at all: the leaderboard's edge cache (caches.default) answered it.
    const rowsRead = Number.isNaN(figures.rowsReadMax)
      ? figures.operation === `GET ${LEADERBOARD_PATH}`
        ? "no D1 read: every answer from the edge cache"
        : "no Server-Timing header"
      : `rows read ${fmtCount(figures.rowsReadMedian)} median, ${fmtCount(figures.rowsReadMax)} max` +
        (figures.withoutRowsRead > 0 ? ` (${fmtCount(figures.withoutRowsRead)} answers read no D1: cached)` : "");
    checks.push(info(label, `p50 ${fmtMs(figures.p50Ms)}, p99 ${fmtMs(figures.p99Ms)}; ${rowsRead}`));
    const miss = leaderboardMisses.find((entry) => entry.size === figures.size);
    if (figures.operation === `GET ${LEADERBOARD_PATH}` && miss)
      checks.push(info(`  … its cache miss (the first read)`, `rows read ${miss.rowsRead === null ? "—" : fmtCount(miss.rowsRead)}`));
    checks.push({
      figure: `  … answered 2xx`,
      value: `${fmtCount(figures.ok)} of ${fmtCount(figures.requests)}`,
      target: "all",
      pass: figures.ok === figures.requests,
    });
  }
  const status = (size: number) => measured.find((figures) => figures.operation === `GET ${STATUS_PATH}` && figures.size === size);
  const atTarget = status(STATUS_ROWS_READ_AT);
  checks.push(
    atTarget
      ? {
          figure: `status lookup rows read @ ${fmtCount(STATUS_ROWS_READ_AT)} (every request)`,
          value: Number.isNaN(atTarget.rowsReadMax) ? "no Server-Timing header" : `max ${fmtCount(atTarget.rowsReadMax)}`,
          target: `≤ ${STATUS_ROWS_READ_MAX}`,
          pass: !Number.isNaN(atTarget.rowsReadMax) && atTarget.withoutRowsRead === 0 && atTarget.rowsReadMax <= STATUS_ROWS_READ_MAX,
        }
      : info(`status lookup rows read @ ${fmtCount(STATUS_ROWS_READ_AT)}`, "not measured (--sizes)"),
  );
  const base = status(STATUS_P99_BASE_SIZE);
  const large = status(STATUS_P99_LARGE_SIZE);
  checks.push(
    base && large
      ? {
          figure: `status lookup p99 @ ${fmtCount(STATUS_P99_LARGE_SIZE)} ÷ p99 @ ${fmtCount(STATUS_P99_BASE_SIZE)}`,
          value: `${(large.p99Ms / base.p99Ms).toFixed(2)}× (${fmtMs(large.p99Ms)} ÷ ${fmtMs(base.p99Ms)})`,
          target: `≤ ${STATUS_P99_GROWTH_MAX}×`,
          pass: large.p99Ms <= STATUS_P99_GROWTH_MAX * base.p99Ms,
        }
      : info(`status lookup p99 growth ${fmtCount(STATUS_P99_BASE_SIZE)} → ${fmtCount(STATUS_P99_LARGE_SIZE)}`, "not measured (--sizes)"),
  );
  return {
    id: "C",
    title,
    checks,
    notes: [
      `Each size seeded by seed.ts (seed ${SEED}: 30 % referred, a heavy tail of referrers), then the service started on it; ${LOOKUP_CONNECTIONS} requests at once,`,
      `${fmtCount(LOOKUP_REQUESTS)} status lookups (the seed's sampled tokens), ${fmtCount(LOOKUP_REQUESTS)} leaderboard reads, then ${fmtCount(REFERRED_SIGNUP_REQUESTS)} signups with a sampled code.`,
      "The leaderboard is cached at the edge for 60 s (caches.default, which wrangler dev provides): the first read after the start runs",
      "its query, the rest are answered from the cache.",
      `Seeding: ${seeding.map((s) => `${fmtCount(s.size)} in ${fmtS(s.seconds * 1000)} (${fmtCount(s.referrers)} referrers, top ${fmtCount(s.topReferrals)})`).join("; ")}.`,
    ],
    figures: { measured, seeding, leaderboardMisses },
  };
}

/** A stored person as D reads them. */
interface RankedRow {
  id: string;
  seq: number;
  referrals: number;
  score: number | null;
}

/**
 * The status links the Klaviyo stand-in was given (each welcome's `waitlist_status_url`), by address in lower case.
 * A person's inbox is where the link goes: no answer of the service carries one.
 */
function deliveredStatusLinks(service: BenchService): Map<string, string> {
  const links = new Map<string, string>();
  for (const { email, properties } of service.klaviyo.profileImports) {
    const link = properties?.waitlist_status_url;
    if (typeof link === "string") links.set(email.toLowerCase(), link);
  }
  return links;
}

/** The status token in a status link (its fragment: `#<token>` or `#token=<token>`), or null. */
function tokenOfStatusUrl(statusUrl: unknown): string | null {
  if (typeof statusUrl !== "string") return null;
  try {
    const fragment = new URL(statusUrl).hash.replace(/^#/, "");
    if (!fragment) return null;
    if (!fragment.includes("=")) return decodeURIComponent(fragment);
    const params = new URLSearchParams(fragment);
    return params.get("token") ?? [...params.values()][0] ?? null;
  } catch {
    return null;
  }
}

/**
 * D: a burst of referred signups; positions stay exactly 1..N and the referrer's count exact.
 * @param service a fresh service (empty D1)
 * @param settings the settings the service runs with (placesPerReferral)
 */
export async function scenarioD(service: BenchService, settings: ServiceSettings): Promise<ScenarioReport> {
  const title = `${fmtCount(RACE_SIGNUPS)} signups, ${LOAD_CONNECTIONS} at once, ${fmtCount(RACE_REFERRED)} referred by one person`;
  const skip = (reason: string): ScenarioReport => ({ id: "D", title, skipped: reason, checks: [], notes: [], figures: {} });
  const placesPerReferral = settings.referrals.placesPerReferral;

  const referrerAddress = benchAddress("d-referrer", 0);
  const referrerRequest = signupRequest(service.origin, referrerAddress, 0);
  const referrerAnswer = await fetch(`${service.origin}${referrerRequest.path}`, {
    method: referrerRequest.method,
    headers: referrerRequest.headers,
    body: referrerRequest.body,
    signal: AbortSignal.timeout(10_000),
  });
  await referrerAnswer.arrayBuffer();
  if (referrerAnswer.status !== 202) throw new Error(`The referrer's signup was answered ${referrerAnswer.status}, not 202.`);
  const [referrer] = await retryWhileLocked(() =>
    service.d1.query<{ id: string; referral_code: string | null }>(
      "SELECT id, referral_code FROM signups WHERE email = ?1",
      referrerAddress,
    ),
  );
  if (!referrer) throw new Error("The referrer's signup was answered 202 but not stored.");
  const referrerId = referrer.id;
  // The referrer's status link, once their welcome reached the stand-in (their inbox).
  const welcomeBy = Date.now() + DELIVERY_WAIT_MS;
  while (!deliveredStatusLinks(service).has(referrerAddress) && Date.now() < welcomeBy)
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_POLL_MS));
  const missing = await missingRoutes(service.origin, tokenOfStatusUrl(deliveredStatusLinks(service).get(referrerAddress)) ?? "none");
  if (!referrer.referral_code) return skip(missing ?? "the service stores no referral code with a signup yet");
  if (missing) return skip(missing);

  const referred = (n: number) => n % 2 === 0 && n / 2 < RACE_REFERRED;
  const plan = Array.from({ length: RACE_SIGNUPS }, (_, n) =>
    signupRequest(service.origin, benchAddress("d", n), n, referred(n) ? (referrer.referral_code ?? undefined) : undefined),
  );
  const load = await runLoad(service.origin, plan, LOAD_CONNECTIONS);
  const referredAccepted = plan.filter((_, n) => referred(n) && (load.answers[n]?.status ?? 0) === 202).length;
  const referredSent = plan.filter((_, n) => referred(n) && n < load.figures.sent).length;

  // Read once the queue consumer is quiet (every accepted signup at the Klaviyo stand-in, within DELIVERY_WAIT_MS): its
  // writes would otherwise contend with these reads of the same database file.
  const settleBy = Date.now() + DELIVERY_WAIT_MS;
  const accepted = load.figures.ok + 1;
  while (new Set(service.klaviyo.subscriptions.map(({ email }) => email.toLowerCase())).size < accepted && Date.now() < settleBy)
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_POLL_MS));
  const rows = await service.d1.query<RankedRow>("SELECT id, seq, referrals, score FROM signups ORDER BY seq");
  const [counted] = await service.d1.query<{ n: number }>(
    "SELECT count(*) AS n FROM signups WHERE referred_by = ?1 AND referral_counted_at IS NOT NULL",
    referrerId,
  );
  const referrerRow = rows.find((row) => row.id === referrerId);

  // The rule, from the stored rows: score = seq − placesPerReferral × referrals, smaller first; then more referrals; then earlier.
  const wrongScores = rows.filter((row) => row.score !== row.seq - placesPerReferral * row.referrals).length;
  const byRule = [...rows].sort(
    (a, b) =>
      a.seq - placesPerReferral * a.referrals - (b.seq - placesPerReferral * b.referrals) || b.referrals - a.referrals || a.seq - b.seq,
  );
  const rulePosition = new Map(byRule.map((row, index) => [row.id, index + 1]));

  // The service's own positions: its rank tree, read with its own statements.
  const treePosition = new Map<string, number>();
  let treeTotal = 0;
  let notInLine = 0;
  for (let start = 0; start < rows.length; start += POSITION_READS_AT_ONCE) {
    const chunk = rows.slice(start, start + POSITION_READS_AT_ONCE);
    const positions = await Promise.all(chunk.map((row) => retryWhileLocked(() => positionOf(service.d1.db, row.id))));
    chunk.forEach((row, i) => {
      const position = positions[i];
      if (!position) notInLine += 1;
      else {
        treePosition.set(row.id, position.position);
        treeTotal = position.total;
      }
    });
  }
  const positions = [...treePosition.values()].sort((a, b) => a - b);
  const exactlyOneToN = positions.length === rows.length && positions.every((position, index) => position === index + 1);
  const disagreements = rows.filter((row) => treePosition.get(row.id) !== rulePosition.get(row.id)).length;

  // The same positions through the API, with the status link each person's welcome carried.
  const tokens = new Map<string, string>();
  const links = deliveredStatusLinks(service);
  for (const { id, email } of await retryWhileLocked(() =>
    service.d1.query<{ id: string; email: string }>("SELECT id, email FROM signups"),
  )) {
    const token = tokenOfStatusUrl(links.get(email.toLowerCase()));
    if (token) tokens.set(id, token);
  }
  let apiAgrees = 0;
  let apiChecked = 0;
  let referrerApiReferrals: number | null = null;
  if (tokens.size > 0) {
    const ids = [...tokens.keys()];
    const statusPlan = ids.map((id) => ({
      method: "GET" as const,
      path: STATUS_PATH,
      headers: { authorization: `Bearer ${tokens.get(id)}`, "cf-connecting-ip": nextClientIp() },
    }));
    const lookups = await runLoad(service.origin, statusPlan, Math.min(LOOKUP_CONNECTIONS, statusPlan.length));
    lookups.answers.forEach((answer, i) => {
      if (!answer || answer.status !== 200) return;
      apiChecked += 1;
      try {
        const standing = JSON.parse(answer.body) as { position?: number; referrals?: number };
        if (standing.position === treePosition.get(ids[i])) apiAgrees += 1;
        if (ids[i] === referrerId) referrerApiReferrals = standing.referrals ?? null;
      } catch {
        // Counted as a disagreement.
      }
    });
  }

  const statuses = Object.entries(load.figures.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(", ");
  const checks: Check[] = [
    info("signups/s", load.figures.perSecond.toFixed(1)),
    info("latency p50 / p99", `${fmtMs(load.figures.p50Ms)} / ${fmtMs(load.figures.p99Ms)}`),
    {
      figure: "answers",
      value: statuses,
      target: `202×${RACE_SIGNUPS}`,
      pass: load.figures.ok === RACE_SIGNUPS && (load.figures.statuses["202"] ?? 0) === RACE_SIGNUPS,
    },
    {
      figure: "referrer's referrals (D1)",
      value: fmtCount(referrerRow?.referrals ?? Number.NaN),
      target: `= ${RACE_REFERRED} (referred sent ${referredSent}, answered 202 ${referredAccepted})`,
      pass: referrerRow?.referrals === RACE_REFERRED && referredAccepted === RACE_REFERRED,
    },
    {
      figure: "counted referral rows for the referrer",
      value: fmtCount(counted?.n ?? Number.NaN),
      target: `= ${RACE_REFERRED}`,
      pass: counted?.n === RACE_REFERRED,
    },
    { figure: "stored scores off the rule", value: fmtCount(wrongScores), target: "0", pass: wrongScores === 0 },
    {
      figure: "positions (rank tree) exactly 1..N",
      value: `${fmtCount(positions.length)} positions, N = ${fmtCount(rows.length)}, tree total ${fmtCount(treeTotal)}${notInLine ? `, ${notInLine} not in line` : ""}`,
      target: "1..N, no repeats",
      pass: exactlyOneToN && treeTotal === rows.length && notInLine === 0,
    },
    {
      figure: "rank tree vs the rule's order",
      value: `${fmtCount(disagreements)} disagree`,
      target: "0",
      pass: disagreements === 0,
    },
  ];
  if (tokens.size > 0) {
    checks.push({
      figure: `GET ${STATUS_PATH} agrees`,
      value: `${fmtCount(apiAgrees)} of ${fmtCount(tokens.size)} (${fmtCount(apiChecked)} answered 200)`,
      target: "all",
      pass: apiAgrees === tokens.size,
    });
    checks.push({
      figure: `GET ${STATUS_PATH} referrer's referrals`,
      value: referrerApiReferrals === null ? "—" : fmtCount(referrerApiReferrals),
      target: `= ${RACE_REFERRED}`,
      pass: referrerApiReferrals === RACE_REFERRED,
    });
  }
  return {
    id: "D",
    title,
    checks,
    notes: [
      `The referrer signed up first (N = ${fmtCount(RACE_SIGNUPS)} + 1); every other signup of the burst carried their code; placesPerReferral ${placesPerReferral},`,
      "a referral counted at signup. Positions read with the service's own statements (rank.ts: positionOf) on its D1, and ordered by the rule from the rows.",
      tokens.size > 0
        ? `Cross-checked through GET ${STATUS_PATH} with the status link each person's welcome carried (the Klaviyo stand-in's waitlist_status_url).`
        : `Not cross-checked through GET ${STATUS_PATH}: no welcome reached the Klaviyo stand-in with a status link.`,
    ],
    figures: {
      load: load.figures,
      referredSent,
      referredAccepted,
      referrerReferrals: referrerRow?.referrals ?? null,
      countedReferralRows: counted?.n ?? null,
      wrongScores,
      positions: positions.length,
      rows: rows.length,
      treeTotal,
      notInLine,
      disagreements,
      statusApi: { tokens: tokens.size, answered: apiChecked, agrees: apiAgrees, referrerReferrals: referrerApiReferrals },
    },
  };
}
