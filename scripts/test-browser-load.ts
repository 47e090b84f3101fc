/**
 * `npm run test:browser:load`: the real-browser suite three times in a row while both cores are kept busy, as on a
 * loaded CI machine, to show whether it is reliable there. The load is `stress-ng --cpu 2` where it is installed
 * (.ci/run installs it), else two busy Node loops. Prints each run's counts and exits non-zero unless all passed.
 * Arguments go to `playwright test` (files or `-g` to load-test a part of the suite). docs/testing.md says what it
 * covers and how long it takes.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** How many times the suite runs. */
const RUNS = 3;
/** Busy loops: one per core of the 2-core machines the project runs on. */
const LOAD_WORKERS = 2;
/**
 * The longest the load may run on its own (s), should this script be killed before it stops it: three runs of the
 * suite under load fit well within it.
 */
const LOAD_LIMIT_S = 3 * 60 * 60;
/** Where each run's report, traces and JSON results go. */
const OUT_DIR = path.join("artifacts", "playwright-load");

/** The counts of one run, from Playwright's JSON reporter. */
interface RunCounts {
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
}

/** Start the load: stress-ng when the machine has it, else Node processes that spin. */
function startLoad(): { name: string; processes: ChildProcess[] } {
  const hasStressNg = spawnSync("stress-ng", ["--version"], { stdio: "ignore" }).status === 0;
  if (hasStressNg) {
    const stress = spawn("stress-ng", ["--cpu", String(LOAD_WORKERS), "--timeout", `${LOAD_LIMIT_S}s`, "--quiet"], {
      stdio: "ignore",
      detached: true,
    });
    return { name: `stress-ng --cpu ${LOAD_WORKERS}`, processes: [stress] };
  }
  const spin = `const end = Date.now() + ${LOAD_LIMIT_S * 1000}; while (Date.now() < end) {}`;
  const loops = Array.from({ length: LOAD_WORKERS }, () => spawn(process.execPath, ["-e", spin], { stdio: "ignore", detached: true }));
  return { name: `${LOAD_WORKERS} busy Node loops`, processes: loops };
}

/** Stop the load's processes (each in a process group of its own, so stress-ng's workers go too). */
function stopLoad(processes: ChildProcess[]): void {
  for (const child of processes) {
    if (child.pid === undefined || child.exitCode !== null) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Run the suite once, its report and traces in a folder of their own.
 * @returns the run's counts, or null when Playwright wrote no results (it failed before running any test)
 */
function runSuite(run: number, args: string[]): RunCounts | null {
  const runDir = path.join(OUT_DIR, `run-${run}`);
  const resultsFile = path.join(runDir, "results.json");
  spawnSync(
    path.join("node_modules", ".bin", "playwright"),
    ["test", "--reporter=list,json,html", `--output=${path.join(runDir, "test-results")}`, ...args],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        PLAYWRIGHT_JSON_OUTPUT_FILE: resultsFile,
        PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(runDir, "report"),
        PLAYWRIGHT_HTML_OPEN: "never",
      },
    },
  );
  if (!existsSync(resultsFile)) return null;
  const { stats } = JSON.parse(readFileSync(resultsFile, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, flaky: stats.flaky, skipped: stats.skipped };
}

function main(args: string[]): number {
  const load = startLoad();
  const stop = () => stopLoad(load.processes);
  process.on("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stop();
      process.exit(1);
    });
  }
  const part = args.length > 0 ? ` (playwright test ${args.join(" ")})` : "";
  console.log(`Load: ${load.name}, for ${RUNS} runs of the browser suite${part} (reports in ${OUT_DIR}/run-N/report).`);

  const lines: string[] = [];
  let allPassed = true;
  for (let run = 1; run <= RUNS; run += 1) {
    const started = Date.now();
    const counts = runSuite(run, args);
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    if (!counts || counts.failed > 0 || counts.passed === 0) allPassed = false;
    lines.push(
      counts
        ? `run ${run}: ${counts.passed} passed, ${counts.failed} failed${counts.flaky ? ` (${counts.flaky} flaky)` : ""}, ${counts.skipped} skipped, ${minutes} min`
        : `run ${run}: no results (Playwright stopped before running the tests), ${minutes} min`,
    );
    console.log(lines[lines.length - 1]);
  }
  stop();

  console.log(`\nThe browser suite under ${load.name}:`);
  for (const line of lines) console.log(line);
  console.log(
    allPassed ? `All ${RUNS} runs passed.` : `Not every run passed: see ${OUT_DIR}/run-N/report (npx playwright show-report <folder>).`,
  );
  return allPassed ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
