/**
 * `npm run bench:api`: load and fault figures of the waitlist service, in the local runtime `npm start` uses (the built
 * site and the Worker in workerd through `wrangler dev`, ENVIRONMENT=development, a migrated local D1 of its own per
 * scenario), with delivery going to a loopback Klaviyo stand-in under a dummy private API key. Only loopback traffic;
 * every loop is bounded in count and time.
 *
 *   npm run bench:api                                   # build, then A to G (C, E and G at 10k, 100k, 1M): about 50 minutes
 *   npm run bench:api -- --skip-build                   # use the public/ already built
 *   npm run bench:api -- --skip-build --scenarios A,D   # some scenarios only
 *   npm run bench:api -- --skip-build --scenarios C --sizes 10000,100000   # C without the 1M list (seeding it takes ~2 min)
 *   npm run bench:api -- --skip-build --scenarios E                        # the operator's dashboard only
 *
 * A. LOAD_SIGNUPS signups at LOAD_CONNECTIONS at once: signups/s, latency p50/p99, errors; then D1's rows and the
 *    addresses the stand-in took, both = signups sent, and the time until all were delivered.
 * B. The same with the stand-in answering 500 for the first OUTAGE_S seconds: retries seen, nothing lost.
 * C. The referral program at 10,000 / 100,000 / 1,000,000 seeded signups (seed.ts): p50/p99 latency and D1 rows read
 *    (the service's `Server-Timing: d1-rows-read` header) of a signup with a referral code, a status lookup and a
 *    leaderboard read; a status lookup reads ≤ STATUS_ROWS_READ_MAX rows at 1M and its p99 grows ≤ 2× from 10k to 1M.
 * D. RACE_SIGNUPS signups at once, RACE_REFERRED of them referred by one person: positions exactly 1..N, and the
 *    referrer's count exactly RACE_REFERRED.
 * E. The operator's dashboard at the same sizes (dashboard.ts): loads per range, their p99 and rows read (≤ 10,000 and
 *    ≤ 500 ms at 1M), and the rollups against a full count of the rows.
 * F. Launch day (launch.ts): one batch of LAUNCH_INVITATIONS at LAUNCH_SIGNUPS through a stand-in held to Klaviyo's
 *    limits, 500 for LAUNCH_OUTAGE_S halfway: send rate, lost and doubled invitations, rows read
 *    (`-- --scenarios F --launch-signups 100000 --launch-invitations 2000 --launch-outage-s 15`: a short look).
 * G. The giveaway draw's commitment at the same sizes (draw.ts): wall time, rows read, steps, list, verify, proof; then
 *    the list drawn by a recorded drand round and checked in full by verify.ts (≤ VERIFY_SCRIPT_MAX_S at 1M) and by the
 *    draw page's Verify with the CPU slowed 4× (≤ VERIFY_PAGE_MAX_S), on a build of its own (verify-drawn.ts).
 * C and D need GET /api/status, GET /api/leaderboard and referral codes on signup; while the service lacks them (404),
 * they print "skipped" with the reason.
 *
 * Prints a table per scenario (✔ PASS / ✘ FAIL) and writes artifacts/bench-api.json, and each scenario's wrangler
 * output to artifacts/bench-api/. Failed checks still exit 0: this is a report (exit 1 only when the bench itself fails).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { PROJECT_DIR, runGatsby } from "../../lib/gatsby-build";
import { scenarioA, scenarioB } from "./delivery";
import { scenarioE } from "./dashboard";
import { scenarioG } from "./draw";
import { scenarioF, type LaunchOptions } from "./launch";
import { scenarioC, scenarioD } from "./referrals";
import { printScenario, printSummary, writeBenchApiJson, type ScenarioReport } from "./report";
import { prepareAssets, startBenchService, type BenchAssets } from "./service";
import * as targets from "./targets";

const PUBLIC_DIR = path.join(PROJECT_DIR, "public");
const ARTIFACTS_DIR = path.join(PROJECT_DIR, "artifacts");
const LOG_DIR = path.join(ARTIFACTS_DIR, "bench-api");
const JSON_FILE = path.join(ARTIFACTS_DIR, "bench-api.json");
const SCENARIOS = ["A", "B", "C", "D", "E", "F", "G"] as const;
type ScenarioId = (typeof SCENARIOS)[number];

const USAGE =
  "Usage: npm run bench:api -- [--skip-build] [--scenarios A,B,C,D,E,F,G] [--sizes 10000,100000,1000000] " +
  "[--launch-signups N] [--launch-invitations N] [--launch-outage-s S]";

/** A whole number of at least `min` from the command line. */
function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text.trim().replace(/_/g, ""));
  if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`--${name} takes a whole number ≥ ${min}. ${USAGE}`);
  return value;
}

