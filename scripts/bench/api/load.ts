/**
 * Load generation for the API bench: autocannon with a distinct request per send (each signup its own address and
 * its own `CF-Connecting-IP`, each status lookup its own token), a bounded number of requests, and every answer
 * recorded against the request that caused it, so a scenario can tell exactly which requests were answered how.
 */
import autocannon from "autocannon";
import { REQUEST_TIMEOUT_S } from "./targets";

/** One request to send. */
export interface PlannedRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back for one request. */
export interface Answer {
  status: number;
  body: string;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
}

/** A load run's figures. */
export interface LoadFigures {
  /** Requests sent. */
  sent: number;
  /** Answered 2xx. */
  ok: number;
  /** Answered, but not 2xx. */
  non2xx: number;
  /** Sent and never answered within REQUEST_TIMEOUT_S. */
  timeouts: number;
  /** Connection errors other than timeouts. */
  connectionErrors: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Wall time of the run (s). */
  durationS: number;
  /** Answered requests per second over the run. */
  perSecond: number;
  /** Latency of the answered requests (ms), median and 99th percentile (nearest rank). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The non-2xx answers, grouped by status and body (its first REFUSAL_BODY_CHARS characters), most frequent first. */
  refusals: Array<{ status: number; body: string; count: number }>;
}

/** How much of a refused request's answer the figures keep. */
const REFUSAL_BODY_CHARS = 200;

/** A load run's figures, and each request's answer by its index in the plan (undefined: never answered). */
export interface LoadResult {
  figures: LoadFigures;
  answers: (Answer | undefined)[];
  /** When the run started and ended (ms since the epoch). */
  startedAt: number;
  endedAt: number;
}

/**
 * The value at percentile `p` (0–100) of `values`, nearest rank; NaN for none.
 * @param values any order
 */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Per-connection state autocannon hands back with each answer: which planned request is in flight. */
interface InFlight {
  index?: number;
}

/**
 * Send every planned request once, `connections` at a time, each connection one request after another (no
 * pipelining), and wait for the last answer or timeout.
 * @param origin e.g. http://127.0.0.1:40124
 * @param plan the requests, each sent exactly once
 * @param connections requests in flight at once (≤ plan.length)
 * @throws Error when autocannon cannot start (a bad origin) or connections > plan.length
 */
export async function runLoad(origin: string, plan: PlannedRequest[], connections: number): Promise<LoadResult> {
  const answers: (Answer | undefined)[] = new Array<Answer | undefined>(plan.length);
  const latencies: number[] = [];
  let next = 0;
  const startedAt = Date.now();
  const result = await autocannon({
    url: origin,
    connections,
    // Each connection sends its share of the plan: autocannon divides `amount` among the connections exactly, so every
    // planned request is built (setupRequest) and sent once.
    amount: plan.length,
    timeout: REQUEST_TIMEOUT_S,
    requests: [
      {
        setupRequest: (request, context) => {
          const index = next++;
          (context as InFlight).index = index;
          // More builds than planned requests cannot happen with `amount` = plan.length; should it, the extra build
          // repeats the last request rather than inventing one (and is counted as sent).
          const planned = plan[Math.min(index, plan.length - 1)];
          return { ...request, method: planned.method, path: planned.path, headers: planned.headers, body: planned.body };
        },
        onResponse: (status, body, context, headers) => {
          const index = (context as InFlight).index;
          if (index === undefined || index >= plan.length) return;
          const lower: Record<string, string> = {};
          for (const [name, value] of Object.entries(headers ?? {})) lower[name.toLowerCase()] = String(value);
          answers[index] = { status, body, headers: lower };
        },
      },
    ],
    setupClient: (client) => {
      client.on("response", (_status: number, _bytes: number, responseTimeMs: number) => latencies.push(responseTimeMs));
    },
  });
  const endedAt = Date.now();
  const statuses: Record<string, number> = {};
  let ok = 0;
  for (const answer of answers) {
    if (!answer) continue;
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.status >= 200 && answer.status < 300) ok += 1;
  }
  const answered = answers.filter(Boolean).length;
  const refusals = new Map<string, { status: number; body: string; count: number }>();
  for (const answer of answers) {
    if (!answer || (answer.status >= 200 && answer.status < 300)) continue;
    const body = answer.body.slice(0, REFUSAL_BODY_CHARS);
    const key = `${answer.status} ${body}`;
    const group = refusals.get(key) ?? { status: answer.status, body, count: 0 };
    group.count += 1;
    refusals.set(key, group);
  }
  const durationS = (endedAt - startedAt) / 1000;
  return {
    figures: {
      sent: Math.min(next, plan.length),
      ok,
      non2xx: answered - ok,
      timeouts: result.timeouts,
      connectionErrors: Math.max(0, result.errors - result.timeouts),
      statuses,
      durationS,
      perSecond: answered / durationS,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.length ? Math.max(...latencies) : Number.NaN,
      refusals: [...refusals.values()].sort((a, b) => b.count - a.count),
    },
    answers,
    startedAt,
    endedAt,
  };
}

let clientNumber = 0;

/**
 * A client address no other request of this bench run has used (10.0.0.0/8, private): the rate limit is 10 signups a
 * minute per `CF-Connecting-IP`, which wrangler dev passes through from the client as Cloudflare would set it.
 */
export function nextClientIp(): string {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
}

const FIRST_NAMES = ["Jordan", "Alex", "Sam", "Taylor", "Morgan", "Casey", "Riley", "Jamie"];
const LAST_NAMES = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Haddad", "Silva", "Jensen"];

/** A run's prefix for its addresses, so that two runs never share one. */
const RUN_ID = Date.now().toString(36);

/**
 * The address of the n-th signup of a scenario (distinct across scenarios and runs).
 * @param scenario e.g. "a"
 */
export function benchAddress(scenario: string, n: number): string {
  return `bench.${RUN_ID}.${scenario}.${n}@example.com`;
}

/**
 * POST /api/signups as the page sends it: JSON, from the service's own origin, a fresh client IP.
 * @param ref a referral code, sent as the page sends the one from its link
 */
export function signupRequest(origin: string, email: string, n: number, ref?: string): PlannedRequest {
  return {
    method: "POST",
    path: "/api/signups",
    headers: { "content-type": "application/json", origin, "cf-connecting-ip": nextClientIp() },
    body: JSON.stringify({
      email,
      firstName: FIRST_NAMES[n % FIRST_NAMES.length],
      lastName: LAST_NAMES[(n * 3) % LAST_NAMES.length],
      properties: { utm_source: "bench", utm_medium: "load" },
      ...(ref === undefined ? {} : { ref }),
    }),
  };
}
