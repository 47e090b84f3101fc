/**
 * @jest-environment node
 *
 * The bench's reading of a Chromium trace: the main-thread tasks after the first paint, and where
 * their time went according to the CPU profile in the trace; and its reading of Gatsby's step times.
 */
import { buildSteps } from "../../scripts/bench/build";
import { tasksAfterFcp, type TraceEvent } from "../../scripts/bench/trace";

const PID = 7;
const MAIN = 1;
const SAMPLER = 2;
const URL_APP = "http://127.0.0.1:1234/app-1.js";

/** A trace: navigation at 1 s, FCP at 1.1 s, a 80 ms task (wrapped twice, as Chromium writes it) and a 5 ms one after it. */
function trace(): TraceEvent[] {
  const ms = 1_000;
  const nav = 1_000 * ms;
  return [
    {
      name: "navigationStart",
      ph: "R",
      ts: nav,
      pid: PID,
      tid: MAIN,
      args: { data: { isLoadingMainFrame: true, documentLoaderURL: "http://127.0.0.1:1234/" } },
    },
    { name: "firstContentfulPaint", ph: "R", ts: nav + 100 * ms, pid: PID, tid: MAIN },
    { name: "RunTask", ph: "X", ts: nav + 50 * ms, dur: 10 * ms, pid: PID, tid: MAIN },
    { name: "ThreadControllerImpl::RunTask", ph: "X", ts: nav + 200 * ms, dur: 80 * ms, pid: PID, tid: MAIN },
    { name: "RunTask", ph: "X", ts: nav + 200 * ms, dur: 80 * ms, pid: PID, tid: MAIN },
    {
      name: "FunctionCall",
      ph: "X",
      ts: nav + 201 * ms,
      dur: 78 * ms,
      pid: PID,
      tid: MAIN,
      args: { data: { url: URL_APP, functionName: "hydrate" } },
    },
    { name: "RunTask", ph: "X", ts: nav + 300 * ms, dur: 5 * ms, pid: PID, tid: MAIN },
    { name: "Profile", ph: "P", id: "0x1", ts: nav, pid: PID, tid: MAIN, args: { data: { startTime: nav } } },
    {
      name: "ProfileChunk",
      ph: "P",
      id: "0x1",
      ts: nav,
      pid: PID,
      tid: SAMPLER,
      args: {
        data: {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1, columnNumber: -1 } },
              { id: 2, parent: 1, callFrame: { functionName: "a", url: URL_APP, lineNumber: 0, columnNumber: 10 } },
              { id: 3, parent: 2, callFrame: { functionName: "appendChild", url: "", lineNumber: -1, columnNumber: -1 } },
            ],
            // Samples at 210, 230 and 250 ms after navigation, then one at 400 ms that ends the last one.
            samples: [2, 3, 2, 1],
          },
          timeDeltas: [210 * ms, 20 * ms, 20 * ms, 150 * ms],
        },
      },
    },
  ];
}

const lookup = (url: string, line: number, column: number) =>
  url === URL_APP && line === 0 && column === 10 ? { source: "react-dom", name: "renderRoot" } : null;

it("lists the tasks after the first paint once each, longest first, with their blocking time", () => {
  const found = tasksAfterFcp(trace(), lookup);
  expect(found).not.toBeNull();
  expect(found?.fcpMs).toBe(100);
  expect(found?.tasks.map((task) => [task.startMs, task.durationMs])).toEqual([
    [200, 80],
    [300, 5],
  ]);
  expect(found?.busyMs).toBe(85);
  expect(found?.blockingMs).toBe(30);
  expect(found?.tasks[0].what).toContain("FunctionCall hydrate@app-1.js");
});

it("puts profile samples down to the source map's source, and native frames to the script that called them", () => {
  const [longest] = tasksAfterFcp(trace(), lookup)?.tasks ?? [];
  // 210–230 and 250–280 ms (the last sample is cut off at the end of its task) in the script, 230–250 ms in native code.
  expect(longest.sources).toEqual([{ source: "react-dom", selfMs: 70 }]);
  expect(longest.functions).toEqual([
    { source: "renderRoot (react-dom)", selfMs: 50 },
    { source: "appendChild (native) (react-dom)", selfMs: 20 },
  ]);
});

it("finds nothing without a first contentful paint", () => {
  expect(tasksAfterFcp(trace().filter((event) => event.name !== "firstContentfulPaint"))).toBeNull();
});

it("reads Gatsby's step times from its output", () => {
  const output = [
    "success compile gatsby files - 3.610s",
    "info bootstrap finished - 8.081s",
    "success Building HTML renderer - 13.026s",
    "success run queries in workers - 0.095s - 4/4 42.08/s",
  ].join("\n");
  expect(buildSteps(output)).toEqual([
    { step: "compile gatsby files", seconds: 3.61 },
    { step: "Building HTML renderer", seconds: 13.026 },
    { step: "run queries in workers", seconds: 0.095 },
  ]);
});
