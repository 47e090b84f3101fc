/** The bench's verdict: hold the figures against the targets in targets.ts, print a table, write artifacts/bench.json. */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BuildStep } from "./build";
import type { PageJs } from "./js-size";
import { CATEGORY_IDS, type FormFactor, type LighthouseFigures, type LighthouseRun } from "./lighthouse";
import type { PrecompressResult } from "../lib/precompress";
import { describeTasksAfterFcp, describeTasksBeforeLcp, type TasksAfterFcp } from "./trace";
import {
  BYTES_PER_KB,
  CATEGORY_MIN_SCORE,
  CLEAN_BUILD_MAX_S,
  CLS_MAX,
  GATSBY_HELLO_WORLD_JS_KB_GZIP,
  LCP_FLOOR_RATIO_MAX,
  NOINDEX_PATHS,
  PAGE_JS_ALLOWANCE_KB_GZIP,
  PAGE_JS_BUDGET_KB_GZIP,
  PERFORMANCE_MIN_DESKTOP,
  PERFORMANCE_MIN_MOBILE,
  TBT_WORST_MAX_MS,
} from "./targets";

/** Lighthouse shows CLS to three decimals (its audit granularity is 0.001), so "CLS 0" is checked at that precision. */
const CLS_DECIMALS = 3;
/** The JavaScript budget is set on the signup page, the page every visitor lands on. */
const JS_BUDGET_PATH = "/";

/** The Lighthouse runs of one page in one form factor, their median and their worst. */
export interface AuditedPage {
  path: string;
  formFactor: FormFactor;
  runs: LighthouseRun[];
  median: LighthouseFigures;
  worst: LighthouseFigures;
}

/** Mobile runs of one page with every script removed: the LCP its scripts are held against. */
export interface NoJsFloor extends Omit<AuditedPage, "formFactor"> {
  removedScripts: number;
  removedScriptHints: number;
}

/** The hydration profiles of one page (hydration.ts), one per load; null where the trace had no first paint. */
export interface HydrationProfile {
  path: string;
  runs: (TasksAfterFcp | null)[];
}

/** Everything the bench measured. */
export interface BenchResults {
  /** NaN with --skip-build. */
  buildSeconds: number;
  buildSteps: BuildStep[];
  /** Audited pages this build does not have (named in the output). */
  skippedPages: string[];
  pages: AuditedPage[];
  floors: NoJsFloor[];
  pageJs: PageJs[];
  hydration: HydrationProfile[];
  /** The served copy's precompressed text files. */
  precompressed: PrecompressResult;
  /** Load averages (1, 5, 15 min) when the bench ended. */
  machineLoad: number[];
}

/** One line of the table: a figure, its target, and whether it meets it (`null` = no target, shown for context). */
export interface Check {
  figure: string;
  /** The median run's value (or the only value, for figures measured once). */
  value: string;
  /** The worst run's value: lowest score, longest time; "—" for figures measured once. */
  worst: string;
  target: string;
  pass: boolean | null;
}

const kb = (bytes: number) => bytes / BYTES_PER_KB;
const fmtKb = (bytes: number) => `${kb(bytes).toFixed(1)} KB`;
const fmtMs = (ms: number) => `${Math.round(ms)} ms`;
const none = "—";

