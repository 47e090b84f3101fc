/**
 * `npm run bench`: the performance report in one command (docs/testing.md "The bench" lists what it measures).
 *
 *   npm run bench                  # clean build, then measure
 *   npm run bench -- --skip-build  # measure the public/ already built
 *   npm run bench -- --skip-build --home-mobile-only --runs 3   # a quick look at / mobile and its floor
 *   npm run bench -- --no-features-build  # only the pages the production content has
 *   npm run bench -- --public-dir ../old/public  # another build as it is (e.g. an older commit's), for a before/after
 *
 * Writes artifacts/bench.json, the Lighthouse reports and traces under artifacts/. Missed targets still
 * exit 0: this is a report. Makes no request beyond 127.0.0.1.
 */
import { createWriteStream, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { campaignsFolderFor, listCampaignFiles, slugOf } from "../../src/content/campaigns";
import { contentFilePath } from "../../src/content/derive";
import { LEADERBOARD_ENDPOINT } from "../../shared/contract";
import { TRANSPARENCY_PATHS } from "../../shared/transparency";
import { CHROMIUM_ARGS, findChromium } from "../lib/chromium";
import { precompressDir, type PrecompressResult } from "../lib/precompress";
import { startStaticServer } from "../lib/static-server";
import { cleanBuild, type BuildStep } from "./build";
import { profileHydration } from "./hydration";
import { measurePageJs, scriptsFetchedWithoutInteraction, type PageJs } from "./js-size";
import { medianFigures, runLighthouse, worstFigures, type FormFactor, type LighthouseRun } from "./lighthouse";
import { buildFeatures, LEADERBOARD_STAND_IN, TRANSPARENCY_STAND_IN } from "./features-build";
import { makeNoJsCopy, type NoJsCopy } from "./nojs";
import { evaluate, printReport, writeBenchJson, type AuditedPage, type HydrationProfile, type NoJsFloor } from "./report";
import { AUDITED_PATHS, LIGHTHOUSE_RUNS } from "./targets";

const PROJECT_DIR = path.resolve(__dirname, "..", "..");
/**
 * `--public-dir DIR`: measure that build as it is, by the same method (no build, no features build), e.g. an older
 * commit's public/ built in a worktree, for a before/after comparison. Default: this checkout's public/.
 */
const OTHER_PUBLIC_DIR = process.argv.includes("--public-dir") ? process.argv[process.argv.indexOf("--public-dir") + 1] : undefined;
const PUBLIC_DIR = OTHER_PUBLIC_DIR ? path.resolve(OTHER_PUBLIC_DIR) : path.join(PROJECT_DIR, "public");
const ARTIFACTS_DIR = path.join(PROJECT_DIR, "artifacts");
const REPORTS_DIR = path.join(ARTIFACTS_DIR, "lighthouse");
const HYDRATION_DIR = path.join(ARTIFACTS_DIR, "hydration");
/** Where the features build goes (features-build.ts), beside the precompression cache. */
const FEATURES_DIR = path.join(PROJECT_DIR, "node_modules", ".cache", "bench-features", "public");
/** Stands for "the first campaign page" in the list of wanted pages until its path is known. */
const CAMPAIGN_PAGE = "(campaign)";
/** Where brotli results are kept between runs (quality 11 is slow on large files). */
const PRECOMPRESS_CACHE_DIR = path.join(PROJECT_DIR, "node_modules", ".cache", "bench-precompressed");
/** `--runs N`: fewer (or more) runs than LIGHTHOUSE_RUNS, for a quick look while working; the targets are set on 5. */
const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || LIGHTHOUSE_RUNS;
/** `--home-mobile-only`: Lighthouse only on / mobile and its floor, the hydration profile of / only. */
const HOME_MOBILE_ONLY = process.argv.includes("--home-mobile-only");
/** Hydration profiles per page: the split by source is stable enough in three to compare builds. */
const HYDRATION_RUNS = 3;

/** What the static server answers in place of the waitlist service, on every site served. */
const SERVICE_ANSWERS = { [LEADERBOARD_ENDPOINT]: LEADERBOARD_STAND_IN, [TRANSPARENCY_PATHS.report]: TRANSPARENCY_STAND_IN };

/** One build the bench serves, and the audited pages taken from it. */
interface AuditedSite {
  /** The build as Gatsby wrote it (source maps included). */
  publicDir: string;
  /** Its audited pages. */
  pages: string[];
  /** Fixed answers in place of the waitlist service's API (startStaticServer's jsonAnswers). */
  jsonAnswers?: Record<string, unknown>;
}

/** A site being served: its precompressed copy and its no-JS floor, each on its own server. */
interface ServedSite extends AuditedSite {
  /** The served copy's precompressed text files. */
  precompressed: PrecompressResult;
  origin: string;
  floorOrigin: string;
  noJs: NoJsCopy;
  close(): Promise<void>;
}

/** The first campaign page of the production content, e.g. `/nba-ads/`, or undefined when it has none. */
function productionCampaignPath(): string | undefined {
  const first = listCampaignFiles(campaignsFolderFor(contentFilePath())).map(slugOf).sort()[0];
  return first ? `/${first}/` : undefined;
}

/**
 * The sites to audit: the production build for every audited page it has, and, when it lacks the leaderboard or
 * a campaign page, the features build (features-build.ts: the same content with the referral program on and a
 * campaign page) for those. `--no-features-build`, `--home-mobile-only` and `--public-dir` audit only the one build,
 * naming what it lacks.
 */
async function sitesToAudit(log: NodeJS.WritableStream): Promise<{ sites: AuditedSite[]; missing: string[] }> {
  const built = (dir: string, pagePath: string) => existsSync(path.join(dir, pagePath, "index.html"));
  const campaign = productionCampaignPath();
  const wanted = [...AUDITED_PATHS, campaign ?? CAMPAIGN_PAGE];
  const production = wanted.filter((pagePath) => built(PUBLIC_DIR, pagePath));
  // Either build's leaderboard asks the service for the board: the stand-in answers it wherever the page is audited.
  const sites: AuditedSite[] = [{ publicDir: PUBLIC_DIR, pages: production, jsonAnswers: SERVICE_ANSWERS }];
  const lacking = wanted.filter((pagePath) => !production.includes(pagePath));
  if (lacking.length === 0) return { sites, missing: [] };
  const named = (pagePath: string) => (pagePath === CAMPAIGN_PAGE ? "(a campaign page: content/campaigns/ has none)" : pagePath);
  // A quick look at / (--home-mobile-only) needs neither page of the features build.
  if (OTHER_PUBLIC_DIR || HOME_MOBILE_ONLY || process.argv.includes("--no-features-build")) return { sites, missing: lacking.map(named) };

  console.log(`Building ${lacking.map(named).join(" and ")} with the referral program on and a campaign page (features-build.ts)…`);
  const features = await buildFeatures(PROJECT_DIR, FEATURES_DIR, log);
  const fromFeatures = lacking.map((pagePath) => (pagePath === CAMPAIGN_PAGE ? features.campaignPath : pagePath));
  const pages = fromFeatures.filter((pagePath) => built(features.publicDir, pagePath));
  sites.push({ publicDir: features.publicDir, pages, jsonAnswers: SERVICE_ANSWERS });
  return { sites, missing: fromFeatures.filter((pagePath) => !pages.includes(pagePath)) };
}

/**
 * Serve one site as a CDN would: a scratch copy with every text file precompressed, and beside it the copy whose
 * audited pages have no scripts (the no-JS floor).
 */
async function serveSite(site: AuditedSite): Promise<ServedSite> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "bench-"));
  const servedDir = path.join(scratch, "public");
  await cp(site.publicDir, servedDir, { recursive: true });
  const precompressed = await precompressDir(servedDir, PRECOMPRESS_CACHE_DIR);
  const noJs = await makeNoJsCopy(servedDir, site.pages);
  const server = await startStaticServer(servedDir, { precompressed: true, jsonAnswers: site.jsonAnswers });
  const floorServer = await startStaticServer(noJs.dir, { precompressed: true, jsonAnswers: site.jsonAnswers });
  return {
    ...site,
    precompressed,
    origin: server.origin,
    floorOrigin: floorServer.origin,
    noJs,
    close: async () => {
      await server.close();
      await floorServer.close();
      await rm(scratch, { recursive: true, force: true });
      await rm(path.dirname(noJs.dir), { recursive: true, force: true });
    },
  };
}

