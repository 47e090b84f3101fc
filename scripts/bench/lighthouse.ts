/** The bench's Lighthouse runs: each in a fresh headless Chromium, one at a time, and their medians. */
import { writeFile } from "node:fs/promises";
import * as chromeLauncher from "chrome-launcher";
import type { Result } from "lighthouse";
import { CHROMIUM_ARGS, findChromium } from "../lib/chromium";
import { tasksAfterFcp, tasksBeforeLcp, type TasksAfterFcp, type TasksBeforeLcp, type TraceEvent } from "./trace";

/**
 * Lighthouse and its desktop config, loaded with a native `import()`.
 * A static import would make tsx turn Lighthouse's ES modules into CommonJS with
 * esbuild's keepNames, whose `__name(...)` wrappers end up in the functions
 * Lighthouse serialises into the page, which then fail with "__name is not defined".
 */
async function loadLighthouse() {
  const [{ default: lighthouse }, { default: desktopConfig }] = await Promise.all([
    import("lighthouse"),
    import("lighthouse/core/config/desktop-config.js"),
  ]);
  return { lighthouse, desktopConfig };
}

/** "mobile" is Lighthouse's default config (Moto G power emulation, simulated slow 4G, 4× CPU); "desktop" its desktop config. */
export type FormFactor = "mobile" | "desktop";

/** The Lighthouse categories the bench holds to targets (targets.ts), by their Lighthouse ids. */
export const CATEGORY_IDS = ["performance", "accessibility", "best-practices", "seo"] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

/** The figures one run (or the median of several) yields. Scores are 0–100, times in ms, bytes raw. */
export interface LighthouseFigures {
  scores: Record<CategoryId, number>;
  /**
   * SEO score without the "is-crawlable" audit (0–100). /success/ and 404 are noindex by
   * design (no search result should land a visitor on a confirmation or an error; product rule 3),
   * which that audit always fails; every other SEO audit still counts.
   */
  seoIgnoringNoindex: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  totalTransferBytes: number;
}

/** What one run found beyond the figures: enough to say why a figure misses. */
export interface RunDiagnostics {
  /** The LCP element as Lighthouse describes it (selector, HTML snippet and text). */
  lcpElement: string | null;
  /** LCP split into TTFB, load delay, load time and render delay (simulated ms, as the LCP figure). */
  lcpPhasesMs: Record<string, number>;
  /** Elements that shifted, with their share of CLS. */
  layoutShifts: { element: string; score: number }[];
  /** Audits that lost points in a category, with their score and display value. */
  failingAudits: { category: CategoryId; id: string; title: string; score: number | null; displayValue?: string }[];
  /** Scripts the page requested, as Lighthouse saw them on the wire. */
  scripts: { url: string; transferBytes: number; resourceBytes: number }[];
  /** Main-thread time by script (bootup-time audit), ms. */
  scriptBootupMs: { url: string; totalMs: number; scriptingMs: number }[];
  /** The main-thread tasks ahead of the LCP paint in the run's trace (see trace.ts); null without an LCP. */
  beforeLcp: TasksBeforeLcp | null;
  /** The main-thread tasks after the first contentful paint, longest first (what TBT is made of); null without an FCP. */
  afterFcp: TasksAfterFcp | null;
}

/** One run's figures and diagnostics. */
export interface LighthouseRun {
  figures: LighthouseFigures;
  diagnostics: RunDiagnostics;
}

type Details = { type?: string; items?: Record<string, unknown>[] };

/** Pulls the figures out of a Lighthouse result; a missing score or metric is NaN, so it can never pass a target. */
function figuresOf(lhr: Result): LighthouseFigures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(
    CATEGORY_IDS.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, typeof score === "number" ? Math.round(score * 100) : Number.NaN];
    }),
  ) as Record<CategoryId, number>;
  const seoRefs = (lhr.categories.seo?.auditRefs ?? []).filter((ref) => ref.id !== "is-crawlable" && ref.weight > 0);
  const seoWeight = seoRefs.reduce((sum, ref) => sum + ref.weight, 0);
  const seoIgnoringNoindex = seoWeight
    ? Math.round((100 * seoRefs.reduce((sum, ref) => sum + ref.weight * (lhr.audits[ref.id]?.score ?? 0), 0)) / seoWeight)
    : Number.NaN;
  return {
    scores,
    seoIgnoringNoindex,
    lcpMs: numeric("largest-contentful-paint"),
    fcpMs: numeric("first-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    totalTransferBytes: numeric("total-byte-weight"),
  };
}

