/**
 * The main thread's work before the LCP and after the FCP, from a Chromium trace (Lighthouse's, or the
 * hydration profile's). It matters because Lighthouse's simulated LCP counts every script evaluated and
 * every layout task before the observed paint, as if the paint had waited for them.
 */

/** One Chromium trace event (the subset read here); times in µs. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; frame?: string; data?: Record<string, unknown> };
}

/** One top-level task of the renderer's main thread. */
export interface MainThreadTask {
  /** Start, ms after navigation start. */
  startMs: number;
  durationMs: number;
  /** Its longest kinds of work, e.g. "EvaluateScript app-1234.js 20.1 ms, Layout 2.0 ms". */
  what: string;
}

/** The main thread ahead of the LCP paint in one run. */
export interface TasksBeforeLcp {
  /** When the LCP candidate was painted, ms after navigation start (observed, not simulated). */
  lcpPaintMs: number;
  /** Tasks of at least TASK_LISTED_MIN_MS that started before the LCP paint, in order. */
  tasks: MainThreadTask[];
  /** Shorter tasks before the paint, only counted. */
  shortTasks: number;
  /** Main-thread time of every task before the paint (ms). */
  busyMs: number;
  /** Scripts (file names) evaluated before the paint: Lighthouse's simulation counts their download and run into LCP. */
  scriptsEvaluated: string[];
}

/** Tasks shorter than this are counted, not listed (ms): they are the browser's own housekeeping. */
export const TASK_LISTED_MIN_MS = 1;
/** Kinds of work shown per task (the longest ones). */
const KINDS_SHOWN = 3;
const US_PER_MS = 1_000;

/** Trace event names that say what a task did, and how to name them. */
const WORK_KINDS: Record<string, (event: TraceEvent) => string> = {
  EvaluateScript: (e) => `EvaluateScript ${fileName(e.args?.data?.url)}`,
  "v8.compile": (e) => `compile ${fileName(e.args?.data?.url)}`,
  FunctionCall: (e) =>
    `FunctionCall ${typeof e.args?.data?.functionName === "string" && e.args.data.functionName ? `${e.args.data.functionName}@` : ""}${fileName(e.args?.data?.url)}`,
  TimerFire: () => "TimerFire (setTimeout)",
  FireAnimationFrame: () => "requestAnimationFrame",
  ParseHTML: () => "ParseHTML",
  ParseAuthorStyleSheet: () => "ParseAuthorStyleSheet",
  UpdateLayoutTree: () => "style recalc",
  Layout: () => "Layout",
  PrePaint: () => "PrePaint",
  Paint: () => "Paint",
  XHRReadyStateChange: () => "XHR",
  EventDispatch: (e) => `event ${typeof e.args?.data?.type === "string" ? e.args.data.type : ""}`,
  "PerformanceObserver callback": () => "PerformanceObserver callback",
};

/** The last path segment of a URL; "(page)" for the HTML document itself (its inline scripts). */
function fileName(url: unknown): string {
  if (typeof url !== "string" || url === "") return "(inline)";
  try {
    return new URL(url).pathname.split("/").filter(Boolean).pop() ?? "(page)";
  } catch {
    return url;
  }
}

/** The longest kinds of work inside a task, e.g. "EvaluateScript app-1234.js 20.1 ms, Layout 2.0 ms". */
function describeWork(work: TraceEvent[], task: TraceEvent): string {
  const end = task.ts + (task.dur ?? 0);
  const longestByKind = new Map<string, number>();
  for (const e of work) {
    if (e.ts < task.ts || e.ts >= end) continue;
    const kind = WORK_KINDS[e.name](e);
    longestByKind.set(kind, Math.max(longestByKind.get(kind) ?? 0, e.dur ?? 0));
  }
  const what = [...longestByKind]
    .sort((a, b) => b[1] - a[1])
    .slice(0, KINDS_SHOWN)
    .map(([kind, us]) => `${kind} ${(us / US_PER_MS).toFixed(1)} ms`)
    .join(", ");
  return what || "(browser internals)";
}