/** The checks of one page in one form factor. */
function pageChecks(page: AuditedPage, floor: NoJsFloor | undefined): Check[] {
  const label = `${page.path} ${page.formFactor}`;
  const m = page.median;
  const w = page.worst;
  const mobile = page.formFactor === "mobile";
  const checks: Check[] = [
    mobile
      ? {
          figure: `${label} performance`,
          value: String(m.scores.performance),
          worst: String(w.scores.performance),
          target: `every run ${PERFORMANCE_MIN_MOBILE}`,
          pass: w.scores.performance >= PERFORMANCE_MIN_MOBILE,
        }
      : {
          figure: `${label} performance`,
          value: String(m.scores.performance),
          worst: String(w.scores.performance),
          target: `median ≥ ${PERFORMANCE_MIN_DESKTOP}`,
          pass: m.scores.performance >= PERFORMANCE_MIN_DESKTOP,
        },
  ];
  for (const id of CATEGORY_IDS.filter((c) => c !== "performance")) {
    if (id === "seo" && NOINDEX_PATHS.includes(page.path)) {
      // The page is noindex by design, and Lighthouse's is-crawlable audit fails every noindex page,
      // so the target is held against the other SEO audits and the raw score is shown beside it.
      checks.push({
        figure: `${label} seo (raw, noindex page)`,
        value: String(m.scores.seo),
        worst: String(w.scores.seo),
        target: none,
        pass: null,
      });
      checks.push({
        figure: `${label} seo without is-crawlable`,
        value: String(m.seoIgnoringNoindex),
        worst: String(w.seoIgnoringNoindex),
        target: `median ${CATEGORY_MIN_SCORE}`,
        pass: m.seoIgnoringNoindex >= CATEGORY_MIN_SCORE,
      });
      continue;
    }
    checks.push({
      figure: `${label} ${id}`,
      value: String(m.scores[id]),
      worst: String(w.scores[id]),
      target: `median ${CATEGORY_MIN_SCORE}`,
      pass: m.scores[id] >= CATEGORY_MIN_SCORE,
    });
  }
  checks.push({
    figure: `${label} CLS`,
    value: m.cls.toFixed(CLS_DECIMALS),
    worst: w.cls.toFixed(CLS_DECIMALS),
    target: `every run ${CLS_MAX}`,
    pass: Number(w.cls.toFixed(CLS_DECIMALS)) <= CLS_MAX,
  });
  checks.push({ figure: `${label} LCP`, value: fmtMs(m.lcpMs), worst: fmtMs(w.lcpMs), target: none, pass: null });
  if (mobile && floor) {
    checks.push({
      figure: `${label} no-JS floor LCP`,
      value: fmtMs(floor.median.lcpMs),
      worst: fmtMs(floor.worst.lcpMs),
      target: none,
      pass: null,
    });
    // Each run is held against one floor, the median of the floor's runs (measured alternately with them).
    const ratio = m.lcpMs / floor.median.lcpMs;
    const worstRatio = w.lcpMs / floor.median.lcpMs;
    checks.push({
      figure: `${label} LCP ÷ no-JS floor`,
      value: `${ratio.toFixed(2)}×`,
      worst: `${worstRatio.toFixed(2)}×`,
      target: `every run ≤ ${LCP_FLOOR_RATIO_MAX}×`,
      pass: worstRatio <= LCP_FLOOR_RATIO_MAX,
    });
  }
  checks.push({ figure: `${label} FCP`, value: fmtMs(m.fcpMs), worst: fmtMs(w.fcpMs), target: none, pass: null });
  checks.push({
    figure: `${label} TBT`,
    value: fmtMs(m.tbtMs),
    worst: fmtMs(w.tbtMs),
    target: mobile ? `worst ≤ ${TBT_WORST_MAX_MS} ms` : none,
    pass: mobile ? w.tbtMs <= TBT_WORST_MAX_MS : null,
  });
  checks.push({
    figure: `${label} transferred`,
    value: fmtKb(m.totalTransferBytes),
    worst: fmtKb(w.totalTransferBytes),
    target: none,
    pass: null,
  });
  return checks;
}

/** Checks every figure against the targets, in the order the table prints them: median, worst run, target. */
export function evaluate(results: BenchResults): Check[] {
  const built = !Number.isNaN(results.buildSeconds);
  const checks: Check[] = [
    {
      figure: "clean build time",
      value: built ? `${results.buildSeconds.toFixed(1)} s` : "(skipped)",
      worst: none,
      target: `≤ ${CLEAN_BUILD_MAX_S} s`,
      pass: built ? results.buildSeconds <= CLEAN_BUILD_MAX_S : null,
    },
  ];
  for (const page of results.pages)
    checks.push(
      ...pageChecks(
        page,
        results.floors.find((floor) => floor.path === page.path),
      ),
    );
  for (const js of results.pageJs) {
    const above = kb(js.totalGzipBytes) - GATSBY_HELLO_WORLD_JS_KB_GZIP;
    const held = js.path === JS_BUDGET_PATH;
    checks.push({
      figure: `${js.path} JS fetched without interaction (gzip)`,
      value: fmtKb(js.totalGzipBytes),
      worst: none,
      target: held ? `≤ ${PAGE_JS_BUDGET_KB_GZIP.toFixed(1)} KB` : none,
      pass: held ? kb(js.totalGzipBytes) <= PAGE_JS_BUDGET_KB_GZIP : null,
    });
    checks.push({
      figure: `  … above hello-world (${GATSBY_HELLO_WORLD_JS_KB_GZIP} KB)`,
      value: `${above >= 0 ? "+" : ""}${above.toFixed(1)} KB`,
      worst: none,
      target: held ? `≤ +${PAGE_JS_ALLOWANCE_KB_GZIP} KB` : none,
      pass: held ? above <= PAGE_JS_ALLOWANCE_KB_GZIP : null,
    });
  }
  return checks;
}