/** Pulls what explains the figures out of a Lighthouse result. */
function diagnosticsOf(lhr: Result, traceEvents: TraceEvent[]): RunDiagnostics {
  const items = (id: string): Record<string, unknown>[] => {
    const details = lhr.audits[id]?.details as Details | undefined;
    if (!details) return [];
    if (details.type === "list") return (details.items ?? []).flatMap((item) => (item as Details).items ?? []);
    return details.items ?? [];
  };
  type NodeDetails = { type?: string; selector?: string; snippet?: string; nodeLabel?: string };
  const describe = (node: NodeDetails) => `${node.snippet ?? ""} "${(node.nodeLabel ?? "").replace(/\s+/g, " ").slice(0, 60)}"`;
  const lcpItems = items("largest-contentful-paint-element");
  const lcpNode = lcpItems.find((item) => (item.node as NodeDetails | undefined)?.type === "node")?.node as NodeDetails | undefined;
  const lcpPhasesMs = Object.fromEntries(
    lcpItems.filter((item) => typeof item.phase === "string").map((item) => [String(item.phase), Math.round(Number(item.timing))]),
  );
  const layoutShifts = items("layout-shifts").map((item) => ({
    element: describe((item.node ?? {}) as NodeDetails),
    score: Number(item.score),
  }));
  const failingAudits = CATEGORY_IDS.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => ({ category, id: audit.id, title: audit.title, score: audit.score, displayValue: audit.displayValue })),
  );
  const scripts = items("network-requests")
    .filter((item) => item.resourceType === "Script")
    .map((item) => ({ url: String(item.url), transferBytes: Number(item.transferSize), resourceBytes: Number(item.resourceSize) }));
  const scriptBootupMs = items("bootup-time").map((item) => ({
    url: String(item.url),
    totalMs: Math.round(Number(item.total)),
    scriptingMs: Math.round(Number(item.scripting)),
  }));
  return {
    lcpElement: lcpNode ? describe(lcpNode) : null,
    lcpPhasesMs,
    layoutShifts,
    failingAudits,
    scripts,
    scriptBootupMs,
    beforeLcp: tasksBeforeLcp(traceEvents),
    afterFcp: tasksAfterFcp(traceEvents),
  };
}

/**
 * One Lighthouse run of `url` in a freshly launched Chromium, killed afterwards (no cache or service
 * worker carried over). `saveReportTo` gets the JSON result, `saveTraceTo` the trace, when given.
 */
export async function runLighthouse(
  url: string,
  formFactor: FormFactor,
  saveReportTo?: string,
  saveTraceTo?: string,
): Promise<LighthouseRun> {
  const { lighthouse, desktopConfig } = await loadLighthouse();
  const chrome = await chromeLauncher.launch({ chromePath: findChromium(), chromeFlags: CHROMIUM_ARGS, logLevel: "silent" });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...CATEGORY_IDS] },
      formFactor === "desktop" ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    const { lhr, artifacts } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (saveReportTo) await writeFile(saveReportTo, JSON.stringify(lhr));
    if (saveTraceTo) await writeFile(saveTraceTo, JSON.stringify(artifacts.Trace));
    return { figures: figuresOf(lhr), diagnostics: diagnosticsOf(lhr, artifacts.Trace?.traceEvents ?? []) };
  } finally {
    chrome.kill();
  }
}

/** The median of an odd or even list (mean of the middle two); NaN for an empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Figure by figure median over several runs (each figure on its own, as Lighthouse's own guidance for variability suggests). */
export function medianFigures(runs: LighthouseFigures[]): LighthouseFigures {
  const of = (pick: (figures: LighthouseFigures) => number) => median(runs.map(pick));
  return {
    scores: Object.fromEntries(CATEGORY_IDS.map((id) => [id, of((f) => f.scores[id])])) as Record<CategoryId, number>,
    seoIgnoringNoindex: of((f) => f.seoIgnoringNoindex),
    lcpMs: of((f) => f.lcpMs),
    fcpMs: of((f) => f.fcpMs),
    tbtMs: of((f) => f.tbtMs),
    cls: of((f) => f.cls),
    totalTransferBytes: of((f) => f.totalTransferBytes),
  };
}

/** Figure by figure worst over several runs: the lowest score, the longest time, the largest shift and transfer. */
export function worstFigures(runs: LighthouseFigures[]): LighthouseFigures {
  const lowest = (pick: (figures: LighthouseFigures) => number) => Math.min(...runs.map(pick));
  const highest = (pick: (figures: LighthouseFigures) => number) => Math.max(...runs.map(pick));
  return {
    scores: Object.fromEntries(CATEGORY_IDS.map((id) => [id, lowest((f) => f.scores[id])])) as Record<CategoryId, number>,
    seoIgnoringNoindex: lowest((f) => f.seoIgnoringNoindex),
    lcpMs: highest((f) => f.lcpMs),
    fcpMs: highest((f) => f.fcpMs),
    tbtMs: highest((f) => f.tbtMs),
    cls: highest((f) => f.cls),
    totalTransferBytes: highest((f) => f.totalTransferBytes),
  };
}
