/**
 * Scenarios A and B of the API bench: LOAD_SIGNUPS signups at LOAD_CONNECTIONS at once, each with its own address and
 * client IP, then every one followed to Klaviyo: the rows D1 stored and the distinct addresses the Klaviyo stand-in
 * took subscriptions for must both equal the signups sent ("a signup the service accepted is never lost").
 * A: Klaviyo answers. B: Klaviyo answers 500 to everything for the first OUTAGE_S seconds, so the first deliveries
 * fail and go back to the queue with the consumer's backoff (5 s doubling); the rows must still all arrive.
 */
import { fmtCount, fmtMs, fmtS, info, type Check, type ScenarioReport } from "./report";
import { benchAddress, runLoad, signupRequest, type LoadFigures } from "./load";
import type { BenchService } from "./service";
import {
  DELIVERY_POLL_MS,
  DELIVERY_WAIT_MS,
  LOAD_CONNECTIONS,
  LOAD_SIGNUPS,
  OUTAGE_DELIVERY_WAIT_MS,
  OUTAGE_S,
  REQUEST_TIMEOUT_S,
} from "./targets";

/** Pause between reads of D1 once the stand-in has every address, while the consumer records the last deliveries (ms). */
const D1_POLL_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a delivery run went. */
interface Followed {
  /** Rows in D1. */
  rows: number;
  /** Rows by delivery_state. */
  states: Record<string, number>;
  /** Distinct sent addresses the stand-in took a subscription for. */
  delivered: number;
  /** When the last of them arrived (ms since the epoch), or null when not all did. */
  allDeliveredAt: number | null;
  /** How long the bench waited (ms). */
  waitedMs: number;
  /** Subscriptions of a sent address beyond its first (a delivery repeated: harmless, Klaviyo's calls are idempotent). */
  repeats: number;
  /** Requests the stand-in answered with 500 (each one a failed attempt). */
  klaviyo500: number;
  /** Requests the stand-in answered in all. */
  klaviyoRequests: number;
  /** Attempts recorded in D1: total, and the most any row needed. */
  attempts: number;
  maxAttempts: number;
  /** `delivery_retry` lines in the Worker's log. */
  retryLogLines: number;
  /** Answers the stand-in gave that its copy of Klaviyo's description does not allow (should be none). */
  standInProblems: string[];
}

/**
 * Wait until every sent address has reached the stand-in and every row is `delivered`, or until `waitMs` passes.
 * @param sent the addresses that were answered 2xx (lower case)
 */
async function follow(service: BenchService, sent: Set<string>, waitMs: number): Promise<Followed> {
  const started = Date.now();
  const firstSeen = new Map<string, number>();
  let seenUpTo = 0;
  let repeats = 0;
  const readStandIn = () => {
    const subscriptions = service.klaviyo.subscriptions;
    for (; seenUpTo < subscriptions.length; seenUpTo++) {
      const { email, at } = subscriptions[seenUpTo];
      const key = email.toLowerCase();
      if (!sent.has(key)) continue;
      if (firstSeen.has(key)) repeats += 1;
      else firstSeen.set(key, at);
    }
  };
  const readStates = async () => {
    const rows = await service.d1.query<{ state: string; n: number }>(
      "SELECT delivery_state AS state, count(*) AS n FROM signups GROUP BY delivery_state",
    );
    return Object.fromEntries(rows.map(({ state, n }) => [state, n]));
  };
  // The stand-in is watched in this process; D1 is read only once the stand-in has everything (or time is up), and then
  // sparingly: the reader is a second process on the service's database file, and its reads contend with the
  // consumer's writes.
  let states: Record<string, number> = {};
  for (;;) {
    readStandIn();
    const timeUp = Date.now() - started > waitMs;
    if (firstSeen.size === sent.size || timeUp) {
      states = await readStates();
      if ((states.delivered ?? 0) >= sent.size || timeUp) break;
      await sleep(D1_POLL_MS);
    } else await sleep(DELIVERY_POLL_MS);
  }
  const [{ rows, attempts, maxAttempts }] = await service.d1.query<{ rows: number; attempts: number; maxAttempts: number }>(
    "SELECT count(*) AS rows, coalesce(sum(delivery_attempts), 0) AS attempts, coalesce(max(delivery_attempts), 0) AS maxAttempts FROM signups",
  );
  const received = service.klaviyo.received;
  return {
    rows,
    states,
    delivered: firstSeen.size,
    allDeliveredAt: firstSeen.size === sent.size && sent.size > 0 ? Math.max(...firstSeen.values()) : null,
    waitedMs: Date.now() - started,
    repeats,
    klaviyo500: received.filter((request) => request.status === 500).length,
    klaviyoRequests: received.length,
    attempts,
    maxAttempts,
    retryLogLines: service.output().match(/"event":"delivery_retry"/g)?.length ?? 0,
    standInProblems: [...service.klaviyo.problems],
  };
}

