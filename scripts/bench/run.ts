/**
 * `npm run bench`: the performance report, in one command.
 *
 *   npm run bench                  # clean build, then measure (about 10 minutes on 2 quiet cores)
 *   npm run bench -- --skip-build  # measure the public/ already built
 *   npm run bench -- --skip-build --home-mobile-only --runs 3   # a quick look at / mobile and its floor
 *
 * What it measures:
 *   1. clean build time: `gatsby clean` then `gatsby build` (log: artifacts/build.log);
 *   2. Lighthouse (mobile = default config, desktop = desktop config), 5 runs each on / and /success/,
 *      median and worst of the four category scores and LCP, FCP, TBT, CLS, bytes transferred, with
 *      public/ served on 127.0.0.1 by serve-handler, compressed as a CDN would (brotli or gzip);
 *   3. the no-JS floor: / with every script removed, Lighthouse mobile 5×, alternating with the mobile
 *      runs of /; our mobile LCP (median and worst run) ÷ the floor's median;
 *   4. what ran on the main thread before the LCP paint in each of those runs (from their traces);
 *   5. first-load JavaScript of / in KB gzip, Gatsby runtime vs ours, and the packages behind it.
 * Targets and their sources are in targets.ts. It prints a table (✔/✘) and writes artifacts/bench.json,
 * plus every Lighthouse report in artifacts/lighthouse/. Missed targets still exit 0: this is a report.
 * Needs Chrome or Chromium (found as the browser tests find it); makes no request beyond 127.0.0.1.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { cleanBuild } from "./build";
import { measureFirstLoadJs } from "./js-size";
import { medianFigures, runLighthouse, worstFigures, type FormFactor, type LighthouseRun } from "./lighthouse";
import { makeNoJsCopy } from "./nojs";
import { evaluate, printReport, writeBenchJson, type AuditedPage } from "./report";
import { startStaticServer } from "../lib/static-server";
import { AUDITED_PATHS, LIGHTHOUSE_RUNS } from "./targets";

const PROJECT_DIR = path.resolve(__dirname, "..", "..");
const PUBLIC_DIR = path.join(PROJECT_DIR, "public");
const ARTIFACTS_DIR = path.join(PROJECT_DIR, "artifacts");
const REPORTS_DIR = path.join(ARTIFACTS_DIR, "lighthouse");
/**
 * Static hosts and CDNs compress (brotli, or gzip for browsers without it), so the bench does too: uncompressed,
 * Lighthouse's transfer sizes and simulated timings would describe a server nobody deploys to.
 */
const SERVER_COMPRESSION = true;
/** `--runs N`: fewer (or more) runs than LIGHTHOUSE_RUNS, for a quick look while working; the budget is set on 5. */
const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || LIGHTHOUSE_RUNS;
/** `--home-mobile-only`: only / on mobile and its floor, the pair the LCP budget is about. */
const HOME_MOBILE_ONLY = process.argv.includes("--home-mobile-only");

/**
 * One Lighthouse run, its report saved; for the mobile home page and its floor the trace too,
 * so a bad run can be opened in DevTools' Performance panel.
 */
async function auditRun(origin: string, pagePath: string, formFactor: FormFactor, name: string, i: number): Promise<LighthouseRun> {
  const base = path.join(REPORTS_DIR, `${name}-${formFactor}-${i}`);
  const keepTrace = pagePath === "/" && formFactor === "mobile";
  const run = await runLighthouse(`${origin}${pagePath}`, formFactor, `${base}.json`, keepTrace ? `${base}.trace.json` : undefined);
  const { scores, lcpMs, tbtMs, cls } = run.figures;
  console.log(
    `  ${name} ${formFactor} #${i}: perf ${scores.performance}, LCP ${Math.round(lcpMs)} ms, TBT ${Math.round(tbtMs)} ms, CLS ${cls.toFixed(3)}`,
  );
  return run;
}

/** The runs of one page as the report takes them. */
function audited(pagePath: string, formFactor: FormFactor, runs: LighthouseRun[]): AuditedPage {
  const figures = runs.map((run) => run.figures);
  return { path: pagePath, formFactor, runs, median: medianFigures(figures), worst: worstFigures(figures) };
}

const pageName = (pagePath: string) => (pagePath === "/" ? "home" : pagePath.replace(/\//g, ""));

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

  console.log(`Lighthouse on the built site and on the no-JS floor (/ without scripts), ${RUNS} runs each…`);
  const noJs = await makeNoJsCopy(PUBLIC_DIR);
  const server = await startStaticServer(PUBLIC_DIR, { gzip: SERVER_COMPRESSION });
  const floorServer = await startStaticServer(noJs.dir, { gzip: SERVER_COMPRESSION });
  const pages: AuditedPage[] = [];
  const floorRuns: LighthouseRun[] = [];
  try {
    // Runs one at a time (2 cores: parallel runs would skew each other). The mobile home page and its floor
    // alternate, so load that drifts while the bench runs weighs on both alike.
    const homeMobile: LighthouseRun[] = [];
    for (let i = 1; i <= RUNS; i++) {
      homeMobile.push(await auditRun(server.origin, "/", "mobile", "home", i));
      floorRuns.push(await auditRun(floorServer.origin, "/", "mobile", "home-nojs", i));
    }
    pages.push(audited("/", "mobile", homeMobile));
    const rest = AUDITED_PATHS.flatMap((pagePath) => (["mobile", "desktop"] as const).map((formFactor) => [pagePath, formFactor] as const));
    for (const [pagePath, formFactor] of HOME_MOBILE_ONLY ? [] : rest) {
      if (pagePath === "/" && formFactor === "mobile") continue;
      const runs: LighthouseRun[] = [];
      for (let i = 1; i <= RUNS; i++) runs.push(await auditRun(server.origin, pagePath, formFactor, pageName(pagePath), i));
      pages.push(audited(pagePath, formFactor, runs));
    }
  } finally {
    await server.close();
    await floorServer.close();
    await rm(path.dirname(noJs.dir), { recursive: true, force: true });
  }

  const floorFigures = floorRuns.map((run) => run.figures);
  const results = {
    buildSeconds,
    pages,
    noJsFloor: {
      runs: floorRuns,
      median: medianFigures(floorFigures),
      worst: worstFigures(floorFigures),
      removedScripts: noJs.removedScripts,
      removedScriptHints: noJs.removedScriptHints,
    },
    firstLoadJs,
    serverGzip: SERVER_COMPRESSION,
  };
  const checks = evaluate(results);
  const jsonFile = path.join(ARTIFACTS_DIR, "bench.json");
  await writeBenchJson(jsonFile, results, checks);
  printReport(results, checks);
  console.log(
    `\nFigures: ${path.relative(process.cwd(), jsonFile)}; Lighthouse reports and traces: ${path.relative(process.cwd(), REPORTS_DIR)}/`,
  );
}

// process.exit: Lighthouse leaves handles open that would keep Node running.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