/** The run whose `pick` value is the median one: its diagnostics explain the reported figures. */
function representativeRun(runs: LighthouseRun[], pick: (figures: LighthouseFigures) => number): LighthouseRun {
  const sorted = [...runs].sort((a, b) => pick(a.figures) - pick(b.figures));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The run with the highest `pick` value. */
function worstRun(runs: LighthouseRun[], pick: (figures: LighthouseFigures) => number): LighthouseRun {
  return runs.reduce((worst, run) => (pick(run.figures) > pick(worst.figures) ? run : worst));
}

/** Prints the table and, below it, what lies behind the figures. */
export function printReport(results: BenchResults, checks: Check[]): void {
  const mark = (pass: boolean | null) => (pass === null ? " " : pass ? "✔" : "✘");
  const header = ["figure", "median", "worst", "target"];
  const cellsOf = (c: Check) => [c.figure, c.value, c.worst, c.target];
  const widths = header.map((title, i) => Math.max(title.length, ...checks.map((c) => cellsOf(c)[i].length)));
  const line = (cells: string[], status: string) => `${cells.map((cell, i) => cell.padEnd(widths[i])).join("  ")}  ${status}`;
  console.log(`\n${line(header, "")}`);
  console.log("-".repeat(widths.reduce((a, b) => a + b + 2, 3)));
  for (const check of checks) console.log(line(cellsOf(check), mark(check.pass)));
  const missed = checks.filter((c) => c.pass === false);
  console.log(
    `\n${missed.length === 0 ? "All targets met." : `${missed.length} of ${checks.filter((c) => c.pass !== null).length} targets missed (✘).`}`,
  );
  console.log(
    `Machine load (1, 5, 15 min) at the end: ${results.machineLoad.join(", ")} (this machine has ${os.cpus().length} cores; timings on a busy machine are inflated).`,
  );
  if (results.skippedPages.length > 0) console.log(`Not audited (not in this build): ${results.skippedPages.join(", ")}`);
  const { files, rawBytes, brotliBytes, gzipBytes } = results.precompressed;
  console.log(
    `Served precompressed: ${files} text files, ${fmtKb(rawBytes)} raw → ${fmtKb(brotliBytes)} brotli, ${fmtKb(gzipBytes)} gzip.`,
  );

  if (results.buildSteps.length > 0) {
    console.log("\nBuild steps (Gatsby's own timing; some overlap):");
    for (const { step, seconds } of results.buildSteps.filter((s) => s.seconds >= 0.1))
      console.log(`  ${seconds.toFixed(2).padStart(7)} s  ${step}`);
  }

  console.log("\nWhy (Lighthouse; the median-LCP run of each page and floor):");
  for (const page of [
    ...results.pages,
    ...results.floors.map((floor) => ({ ...floor, path: `${floor.path} (no JS)`, formFactor: "mobile" })),
  ]) {
    const d = representativeRun(page.runs, (f) => f.lcpMs).diagnostics;
    console.log(`  ${page.path} ${page.formFactor}`);
    console.log(
      `    LCP element: ${d.lcpElement ?? "none"}; phases ${Object.entries(d.lcpPhasesMs)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")} ms`,
    );
    for (const shift of d.layoutShifts) console.log(`    layout shift ${shift.score.toFixed(3)}: ${shift.element}`);
    for (const audit of d.failingAudits) {
      console.log(`    ${audit.category}: ${audit.id} score ${audit.score}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
    }
  }

  // Lighthouse's mobile LCP is simulated from the observed trace: whatever ran before the observed paint is
  // counted into it; its TBT is made of the long tasks after the first paint.
  console.log("\nMain thread in Lighthouse's mobile runs (observed trace, unthrottled; Lighthouse simulates 4× slower):");
  for (const page of results.pages.filter((p) => p.formFactor === "mobile")) {
    const slowest = worstRun(page.runs, (f) => f.lcpMs);
    const blocking = worstRun(page.runs, (f) => f.tbtMs);
    const f = blocking.figures;
    console.log(`  ${page.path}: before the LCP paint in its slowest-LCP run (LCP ${fmtMs(slowest.figures.lcpMs)} simulated)`);
    for (const text of describeTasksBeforeLcp(slowest.diagnostics.beforeLcp)) console.log(text);
    console.log(`  ${page.path}: after the first paint in its highest-TBT run (perf ${f.scores.performance}, TBT ${fmtMs(f.tbtMs)})`);
    for (const text of describeTasksAfterFcp(blocking.diagnostics.afterFcp, "      ", 6)) console.log(text);
  }

  console.log("\nHydration profile (bench's own load, 4× CPU slowdown, CPU profiler; the run with the median blocking time):");
  for (const profile of results.hydration) {
    const found = profile.runs.filter((run): run is TasksAfterFcp => run !== null).sort((a, b) => a.blockingMs - b.blockingMs);
    const median = found[Math.floor((found.length - 1) / 2)] ?? null;
    console.log(`  ${profile.path} (blocking per run: ${found.map((run) => `${Math.round(run.blockingMs)} ms`).join(", ")})`);
    for (const text of describeTasksAfterFcp(median, "      ", 8)) console.log(text);
  }

  console.log(`\nJavaScript fetched without interaction (gzip -9 of the built files; hello-world ${GATSBY_HELLO_WORLD_JS_KB_GZIP} KB):`);
  for (const js of results.pageJs) {
    const seen = new Set(
      results.pages
        .filter((page) => page.path === js.path)
        .flatMap((page) =>
          page.runs.flatMap((run) => run.diagnostics.scripts.map((script) => new URL(script.url).pathname.replace(/^\//, ""))),
        ),
    );
    const counted = js.files.filter((file) => !file.file.startsWith("inline")).map((file) => file.file);
    const notCounted = [...seen].filter((file) => !counted.includes(file));
    console.log(
      `  ${js.path}: ${fmtKb(js.totalGzipBytes)} (Gatsby runtime ${fmtKb(js.runtimeGzipBytes)}, ours ${fmtKb(js.oursGzipBytes)})`,
    );
    for (const file of js.files) console.log(`    ${fmtKb(file.gzipBytes).padStart(9)}  ${file.kind.padEnd(7)}  ${file.file}`);
    if (notCounted.length > 0) console.log(`    ! requested in Lighthouse's runs but not in the bench's load: ${notCounted.join(", ")}`);
    if (js.path === JS_BUDGET_PATH) {
      console.log("    biggest sources (≈ gzip, shared out from source maps):");
      for (const source of js.bySource.slice(0, 15)) console.log(`      ${fmtKb(source.approxGzipBytes).padStart(9)}  ${source.source}`);
    }
  }
}

/** Writes the results and the checks to `file` (creating its folder). */
export async function writeBenchJson(file: string, results: BenchResults, checks: Check[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const targets = {
    PERFORMANCE_MIN_MOBILE,
    PERFORMANCE_MIN_DESKTOP,
    CATEGORY_MIN_SCORE,
    CLS_MAX,
    LCP_FLOOR_RATIO_MAX,
    TBT_WORST_MAX_MS,
    GATSBY_HELLO_WORLD_JS_KB_GZIP,
    PAGE_JS_BUDGET_KB_GZIP,
    CLEAN_BUILD_MAX_S,
  };
  await writeFile(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), targets, checks, results }, null, 2)}\n`);
}