/** The last navigation of the main frame to an http(s) page in process `pid`, at or before `beforeTs`. */
function mainFrameNavigation(events: TraceEvent[], pid: number, beforeTs: number): TraceEvent | null {
  return events
    .filter(
      (e) =>
        e.name === "navigationStart" &&
        e.pid === pid &&
        e.ts <= beforeTs &&
        e.args?.data?.isLoadingMainFrame === true &&
        typeof e.args.data.documentLoaderURL === "string" &&
        e.args.data.documentLoaderURL.startsWith("http"),
    )
    .reduce<TraceEvent | null>((last, e) => (!last || e.ts > last.ts ? e : last), null);
}

/** Whether an event is Chromium's task wrapper (recent versions write both names, one inside the other). */
function isTask(event: TraceEvent): boolean {
  return event.ph === "X" && (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask");
}

/** The top-level tasks among `events`, in order: a task wrapper inside another one is the same task, not a second. */
function topLevelTasks(events: TraceEvent[]): TraceEvent[] {
  const tasks: TraceEvent[] = [];
  let end = -Infinity;
  for (const task of events.filter(isTask).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    if (task.ts < end) continue;
    tasks.push(task);
    end = task.ts + (task.dur ?? 0);
  }
  return tasks;
}

/**
 * The main-thread tasks ahead of the largest contentful paint of the main frame.
 * @param events `artifacts.Trace.traceEvents`
 * @returns null when the trace has no LCP candidate or no navigation start (the page never painted)
 */
export function tasksBeforeLcp(events: TraceEvent[]): TasksBeforeLcp | null {
  const candidates = events.filter(
    (e) => e.name === "largestContentfulPaint::Candidate" && (e.args?.data?.isOutermostMainFrame ?? e.args?.data?.isMainFrame) === true,
  );
  const lcp = candidates.reduce<TraceEvent | null>((last, e) => (!last || e.ts > last.ts ? e : last), null);
  if (!lcp) return null;
  const navigation = mainFrameNavigation(events, lcp.pid, lcp.ts);
  if (!navigation) return null;
  const mainThread = lcp.tid;
  const onMain = events.filter((e) => e.pid === lcp.pid && e.tid === mainThread && e.ts >= navigation.ts && e.ts < lcp.ts);
  const tasks = topLevelTasks(onMain);
  const work = onMain.filter((e) => e.ph === "X" && WORK_KINDS[e.name]);
  const listed: MainThreadTask[] = [];
  let shortTasks = 0;
  let busyUs = 0;
  for (const task of tasks) {
    const dur = task.dur ?? 0;
    busyUs += dur;
    if (dur < TASK_LISTED_MIN_MS * US_PER_MS) {
      shortTasks++;
      continue;
    }
    listed.push({
      startMs: round((task.ts - navigation.ts) / US_PER_MS),
      durationMs: round(dur / US_PER_MS),
      what: describeWork(work, task),
    });
  }
  const scriptsEvaluated = [
    ...new Set(onMain.filter((e) => e.name === "EvaluateScript" && e.args?.data?.url).map((e) => fileName(e.args?.data?.url))),
  ];
  return {
    lcpPaintMs: round((lcp.ts - navigation.ts) / US_PER_MS),
    tasks: listed,
    shortTasks,
    busyMs: round(busyUs / US_PER_MS),
    scriptsEvaluated,
  };
}

/** One decimal place: trace times are µs, a tenth of a millisecond is plenty. */
function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** A few lines for the bench report. */
export function describeTasksBeforeLcp(found: TasksBeforeLcp | null, indent = "      "): string[] {
  if (!found) return [`${indent}(no LCP in the trace)`];
  const lines = [
    `${indent}LCP painted at ${found.lcpPaintMs} ms (observed); before it ${found.tasks.length} task(s) ≥ ${TASK_LISTED_MIN_MS} ms ` +
      `+ ${found.shortTasks} shorter, ${found.busyMs} ms busy; scripts evaluated: ${found.scriptsEvaluated.join(", ") || "none"}`,
  ];
  for (const task of found.tasks) lines.push(`${indent}  @${task.startMs} ms  ${task.durationMs} ms  ${task.what}`);
  return lines;
}

/** One source (package, or file of ours) and the main-thread time spent in its code (self time, from the CPU profile). */
export interface SourceTime {
  source: string;
  selfMs: number;
}

/** One top-level main-thread task after the first contentful paint. */
export interface TaskAfterFcp {
  /** Start, ms after navigation start. */
  startMs: number;
  durationMs: number;
  /** Its longest kinds of work, with the scripts and functions it evaluated or called (trace events). */
  what: string;
  /** Where its time went, by source, most first; empty without a CPU profile in the trace. */
  sources: SourceTime[];
  /** Its functions with the most self time (original names from the source maps where they have them). */
  functions: SourceTime[];
}

/** The main thread after the first contentful paint of one page load. */
export interface TasksAfterFcp {
  /** When the first contentful paint happened, ms after navigation start (observed). */
  fcpMs: number;
  /** Tasks of at least TASK_LISTED_MIN_MS that started after the paint, longest first. */
  tasks: TaskAfterFcp[];
  /** Shorter tasks after the paint, only counted. */
  shortTasks: number;
  /** Main-thread time of every task after the paint (ms). */
  busyMs: number;
  /** Σ (duration − 50 ms) over tasks longer than 50 ms: blocking time as Lighthouse's TBT counts it (ms; observed, not simulated). */
  blockingMs: number;
  /** Every task's time by source, most first (empty without a CPU profile). */
  bySource: SourceTime[];
}

/** A task blocks input for the part of it beyond this (ms): the long-task threshold TBT is built on. */
export const LONG_TASK_MS = 50;
/** Sources and functions shown per task. */
const SOURCES_SHOWN = 4;

/** Maps a script position of a CPU-profile frame to its source (sourcemap.ts); null when the script has no map. */
export type PositionLookup = (url: string, line: number, column: number) => { source: string; name: string | null } | null;

/** One sample of V8's CPU profile: when, how long until the next sample, and the frame it was in. */
interface Sample {
  ts: number;
  durUs: number;
  source: string;
  name: string;
}

type ProfileNode = {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};

/**
 * The samples of the CPU profile Chromium wrote into the trace for thread `tid` of process `pid`
 * (`Profile` and `ProfileChunk` events, category disabled-by-default-v8.cpu_profiler), each put down to
 * the source of its frame; frames of native code are put down to the nearest script frame that called them.
 */
function profileSamples(events: TraceEvent[], pid: number, tid: number, lookup: PositionLookup): Sample[] {
  const profile = events.find((e) => e.name === "Profile" && e.pid === pid && e.tid === tid);
  if (!profile) return [];
  const nodes = new Map<number, ProfileNode>();
  const ids: number[] = [];
  const deltas: number[] = [];
  for (const chunk of events.filter((e) => e.name === "ProfileChunk" && e.pid === pid && e.id === profile.id)) {
    const data = chunk.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    ids.push(...(data?.cpuProfile?.samples ?? []));
    deltas.push(...(data?.timeDeltas ?? []));
  }
  const attribution = new Map<number, { source: string; name: string }>();
  const attribute = (id: number): { source: string; name: string } => {
    const known = attribution.get(id);
    if (known) return known;
    const node = nodes.get(id);
    const frame = node?.callFrame;
    let found: { source: string; name: string };
    if (!node || !frame) found = { source: "(unknown)", name: "(unknown)" };
    else if (frame.url) {
      const original = lookup(frame.url, frame.lineNumber, frame.columnNumber);
      found = { source: original?.source ?? fileName(frame.url), name: original?.name ?? (frame.functionName || "(anonymous)") };
    } else if (frame.functionName.startsWith("(") || node.parent === undefined)
      found = { source: frame.functionName, name: frame.functionName };
    else found = { source: attribute(node.parent).source, name: `${frame.functionName} (native)` };
    attribution.set(id, found);
    return found;
  };
  let ts = Number((profile.args?.data as { startTime?: number } | undefined)?.startTime ?? profile.ts);
  const samples: Sample[] = [];
  ids.forEach((id, i) => {
    ts += deltas[i] ?? 0;
    samples.push({ ts, durUs: Math.max(0, deltas[i + 1] ?? 0), ...attribute(id) });
  });
  return samples;
}

/** Sums sample time by a key, most first, in ms. */
function timeBy(samples: Sample[], key: (sample: Sample) => string): SourceTime[] {
  const totals = new Map<string, number>();
  for (const sample of samples) totals.set(key(sample), (totals.get(key(sample)) ?? 0) + sample.durUs);
  return [...totals]
    .map(([source, us]) => ({ source, selfMs: round(us / US_PER_MS) }))
    .filter((entry) => entry.selfMs > 0 && entry.source !== "(idle)")
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * The main-thread tasks after the first contentful paint of the main frame, longest first: the
 * work the page's scripts do once the visitor can already read it (hydration and what follows).
 * @param lookup maps profile frames to sources; without it (or without a CPU profile in the trace) tasks carry no sources
 * @returns null when the trace has no first contentful paint or no navigation start
 */
export function tasksAfterFcp(events: TraceEvent[], lookup: PositionLookup = () => null): TasksAfterFcp | null {
  const fcp = events
    .filter((e) => e.name === "firstContentfulPaint")
    .reduce<TraceEvent | null>((first, e) => (!first || e.ts < first.ts ? e : first), null);
  if (!fcp) return null;
  const navigation = mainFrameNavigation(events, fcp.pid, fcp.ts);
  if (!navigation) return null;
  // The paint event is written by the compositor; the page's main thread is the one that ran the navigation.
  const { pid, tid } = navigation;
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ts >= fcp.ts);
  const tasks = topLevelTasks(onMain);
  const work = onMain.filter((e) => e.ph === "X" && WORK_KINDS[e.name]);
  const samples = profileSamples(events, pid, tid, lookup).filter((sample) => sample.ts >= fcp.ts);
  const listed: TaskAfterFcp[] = [];
  const inTasks: Sample[] = [];
  let shortTasks = 0;
  let busyUs = 0;
  let blockingUs = 0;
  for (const task of tasks) {
    const dur = task.dur ?? 0;
    busyUs += dur;
    blockingUs += Math.max(0, dur - LONG_TASK_MS * US_PER_MS);
    // A sample stands for the time until the next one, but not beyond the end of its task.
    const inside = samples
      .filter((sample) => sample.ts >= task.ts && sample.ts < task.ts + dur)
      .map((sample) => ({ ...sample, durUs: Math.min(sample.durUs, task.ts + dur - sample.ts) }));
    inTasks.push(...inside);
    if (dur < TASK_LISTED_MIN_MS * US_PER_MS) {
      shortTasks++;
      continue;
    }
    listed.push({
      startMs: round((task.ts - navigation.ts) / US_PER_MS),
      durationMs: round(dur / US_PER_MS),
      what: describeWork(work, task),
      sources: timeBy(inside, (sample) => sample.source).slice(0, SOURCES_SHOWN),
      functions: timeBy(inside, (sample) => `${sample.name} (${sample.source})`).slice(0, SOURCES_SHOWN),
    });
  }
  return {
    fcpMs: round((fcp.ts - navigation.ts) / US_PER_MS),
    tasks: listed.sort((a, b) => b.durationMs - a.durationMs),
    shortTasks,
    busyMs: round(busyUs / US_PER_MS),
    blockingMs: round(blockingUs / US_PER_MS),
    bySource: timeBy(inTasks, (sample) => sample.source),
  };
}

/** Lines for the bench report: the tasks after the paint, longest first, and where their time went. */
export function describeTasksAfterFcp(found: TasksAfterFcp | null, indent = "      ", maxTasks = 10): string[] {
  if (!found) return [`${indent}(no first contentful paint in the trace)`];
  const fmt = (entries: SourceTime[]) => entries.map((entry) => `${entry.source} ${entry.selfMs} ms`).join(", ");
  const lines = [
    `${indent}FCP at ${found.fcpMs} ms; after it ${found.tasks.length} task(s) ≥ ${TASK_LISTED_MIN_MS} ms + ${found.shortTasks} shorter, ` +
      `${found.busyMs} ms busy, ${found.blockingMs} ms blocking (beyond ${LONG_TASK_MS} ms per task)`,
  ];
  for (const task of found.tasks.slice(0, maxTasks)) {
    lines.push(`${indent}  ${String(task.durationMs).padStart(6)} ms @${task.startMs} ms  ${task.what}`);
    if (task.sources.length > 0) lines.push(`${indent}           sources: ${fmt(task.sources)}`);
    if (task.functions.length > 0) lines.push(`${indent}           functions: ${fmt(task.functions)}`);
  }
  if (found.tasks.length > maxTasks) lines.push(`${indent}  … ${found.tasks.length - maxTasks} more`);
  if (found.bySource.length > 0) lines.push(`${indent}  all tasks by source: ${fmt(found.bySource.slice(0, 12))}`);
  return lines;
}
