/**
 * The bench's hydration profile: the main thread's work after the first paint, on the bench's phone, put
 * down to packages and files through V8's sampling profiler and the source maps. Durations depend on the
 * machine's load; compare the split by source and the order of tasks between builds.
 */
import { writeFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { openAndSettle, waitForHydration } from "../lib/hydration";
import { MOBILE_CPU_SLOWDOWN, MOBILE_VIEWPORT } from "./mobile";
import { sourceMapLookup } from "./sourcemap";
import { tasksAfterFcp, type TasksAfterFcp, type TraceEvent } from "./trace";

/** Trace categories: tasks and their kinds of work, page-load milestones, and V8's sampling profiler. */
const TRACE_CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
  "loading",
  "blink.user_timing",
];

/**
 * The profile stops once no request has been open for this long (ms): longer than the default
 * settle time, since hydration is only checked afterwards and a slow hydration must fit in it.
 */
const PROFILE_QUIET_MS = 4_000;
/** How long the check after the profile gives the page to show it has hydrated (ms; Playwright reads 0 as "forever"). */
const HYDRATION_CHECK_MS = 1_000;

/**
 * Loads `pagePath` once in a fresh context with the phone's CPU slowdown, traced with the CPU
 * profiler, and lists the main-thread tasks after the first contentful paint by cost.
 * @param publicDir its source maps name the code behind each sample
 * @param saveTraceTo opens in DevTools' Performance panel
 * @returns null when the trace holds no first contentful paint
 * @throws when the page does not hydrate in time
 */
export async function profileHydration(
  browser: Browser,
  origin: string,
  pagePath: string,
  publicDir: string,
  saveTraceTo?: string,
): Promise<TasksAfterFcp | null> {
  const context = await browser.newContext({ viewport: MOBILE_VIEWPORT, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: MOBILE_CPU_SLOWDOWN });
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    let trace: Buffer;
    try {
      await openAndSettle(page, `${origin}${pagePath}`, { pollHydration: false, quietMs: PROFILE_QUIET_MS });
    } finally {
      trace = await browser.stopTracing();
    }
    // Checked after the trace has stopped, so that Playwright's own script in the page is not in it.
    await waitForHydration(page, HYDRATION_CHECK_MS).catch(() => {
      throw new Error(`${pagePath} had not hydrated ${PROFILE_QUIET_MS} ms after its last request: the profile would miss the hydration.`);
    });
    if (saveTraceTo) await writeFile(saveTraceTo, trace);
    const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
    return tasksAfterFcp(traceEvents, sourceMapLookup(publicDir));
  } finally {
    await context.close();
  }
}
