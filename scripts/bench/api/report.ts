/**
 * The API bench's verdict: one table per scenario (figure, value, target, ✔/✘), the notes behind it, and the whole
 * result as JSON (artifacts/bench-api.json). The same table layout as the site bench's (scripts/bench/report.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** One line of a table: a figure, its target, and whether it meets it (`null` = no target, shown for context). */
export interface Check {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

/** What one scenario measured. */
export interface ScenarioReport {
  /** "A", "B", "C", "D". */
  id: string;
  title: string;
  /** Set when the scenario did not run, with the reason (e.g. the routes it needs answer 404). */
  skipped?: string;
  checks: Check[];
  /** Lines printed under the table: what lies behind the figures. */
  notes: string[];
  /** The raw figures, for the JSON file. */
  figures: Record<string, unknown>;
}

const none = "—";

/** A check without a target. */
export function info(figure: string, value: string): Check {
  return { figure, value, target: none, pass: null };
}

/** ms, rounded to what the machine's noise allows. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return none;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** s with one decimal. */
export function fmtS(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : none;
}

/** A count with thousands separators. */
export function fmtCount(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString("en-US") : none;
}

const mark = (pass: boolean | null) => (pass === null ? " " : pass ? "✔ PASS" : "✘ FAIL");

/** Prints one scenario's table and notes. */
export function printScenario(report: ScenarioReport): void {
  console.log(`\n${report.id}. ${report.title}`);
  if (report.skipped) {
    console.log(`   skipped: ${report.skipped}`);
    for (const note of report.notes) console.log(`   ${note}`);
    return;
  }
  const header = ["figure", "value", "target"];
  const cellsOf = (c: Check) => [c.figure, c.value, c.target];
  const widths = header.map((title, i) => Math.max(title.length, ...report.checks.map((c) => cellsOf(c)[i].length)));
  const line = (cells: string[], status: string) => `   ${cells.map((cell, i) => cell.padEnd(widths[i])).join("  ")}  ${status}`.trimEnd();
  console.log(line(header, ""));
  console.log(`   ${"-".repeat(widths.reduce((a, b) => a + b + 2, 6))}`);
  for (const check of report.checks) console.log(line(cellsOf(check), mark(check.pass)));
  for (const note of report.notes) console.log(`   ${note}`);
}

/** Prints the closing summary: checks missed, skipped scenarios, the machine's load. */
export function printSummary(reports: ScenarioReport[]): void {
  const held = reports.flatMap((report) => report.checks.filter((check) => check.pass !== null));
  const missed = held.filter((check) => check.pass === false);
  const skipped = reports.filter((report) => report.skipped);
  console.log(`\n${missed.length === 0 ? `All ${held.length} checks passed.` : `${missed.length} of ${held.length} checks failed (✘).`}`);
  if (skipped.length > 0) console.log(`Skipped: ${skipped.map((report) => `${report.id} (${report.skipped})`).join("; ")}`);
  console.log(
    `Machine load (1, 5, 15 min) at the end: ${machineLoad().join(", ")} (${os.cpus().length} cores, shared; latencies on a busy machine are inflated).`,
  );
}

/** The machine's load averages (1, 5, 15 min). */
export function machineLoad(): number[] {
  return os.loadavg().map((load) => Math.round(load * 100) / 100);
}

/** Writes every scenario's checks and figures to `file` (creating its folder). */
export async function writeBenchApiJson(file: string, reports: ScenarioReport[], targets: Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const document = {
    measuredAt: new Date().toISOString(),
    machineLoad: machineLoad(),
    cores: os.cpus().length,
    targets,
    scenarios: reports,
  };
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
}
