/**
 * What the page's main thread did before the largest contentful paint, read from the
 * trace Lighthouse records during a run (Chromium's own trace events, unthrottled).
 *
 * Why this matters for the mobile score: Lighthouse simulates a slow phone from that
 * trace (its "Lantern" model). Every script that finished loading and was evaluated
 * before the observed LCP paint, and every main-thread task ahead of it that did
 * layout, is counted into the simulated LCP, at 4× CPU slowdown and on a slow 4G
 * link. A page whose scripts run before its first paint is scored as if the paint had
 * waited for them, even when the paint could have happened without them.
 */

/** One Chromium trace event (the subset read here); times in µs. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
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
  FunctionCall: (e) => `FunctionCall ${fileName(e.args?.data?.url)}`,
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

/** Whether an event is Chromium's top-level task wrapper. */
function isTask(event: TraceEvent): boolean {
  return event.ph === "X" && (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask");
}

/**
 * The main-thread tasks ahead of the largest contentful paint of the main frame.
 * @param events a Lighthouse run's `artifacts.Trace.traceEvents`
 * @returns null when the trace has no LCP candidate or no navigation start (the page never painted)
 */
export function tasksBeforeLcp(events: TraceEvent[]): TasksBeforeLcp | null {
  const candidates = events.filter(
    (e) => e.name === "largestContentfulPaint::Candidate" && (e.args?.data?.isOutermostMainFrame ?? e.args?.data?.isMainFrame) === true,
  );
  const lcp = candidates.reduce<TraceEvent | null>((last, e) => (!last || e.ts > last.ts ? e : last), null);
  if (!lcp) return null;
  const navigation = events
    .filter(
      (e) =>
        e.name === "navigationStart" &&
        e.pid === lcp.pid &&
        e.ts <= lcp.ts &&
        e.args?.data?.isLoadingMainFrame === true &&
        typeof e.args.data.documentLoaderURL === "string" &&
        e.args.data.documentLoaderURL.startsWith("http"),
    )
    .reduce<TraceEvent | null>((last, e) => (!last || e.ts > last.ts ? e : last), null);
  if (!navigation) return null;
  const mainThread = lcp.tid;
  const onMain = events.filter((e) => e.pid === lcp.pid && e.tid === mainThread && e.ts >= navigation.ts && e.ts < lcp.ts);
  const tasks = onMain.filter(isTask).sort((a, b) => a.ts - b.ts);
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
    const inside = work.filter((e) => e.ts >= task.ts && e.ts < task.ts + dur);
    const longestByKind = new Map<string, number>();
    for (const e of inside) {
      const kind = WORK_KINDS[e.name](e);
      longestByKind.set(kind, Math.max(longestByKind.get(kind) ?? 0, e.dur ?? 0));
    }
    const what = [...longestByKind]
      .sort((a, b) => b[1] - a[1])
      .slice(0, KINDS_SHOWN)
      .map(([kind, us]) => `${kind} ${(us / US_PER_MS).toFixed(1)} ms`)
      .join(", ");
    listed.push({
      startMs: round((task.ts - navigation.ts) / US_PER_MS),
      durationMs: round(dur / US_PER_MS),
      what: what || "(browser internals)",
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