/** One line per kind of refused signup: status, count and the start of the answer. */
export function refusalNotes(load: LoadFigures): string[] {
  return load.refusals
    .slice(0, 5)
    .map(({ status, body, count }) => `refused ${count}× ${status}: ${body.replace(/\s+/g, " ") || "(empty body)"}`);
}

/** The table lines of a load run. */
function loadChecks(load: LoadFigures): Check[] {
  const statuses = Object.entries(load.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(", ");
  return [
    info("signups sent", fmtCount(load.sent)),
    info("signups/s", load.perSecond.toFixed(1)),
    info("latency p50", fmtMs(load.p50Ms)),
    info("latency p99", fmtMs(load.p99Ms)),
    info("latency max", fmtMs(load.maxMs)),
    info("answers", statuses || "none"),
    {
      figure: "errors (non-2xx, timeouts, connection)",
      value: `${load.non2xx}, ${load.timeouts}, ${load.connectionErrors}`,
      target: "0, 0, 0",
      pass: load.non2xx === 0 && load.timeouts === 0 && load.connectionErrors === 0,
    },
  ];
}

/** The table lines of the delivery that followed. */
function deliveryChecks(load: LoadFigures, accepted: number, followed: Followed, loadStartedAt: number, loadEndedAt: number): Check[] {
  const checks: Check[] = [
    { figure: "rows in D1", value: fmtCount(followed.rows), target: `= sent (${fmtCount(load.sent)})`, pass: followed.rows === load.sent },
    {
      figure: "addresses delivered to Klaviyo",
      value: fmtCount(followed.delivered),
      target: `= sent (${fmtCount(load.sent)})`,
      pass: followed.delivered === load.sent,
    },
    info(
      "rows by delivery_state",
      Object.entries(followed.states)
        .map(([state, n]) => `${state} ${n}`)
        .join(", "),
    ),
  ];
  if (accepted !== load.sent) checks.push(info("signups answered 2xx", fmtCount(accepted)));
  checks.push(
    followed.allDeliveredAt === null
      ? info("time to all delivered", `not within ${fmtS(followed.waitedMs)} of waiting`)
      : info(
          "time to all delivered",
          `${fmtS(followed.allDeliveredAt - loadStartedAt)} from the first signup, ${fmtS(followed.allDeliveredAt - loadEndedAt)} after the last`,
        ),
    info("Klaviyo requests (of which 500)", `${fmtCount(followed.klaviyoRequests)} (${fmtCount(followed.klaviyo500)})`),
    info("delivery attempts in D1 (most for one row)", `${fmtCount(followed.attempts)} (${followed.maxAttempts})`),
    info("repeated subscriptions", fmtCount(followed.repeats)),
    {
      figure: "stand-in answers off Klaviyo's description",
      value: fmtCount(followed.standInProblems.length),
      target: "0",
      pass: followed.standInProblems.length === 0,
    },
  );
  return checks;
}

/** One scenario: load, then follow every signup to the stand-in. */
async function loadAndFollow(
  service: BenchService,
  id: "A" | "B",
  outageS: number,
  waitMs: number,
): Promise<{ load: LoadFigures; accepted: number; followed: Followed; startedAt: number; endedAt: number }> {
  const addresses = Array.from({ length: LOAD_SIGNUPS }, (_, n) => benchAddress(id.toLowerCase(), n));
  const plan = addresses.map((email, n) => signupRequest(service.origin, email, n));
  if (outageS > 0) service.klaviyo.failFor({ seconds: outageS });
  const result = await runLoad(service.origin, plan, LOAD_CONNECTIONS);
  const accepted = result.answers.filter((answer) => answer && answer.status >= 200 && answer.status < 300).length;
  // Followed: every address accepted, and every one never answered (a timed-out signup may still have been stored, and
  // must then arrive too); a refused one was not stored and is not waited for (the checks still count it as missing).
  const expected = new Set(
    addresses
      .slice(0, result.figures.sent)
      .filter((_, n) => !result.answers[n] || result.answers[n].status < 300)
      .map((address) => address.toLowerCase()),
  );
  const followed = await follow(service, expected, waitMs);
  return { load: result.figures, accepted, followed, startedAt: result.startedAt, endedAt: result.endedAt };
}

/**
 * A: LOAD_SIGNUPS signups at LOAD_CONNECTIONS at once with Klaviyo answering; rows and deliveries counted.
 * @param service a fresh service (empty D1, fresh stand-in)
 */
export async function scenarioA(service: BenchService): Promise<ScenarioReport> {
  const { load, accepted, followed, startedAt, endedAt } = await loadAndFollow(service, "A", 0, DELIVERY_WAIT_MS);
  return {
    id: "A",
    title: `${fmtCount(LOAD_SIGNUPS)} signups, ${LOAD_CONNECTIONS} at once, Klaviyo answering`,
    checks: [...loadChecks(load), ...deliveryChecks(load, accepted, followed, startedAt, endedAt)],
    notes: [
      `Each signup its own address and CF-Connecting-IP (the rate limit is per IP), Origin the service's own; a request unanswered after ${REQUEST_TIMEOUT_S} s is a timeout.`,
      `Deliveries followed for at most ${fmtS(DELIVERY_WAIT_MS)} (waited ${fmtS(followed.waitedMs)}).`,
      ...refusalNotes(load),
      ...followed.standInProblems.slice(0, 3).map((problem) => `stand-in: ${problem}`),
    ],
    figures: { load, accepted, followed, loadStartedAt: startedAt, loadEndedAt: endedAt },
  };
}

/**
 * B: as A, with the Klaviyo stand-in answering 500 to everything for the first OUTAGE_S seconds of the load.
 * @param service a fresh service (empty D1, fresh stand-in)
 */
export async function scenarioB(service: BenchService): Promise<ScenarioReport> {
  const { load, accepted, followed, startedAt, endedAt } = await loadAndFollow(service, "B", OUTAGE_S, OUTAGE_DELIVERY_WAIT_MS);
  const outageEnd = startedAt + OUTAGE_S * 1000;
  const checks = [...loadChecks(load), ...deliveryChecks(load, accepted, followed, startedAt, endedAt)];
  checks.push(
    {
      figure: "retries seen (failed attempts)",
      value: `${fmtCount(followed.attempts - followed.rows)} in D1, ${fmtCount(followed.retryLogLines)} delivery_retry log lines`,
      target: "> 0",
      pass: followed.attempts - followed.rows > 0 && followed.retryLogLines > 0,
    },
    {
      figure: "nothing lost (rows = delivered = sent)",
      value: `${fmtCount(followed.rows)} = ${fmtCount(followed.delivered)} = ${fmtCount(load.sent)}`,
      target: `within ${fmtS(OUTAGE_DELIVERY_WAIT_MS)}`,
      pass: followed.rows === load.sent && followed.delivered === load.sent,
    },
  );
  if (followed.allDeliveredAt !== null)
    checks.push(info("all delivered after the outage ended", fmtS(followed.allDeliveredAt - outageEnd)));
  const notes = [
    `Outage: the stand-in answered 500 to every request for ${OUTAGE_S} s from the load's start. The consumer retries a failed message after`,
    "5 s doubling (worker/src/delivery/queue.ts), and wrangler dev's local queue (Miniflare's broker) honours retry({ delaySeconds }) with a",
    `timer, so a signup first tried at the outage's start is tried again at 5, 15 and 35 s. Waited at most ${fmtS(OUTAGE_DELIVERY_WAIT_MS)} (waited ${fmtS(followed.waitedMs)}).`,
  ];
  if (followed.allDeliveredAt === null)
    notes.push(
      `Not all delivered within the bound: ${fmtCount(load.sent - followed.delivered)} still pending. The cron sweep (every 5 min, rows overdue by 10 min)`,
      "cannot be fired in wrangler dev for a Worker with static assets; in production it would send them once overdue.",
    );
  notes.push(...refusalNotes(load));
  notes.push(...followed.standInProblems.slice(0, 3).map((problem) => `stand-in: ${problem}`));
  return {
    id: "B",
    title: `${fmtCount(LOAD_SIGNUPS)} signups, ${LOAD_CONNECTIONS} at once, Klaviyo answering 500 for the first ${OUTAGE_S} s`,
    checks,
    notes,
    figures: { load, accepted, followed, loadStartedAt: startedAt, loadEndedAt: endedAt, outageS: OUTAGE_S },
  };
}