/** The command line, checked. */
function options(): { skipBuild: boolean; scenarios: ScenarioId[]; sizes: number[]; launch: LaunchOptions } {
  const { values } = parseArgs({
    options: {
      "skip-build": { type: "boolean", default: false },
      scenarios: { type: "string", default: SCENARIOS.join(",") },
      sizes: { type: "string", default: targets.REFERRAL_SIZES.join(",") },
      "launch-signups": { type: "string", default: String(targets.LAUNCH_SIGNUPS) },
      "launch-invitations": { type: "string", default: String(targets.LAUNCH_INVITATIONS) },
      "launch-outage-s": { type: "string", default: String(targets.LAUNCH_OUTAGE_S) },
    },
  });
  const scenarios = values.scenarios.split(",").map((id) => id.trim().toUpperCase());
  const unknown = scenarios.filter((id) => !(SCENARIOS as readonly string[]).includes(id));
  if (unknown.length > 0 || scenarios.length === 0) throw new UsageError(`Unknown scenario ${unknown.join(", ")}. ${USAGE}`);
  const sizes = values.sizes.split(",").map((size) => Number(size.trim().replace(/_/g, "")));
  if (sizes.some((size) => !Number.isSafeInteger(size) || size < 2))
    throw new UsageError(`--sizes takes whole numbers ≥ 2, e.g. 10000,100000. ${USAGE}`);
  const launch: LaunchOptions = {
    signups: wholeNumber("launch-signups", values["launch-signups"], 2),
    invitations: wholeNumber("launch-invitations", values["launch-invitations"], 1),
    outageS: wholeNumber("launch-outage-s", values["launch-outage-s"], 0),
  };
  if (launch.invitations > launch.signups) throw new UsageError(`--launch-invitations cannot exceed --launch-signups. ${USAGE}`);
  return { skipBuild: values["skip-build"], scenarios: SCENARIOS.filter((id) => scenarios.includes(id)), sizes, launch };
}

class UsageError extends Error {}

/** One scenario with a fresh service of its own (A, B, D); C starts one per seeded size itself. */
async function withFreshService(
  assets: BenchAssets,
  id: ScenarioId,
  run: (service: Awaited<ReturnType<typeof startBenchService>>) => Promise<ScenarioReport>,
): Promise<ScenarioReport> {
  const service = await startBenchService({ assets, logFile: path.join(LOG_DIR, `${id}.log`) });
  try {
    return await run(service);
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const { skipBuild, scenarios, sizes, launch } = options();
  if (skipBuild) console.log("Skipping the build (--skip-build): serving the existing public/.");
  else {
    console.log("Building the site (gatsby build)…");
    const build = await runGatsby(["build"], { log: process.stdout });
    if (build.status !== 0) throw new Error(`The build failed (exit ${build.status}); nothing was measured.`);
  }
  await mkdir(LOG_DIR, { recursive: true });
  const assets = await prepareAssets(PUBLIC_DIR);
  const reports: ScenarioReport[] = [];
  try {
    for (const id of scenarios) {
      console.log(`\nScenario ${id}…`);
      let report: ScenarioReport;
      if (id === "A") report = await withFreshService(assets, id, scenarioA);
      else if (id === "B") report = await withFreshService(assets, id, scenarioB);
      else if (id === "C") report = await scenarioC(assets, sizes, LOG_DIR);
      else if (id === "E") report = await scenarioE(assets, sizes, LOG_DIR);
      else if (id === "F") report = await scenarioF(assets, launch, LOG_DIR);
      else if (id === "G") report = await scenarioG(assets, sizes, LOG_DIR);
      else report = await withFreshService(assets, id, (service) => scenarioD(service, assets.settings));
      const held = report.checks.filter((check) => check.pass !== null);
      console.log(
        report.skipped
          ? `  skipped: ${report.skipped}`
          : `  done: ${held.filter((check) => check.pass).length} of ${held.length} checks passed`,
      );
      reports.push(report);
      // Written after every scenario, so a run cut short still leaves the figures it has.
      await writeBenchApiJson(JSON_FILE, reports, { ...targets });
    }
  } finally {
    await assets.remove();
  }
  for (const report of reports) printScenario(report);
  printSummary(reports);
  console.log(
    `\nFigures: ${path.relative(process.cwd(), JSON_FILE)}; wrangler output per scenario: ${path.relative(process.cwd(), LOG_DIR)}/`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(`bench:api failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
