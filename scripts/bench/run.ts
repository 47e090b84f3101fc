/**
 * `npm run bench`: the performance report of issue 5 (items 1 and 2), in one command.
 *
 *   npm run bench                  # clean build, then measure (about 5–8 minutes on 2 cores)
 *   npm run bench -- --skip-build  # measure the public/ already built
 *
 * What it measures:
 *   1. clean build time: `gatsby clean` then `gatsby build` (log: artifacts/build.log);
 *   2. Lighthouse (mobile = default config, desktop = desktop config), 3 runs each on / and /success/,
 *      medians of the four category scores and LCP, FCP, TBT, CLS, bytes transferred, with public/
 *      served on 127.0.0.1 by serve-handler (gzip on, as a real host);
 *   3. the no-JS floor: / with every script removed, Lighthouse mobile 3×; our mobile LCP ÷ the floor's;
 *   4. first-load JavaScript of / in KB gzip, Gatsby runtime vs ours, and the packages behind it.
 * Targets and their sources are in targets.ts. It prints a table (✔/✘) and writes artifacts/bench.json,
 * plus every Lighthouse report in artifacts/lighthouse/. Missed targets still exit 0: this is a report.
 * Needs Chrome or Chromium (found as the browser tests find it); makes no request beyond 127.0.0.1.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { cleanBuild } from "./build";
import { measureFirstLoadJs } from "./js-size";
import { medianFigures, runLighthouse, type FormFactor, type LighthouseRun } from "./lighthouse";
import { makeNoJsCopy } from "./nojs";
import { evaluate, printReport, writeBenchJson, type AuditedPage } from "./report";
import { startStaticServer } from "../lib/static-server";
import { AUDITED_PATHS, LIGHTHOUSE_RUNS } from "./targets";

const PROJECT_DIR = path.resolve(__dirname, "..", "..");
const PUBLIC_DIR = path.join(PROJECT_DIR, "public");
const ARTIFACTS_DIR = path.join(PROJECT_DIR, "artifacts");
const REPORTS_DIR = path.join(ARTIFACTS_DIR, "lighthouse");
/** Static hosts gzip; the bench does too (server.ts says why). */
const SERVER_GZIP = true;

/** `LIGHTHOUSE_RUNS` sequential Lighthouse runs (2 cores: parallel runs would skew each other), each report saved. */
async function auditRuns(origin: string, pagePath: string, formFactor: FormFactor, name: string): Promise<LighthouseRun[]> {
  const runs: LighthouseRun[] = [];
  for (let i = 1; i <= LIGHTHOUSE_RUNS; i++) {
    const run = await runLighthouse(`${origin}${pagePath}`, formFactor, path.join(REPORTS_DIR, `${name}-${formFactor}-${i}.json`));
    const { scores, lcpMs, cls } = run.figures;
    console.log(`  ${name} ${formFactor} #${i}: perf ${scores.performance}, LCP ${Math.round(lcpMs)} ms, CLS ${cls.toFixed(3)}`);
    runs.push(run);
  }
  return runs;
}

async function main(): Promise<void> {
  await mkdir(REPORTS_DIR, { recursive: true });
  let buildSeconds = Number.NaN;
  if (process.argv.includes("--skip-build")) {
    console.log("Skipping the build (--skip-build): measuring the existing public/.");
  } else {
    console.log("Clean build (gatsby clean && gatsby build)…");
    ({ buildSeconds } = await cleanBuild(PROJECT_DIR, path.join(ARTIFACTS_DIR, "build.log")));
    console.log(`  built in ${buildSeconds.toFixed(1)} s`);
  }

  const firstLoadJs = await measureFirstLoadJs(PUBLIC_DIR, "/");

  console.log("Lighthouse on the built site…");
  const server = await startStaticServer(PUBLIC_DIR, { gzip: SERVER_GZIP });
  const pages: AuditedPage[] = [];
  try {
    for (const pagePath of AUDITED_PATHS) {
      for (const formFactor of ["mobile", "desktop"] as const) {
        const name = pagePath === "/" ? "home" : pagePath.replace(/\//g, "");
        const runs = await auditRuns(server.origin, pagePath, formFactor, name);
        pages.push({ path: pagePath, formFactor, runs, median: medianFigures(runs.map((run) => run.figures)) });
      }
    }
  } finally {
    await server.close();
  }

  console.log("Lighthouse on the no-JS floor (/ without scripts)…");
  const noJs = await makeNoJsCopy(PUBLIC_DIR);
  const floorServer = await startStaticServer(noJs.dir, { gzip: SERVER_GZIP });
  let floorRuns: LighthouseRun[];
  try {
    floorRuns = await auditRuns(floorServer.origin, "/", "mobile", "home-nojs");
  } finally {
    await floorServer.close();
    await rm(path.dirname(noJs.dir), { recursive: true, force: true });
  }

  const results = {
    buildSeconds,
    pages,
    noJsFloor: {
      runs: floorRuns,
      median: medianFigures(floorRuns.map((run) => run.figures)),
      removedScripts: noJs.removedScripts,
      removedScriptHints: noJs.removedScriptHints,
    },
    firstLoadJs,
    serverGzip: SERVER_GZIP,
  };
  const checks = evaluate(results);
  const jsonFile = path.join(ARTIFACTS_DIR, "bench.json");
  await writeBenchJson(jsonFile, results, checks);
  printReport(results, checks);
  console.log(`\nFigures: ${path.relative(process.cwd(), jsonFile)}; Lighthouse reports: ${path.relative(process.cwd(), REPORTS_DIR)}/`);
}

// process.exit: Lighthouse leaves handles open that would keep Node running.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exit(1);
  },
);