const pageName = (pagePath: string) => (pagePath === "/" ? "home" : pagePath.replace(/^\/|\/$/g, "").replace(/\//g, "-"));

/** One Lighthouse run, its report saved; on mobile its trace too, so a bad run can be opened in DevTools' Performance panel. */
async function auditRun(origin: string, pagePath: string, formFactor: FormFactor, name: string, i: number): Promise<LighthouseRun> {
  const base = path.join(REPORTS_DIR, `${name}-${formFactor}-${i}`);
  const run = await runLighthouse(
    `${origin}${pagePath}`,
    formFactor,
    `${base}.json`,
    formFactor === "mobile" ? `${base}.trace.json` : undefined,
  );
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

async function main(): Promise<void> {
  await mkdir(REPORTS_DIR, { recursive: true });
  await mkdir(HYDRATION_DIR, { recursive: true });
  let buildSeconds = Number.NaN;
  let buildStepTimes: BuildStep[] = [];
  if (OTHER_PUBLIC_DIR || process.argv.includes("--skip-build")) {
    console.log(`Skipping the build: measuring ${OTHER_PUBLIC_DIR ? PUBLIC_DIR : "the existing public/"} as it is.`);
  } else {
    console.log("Clean build (gatsby clean && gatsby build)…");
    ({ buildSeconds, steps: buildStepTimes } = await cleanBuild(PROJECT_DIR, path.join(ARTIFACTS_DIR, "build.log")));
    console.log(`  built in ${buildSeconds.toFixed(1)} s`);
  }

  const buildLog = createWriteStream(path.join(ARTIFACTS_DIR, "features-build.log"));
  const { sites, missing } = await sitesToAudit(buildLog).finally(() => new Promise((resolve) => buildLog.end(resolve)));
  const present = sites.flatMap((site) => site.pages);
  console.log(`Audited pages: ${present.join(", ")}${missing.length ? `; skipped (not in this build): ${missing.join(", ")}` : ""}`);
  console.log("Precompressing the served copies (brotli 11, gzip 9)…");
  const served: ServedSite[] = [];
  const pages: AuditedPage[] = [];
  const floors: NoJsFloor[] = [];
  const pageJs: PageJs[] = [];
  const hydration: HydrationProfile[] = [];
  try {
    for (const site of sites) served.push(await serveSite(site));
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
      console.log("JavaScript each page fetches without interaction, and hydration profiles (4× CPU slowdown)…");
      for (const site of served) {
        for (const pagePath of site.pages) {
          pageJs.push(
            await measurePageJs(site.publicDir, pagePath, await scriptsFetchedWithoutInteraction(browser, site.origin, pagePath)),
          );
          if (HOME_MOBILE_ONLY && pagePath !== "/") continue;
          const runs = [];
          for (let i = 1; i <= HYDRATION_RUNS; i++) {
            const traceFile = path.join(HYDRATION_DIR, `${pageName(pagePath)}-${i}.trace.json`);
            runs.push(await profileHydration(browser, site.origin, pagePath, site.publicDir, traceFile));
          }
          hydration.push({ path: pagePath, runs });
        }
      }
    } finally {
      await browser.close();
    }

    console.log(`Lighthouse on each page and its no-JS floor, ${RUNS} runs each…`);
    for (const site of served) {
      for (const pagePath of HOME_MOBILE_ONLY ? site.pages.filter((p) => p === "/") : site.pages) {
        const name = pageName(pagePath);
        // Runs one at a time (2 cores: parallel runs would skew each other). A page's mobile runs and its floor's
        // alternate, so load that drifts while the bench runs weighs on both alike.
        const mobile: LighthouseRun[] = [];
        const floorRuns: LighthouseRun[] = [];
        for (let i = 1; i <= RUNS; i++) {
          mobile.push(await auditRun(site.origin, pagePath, "mobile", name, i));
          floorRuns.push(await auditRun(site.floorOrigin, pagePath, "mobile", `${name}-nojs`, i));
        }
        pages.push(audited(pagePath, "mobile", mobile));
        const floorFigures = floorRuns.map((run) => run.figures);
        floors.push({
          path: pagePath,
          runs: floorRuns,
          median: medianFigures(floorFigures),
          worst: worstFigures(floorFigures),
          removedScripts: site.noJs.removed[pagePath].scripts,
          removedScriptHints: site.noJs.removed[pagePath].scriptHints,
        });
        if (HOME_MOBILE_ONLY) continue;
        const desktop: LighthouseRun[] = [];
        for (let i = 1; i <= RUNS; i++) desktop.push(await auditRun(site.origin, pagePath, "desktop", name, i));
        pages.push(audited(pagePath, "desktop", desktop));
      }
    }
  } finally {
    for (const site of served) await site.close();
  }

  const results = {
    buildSeconds,
    buildSteps: buildStepTimes,
    skippedPages: missing,
    pages,
    floors,
    pageJs,
    hydration,
    precompressed: served[0].precompressed,
    machineLoad: machineLoad(),
  };
  const checks = evaluate(results);
  const jsonFile = path.join(ARTIFACTS_DIR, "bench.json");
  await writeBenchJson(jsonFile, results, checks);
  printReport(results, checks);
  console.log(
    `\nFigures: ${path.relative(process.cwd(), jsonFile)}; Lighthouse reports and traces: ${path.relative(process.cwd(), REPORTS_DIR)}/; ` +
      `hydration traces: ${path.relative(process.cwd(), HYDRATION_DIR)}/`,
  );
}

/** The machine's load averages (1, 5, 15 min) when the bench ended: timings on a busy machine are inflated. */
function machineLoad(): number[] {
  return os.loadavg().map((load) => Math.round(load * 100) / 100);
}

// process.exit: Lighthouse leaves handles open that would keep Node running.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
