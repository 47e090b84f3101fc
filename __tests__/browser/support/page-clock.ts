/**
 * The page's own clock in the test's hands (Playwright's clock), for what the page does on its timers: the signup's
 * attempt timeouts and its backoff (product rule 9). The clock is installed before the page loads, which then runs
 * in real time; once the page is ready the test pauses it and moves it on itself, so a 5 s timeout takes no 5 s.
 * The page's requests to one endpoint are recorded with their times in the page's clock, so that "not before its
 * backoff, and then at once" is checked exactly rather than against a stand-in's wall clock.
 */
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** One request the page sent to the watched endpoint; times are the page's clock (ms since the epoch). */
export interface PageRequest {
  sentAt: number;
  /** When the page knew how it went: the answer's body read, or the request failed; null while neither. */
  settledAt: number | null;
  /** The answer's HTTP status, or the error fetch rejected with by its name: "AbortError" when the page gave up. */
  outcome: string | null;
}

/** The page's clock, installed and not yet paused, and what the page sent to the watched endpoint. */
export interface PageClock {
  /**
   * Stop the page's time where it is now (or later): from here on it moves only by `runFor`. Call once the page is
   * ready (hydrated, the form filled in): loading needs its timers to run by themselves.
   */
  pause: () => Promise<void>;
  /** Move the page's time on by `ms`, firing every timer that falls due on the way, in order. */
  runFor: (ms: number) => Promise<void>;
  /** The requests the page sent to the watched endpoint so far, oldest first. */
  requests: () => Promise<PageRequest[]>;
  /**
   * Wait until the page has sent `count` requests and knows how each went (an answer needs real time to arrive),
   * and return them.
   */
  settled: (count: number) => Promise<PageRequest[]>;
  /**
   * Expect the page's next request to go out exactly `delayMs` after its last one settled: nothing 1 ms earlier,
   * the request at that moment. Moves the page's time on by `delayMs`.
   * @returns the requests, the new one last
   */
  expectNextRequestAfter: (delayMs: number) => Promise<PageRequest[]>;
  /**
   * Expect the page to give up its last request (still unanswered) exactly `timeoutMs` after sending it: still open
   * 1 ms earlier, abandoned then. Moves the page's time on by `timeoutMs`.
   */
  expectGivenUpAfter: (timeoutMs: number) => Promise<PageRequest[]>;
}

/**
 * How far ahead of the page's time `pause` stops its clock (ms): more than a round trip to the page, so never in the
 * page's past, and far less than any timeout of the page's own loading.
 */
const PAUSE_AHEAD_MS = 1_000;

/** The window property the recorder keeps its requests in. */
const LOG = "__pageRequests";

/**
 * Install Playwright's clock on `page`, starting at the real time, and record the page's requests whose URL starts
 * with `endpoint`. Call before the page loads.
 */
export async function installPageClock(page: Page, endpoint: string): Promise<PageClock> {
  const startedAt = Date.now();
  await page.clock.install({ time: startedAt });
  // fetch, wrapped: the app's every request goes through it (src/api/client.ts). The wrapper reads the page's clock
  // (Date is Playwright's) when a request starts and when its outcome is known: the failure, or the answer's body
  // read, after which the page sets its retry's timer in the same turn, before the test can move the clock on.
  await page.addInitScript(
    ({ prefix, log }) => {
      const sent: { sentAt: number; settledAt: number | null; outcome: string | null }[] = [];
      Object.assign(window, { [log]: sent });
      const original = window.fetch;
      window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
        const url = input instanceof Request ? input.url : String(input);
        const answer = original.call(this, input, init);
        if (!url.startsWith(prefix)) return answer;
        const request = { sentAt: Date.now(), settledAt: null as number | null, outcome: null as string | null };
        sent.push(request);
        const settle = (outcome: string) => {
          request.settledAt = Date.now();
          request.outcome = outcome;
        };
        return answer.then(
          (response) => {
            const text = response.text.bind(response);
            response.text = () => text().finally(() => settle(String(response.status)));
            return response;
          },
          (error: unknown) => {
            settle(error instanceof Error ? error.name : String(error));
            throw error;
          },
        );
      };
    },
    { prefix: endpoint, log: LOG },
  );

  const requests = () => page.evaluate((log) => (window as unknown as Record<string, PageRequest[]>)[log], LOG);
  const settled = async (count: number) => {
    let seen: PageRequest[] = [];
    await expect
      .poll(async () => (seen = await requests()).map((request) => request.settledAt !== null), {
        message: `whether the page knows how each of its ${count} requests to ${endpoint} went`,
      })
      .toEqual(Array(count).fill(true));
    return seen;
  };
  const runFor = (ms: number) => page.clock.runFor(ms);
  /** Move the paused clock on to `at` (the page's time, ms since the epoch). */
  const runTo = async (at: number) => runFor(at - (await page.evaluate(() => Date.now())));

  return {
    // Just ahead of the page's time, never far: pausing jumps the clock there and fires every timer due on the way,
    // and a jump past a script's load timeout (webpack's 15 s) failed a chunk still loading, whose retry then waited
    // on the paused clock for ever: the signup never went out.
    pause: async () => page.clock.pauseAt((await page.evaluate(() => Date.now())) + PAUSE_AHEAD_MS),
    runFor,
    requests,
    settled,
    expectNextRequestAfter: async (delayMs) => {
      const before = await settled((await requests()).length);
      expect(before.length, "the requests before the wait").toBeGreaterThan(0);
      const due = (before[before.length - 1].settledAt ?? Number.NaN) + delayMs;
      await runTo(due - 1);
      expect(await requests(), `the requests ${delayMs - 1} ms after the last one settled`).toHaveLength(before.length);
      await runTo(due);
      const after = await requests();
      expect(after, `the requests ${delayMs} ms after the last one settled`).toHaveLength(before.length + 1);
      expect(after[before.length].sentAt, "when the next request went out").toBe(due);
      return after;
    },
    expectGivenUpAfter: async (timeoutMs) => {
      const before = await requests();
      const last = before[before.length - 1];
      await runTo(last.sentAt + timeoutMs - 1);
      expect((await requests())[before.length - 1], `the last request ${timeoutMs - 1} ms after it went out`).toEqual(last);
      await runTo(last.sentAt + timeoutMs);
      const after = await requests();
      expect(after[before.length - 1], `the last request ${timeoutMs} ms after it went out`).toEqual({
        sentAt: last.sentAt,
        settledAt: last.sentAt + timeoutMs,
        outcome: "AbortError",
      });
      return after;
    },
  };
}
