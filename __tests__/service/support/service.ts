/**
 * The waitlist service as a test inside workerd meets it: the Worker's own handlers (worker/src/index.ts) called
 * with the test file's bindings (its D1, the rate limiter) plus the settings and vars a test gives, helpers to post
 * signups the way the page and the no-JavaScript form do, and to read the stored rows and the Worker's log back.
 *
 * The delivery queues are recorded, not run in the background: `deliver()` hands what the Worker queued to its queue
 * consumer as Cloudflare would (one batch per queue, retried messages again with one more attempt) and returns the
 * consumer's decisions, so a test decides when deliveries happen and sees every ack and retry.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { referralLink, statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import { SERVICE_SETTINGS_PATH } from "../../../shared/service-settings";
import entry from "../../../worker/src/index";
import type { ServiceEnv } from "../../../worker/src/env";
import { type Limiter, RATE_LIMITS } from "../../../worker/src/limits";
import { emailKey } from "../../../worker/src/signups/email-key";
import { auditSigner } from "../../../worker/src/console/audit-log";
import { parseVerifierKey, verifierKeyOf } from "../../../shared/signed-note";
import defaultSettings from "../fixtures/public/service-settings.json";
import { declaredAnswer } from "./openapi";

/** The build's settings in the tests: the fixture assets' service-settings.json (what the fixture content would give). */
export const TEST_SETTINGS = defaultSettings as ServiceSettings;

/** A build a production Worker takes: a Turnstile widget, and referrals counted after confirmation (it refuses `signup`). */
export const PRODUCTION_SETTINGS: ServiceSettings = {
  ...TEST_SETTINGS,
  turnstileSiteKey: "1x00000000000000000000AA",
  referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" },
};

/** Secrets strong enough for a production Worker (each at least 32 random characters; the Turnstile one a test secret). */
export const PRODUCTION_SECRETS = {
  KLAVIYO_PRIVATE_API_KEY: "pk_production_0123456789abcdef0123",
  TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
  IP_HASH_SALT: "b7c2e9f4a1d8630f5e2c7a9b4d1e8f36",
  INVITATION_TOKEN_KEY: "e4a9c1f7b3d8260e9a5c1f7b3e8d4a62",
  AUDIT_SIGNING_KEY: "9f3b7d1e5a2c8064f1d9b3e7a5c2086d",
  KLAVIYO_WEBHOOK_SECRET: "c3f8a1e6b9d2470e5f1a8c3b6e9d2f47",
  LAUNCH_CHECKIN_SECRET: "5d9e2b7f1a4c8e3062b9f5d1a7e4c8b2",
};

/** The key that checks the audit log of a service without AUDIT_SIGNING_KEY (the development key). */
export const AUDIT_VERIFIER = parseVerifierKey(verifierKeyOf(auditSigner({})));

/** The Worker's default export, as the runtime calls it (every handler with its ExecutionContext). */
const worker = entry as Required<Pick<ExportedHandler<ServiceEnv>, "fetch" | "queue" | "scheduled">>;

/** The queues of wrangler.jsonc: the delivery queue and its dead-letter queue. */
export const DELIVERY_QUEUE = "waitlist-delivery";
export const DEAD_LETTER_QUEUE = "waitlist-delivery-dlq";
/** The giveaway draw's commitment job (worker/src/draw/queue.ts). */
export const DRAW_JOB_QUEUE = "waitlist-draw-job";

/** The consumer's acks and retries of one batch (the fields of Cloudflare's FetcherQueueResult the tests read). */
export interface QueueResult {
  outcome: string;
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
  /** Ids of the messages acknowledged one by one. */
  explicitAcks: string[];
  /** The messages retried one by one, with the delay asked for (s). */
  retryMessages: { msgId: string; delaySeconds?: number }[];
}

/** Acknowledged, or retried (after `delaySeconds`, when the consumer asked for a delay). */
interface Decision {
  ack: boolean;
  delaySeconds?: number;
}

/** What the consumer decided for one message. */
export interface MessageDecision extends Decision {
  id: string;
  body: unknown;
}

/** What the consumer decided for one queue's batch. */
export interface QueueRound {
  queue: string;
  /** One per message handed over, in order. */
  decisions: MessageDecision[];
  /** The runtime's own account of the batch (acks and retries by message id). */
  result: QueueResult;
}

/** A message waiting on a recorded queue. */
interface Pending {
  body: unknown;
  attempts: number;
}

/** A running service under test. */
export interface WaitlistService {
  /** The site's origin (the Worker allows its own). */
  origin: string;
  /** The Worker's environment as this service hands it to the handlers. */
  env: ServiceEnv;
  /**
   * Send the Worker a request (an absolute URL, or a path on `origin`); the answer is checked against the API's
   * OpenAPI description first (support/openapi.ts).
   */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  /** Rows of a SQL query against the service's D1, with bound parameters. */
  query<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** Everything the Worker logged for this service so far, one line per console call. */
  output(): string;
  /** Messages waiting on the delivery queue (bodies). */
  queued(queue?: string): unknown[];
  /** Take every waiting message off a queue undelivered, as if it was never sent (a Worker that died first). */
  discard(queue?: string): unknown[];
  /** Put a message on a queue, as a producer (or Cloudflare, with a message out of retries, on the dead-letter queue) would. */
  enqueue(queue: string, body: unknown): void;
  /**
   * Hand every waiting message of each queue to the queue consumer, one batch per queue (the dead-letter queue after
   * the delivery queue), as Cloudflare would; retried messages wait for the next call with one more attempt. Calls
   * run one after another, unless `alongside`: then it starts at once, beside a call still running, as a second
   * consumer invocation would (with the messages queued since that one began).
   * @returns the rounds run, in order (none when nothing waited)
   */
  deliver(options?: { alongside?: boolean }): Promise<QueueRound[]>;
  /** Fire the cron trigger with the Worker's `scheduled` handler at `scheduledTime` (ms since the epoch). */
  scheduled(cron: string, scheduledTime?: number): Promise<void>;
}

/**
 * Where `npm start` serves: the console's local operator is signed in only on a loopback host like this one, so a
 * test of the local operator sends its requests here (`origin`).
 */
export const LOCAL_ORIGIN = "http://127.0.0.1:8787";

/** How a service differs from `npm start`'s. */
export interface WaitlistServiceOptions {
  /** Worker vars and secrets (`ENVIRONMENT` is `development` and every secret empty unless given). */
  vars?: Record<string, string>;
  /** The build's service-settings.json; null for a build without one (default TEST_SETTINGS). */
  settings?: ServiceSettings | null;
  /**
   * The origin requests go to, their Host (default the settings' siteUrl; LOCAL_ORIGIN for the local operator). The
   * console answers on its host too (CONSOLE_HOST), unless `vars` names another.
   */
  origin?: string;
}

/** The log lines of the service whose handler is running (async context: concurrent requests keep theirs apart). */
const logOf = new AsyncLocalStorage<string[]>();
/**
 * Lines logged by a handler go to its service's log (and only there); other console output goes on as ever. Spied
 * once per test file: files share a runtime, and vitest restores the spies when a file ends.
 */
function spyOnLog(): void {
  if (vi.isMockFunction(console.log)) return;
  for (const method of ["log", "info", "warn", "error"] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...values: unknown[]) => {
      const lines = logOf.getStore();
      if (lines) lines.push(values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(" "));
      else original(...values);
    });
  }
}

/** An ASSETS binding that serves the given service-settings.json (null: a build without one) and nothing else. */
function settingsAssets(settings: ServiceSettings | null): Fetcher {
  const body = JSON.stringify(settings);
  return {
    fetch: (input: RequestInfo | URL) =>
      Promise.resolve(
        settings !== null && new URL(input instanceof Request ? input.url : String(input)).pathname === SERVICE_SETTINGS_PATH
          ? new Response(body, { headers: { "content-type": "application/json" } })
          : new Response("Not found", { status: 404 }),
      ),
    connect: () => {
      throw new Error("The test ASSETS binding serves only fetch().");
    },
  };
}

/** A queue binding that records what the Worker sends. */
function recordingQueue(pending: Pending[]): Queue<unknown> {
  return {
    send: (body: unknown) => {
      pending.push({ body, attempts: 1 });
      return Promise.resolve();
    },
    sendBatch: (messages: Iterable<MessageSendRequest<unknown>>) => {
      for (const { body } of messages) pending.push({ body, attempts: 1 });
      return Promise.resolve();
    },
  } as unknown as Queue<unknown>;
}

let messageNumber = 0;

/**
 * A service with the test file's D1 and rate limiter. Without settings it reads the fixture assets (the ASSETS
 * binding of the vitest config); with settings, a binding of its own serving them.
 */
export function startWaitlistService({ vars = {}, settings, origin: servedFrom }: WaitlistServiceOptions = {}): WaitlistService {
  spyOnLog();
  const lines: string[] = [];
  const queues = new Map<string, Pending[]>([
    [DELIVERY_QUEUE, []],
    [DEAD_LETTER_QUEUE, []],
    [DRAW_JOB_QUEUE, []],
  ]);
  const origin = servedFrom ?? (settings ?? TEST_SETTINGS).siteUrl;
  const serviceEnv = {
    ...env,
    ...(settings === undefined ? {} : { ASSETS: settingsAssets(settings) }),
    DELIVERY: recordingQueue(queues.get(DELIVERY_QUEUE)!),
    DELIVERY_DEAD_LETTERS: recordingQueue(queues.get(DEAD_LETTER_QUEUE)!),
    DRAW_JOB: recordingQueue(queues.get(DRAW_JOB_QUEUE)!),
    // The console answers on the service's own host, unless a test of the host rule names another.
    CONSOLE_HOST: new URL(origin).hostname,
    ...vars,
  } as unknown as ServiceEnv;

  let delivering: Promise<unknown> = Promise.resolve();

  async function runBatch(queue: string): Promise<QueueRound | null> {
    const pending = queues.get(queue)!;
    if (pending.length === 0) return null;
    const taken = pending.splice(0);
    const messages = taken.map(({ body, attempts }) => ({
      id: `message-${(messageNumber += 1)}`,
      timestamp: new Date(),
      attempts,
      body,
    }));
    const batch = createMessageBatch(queue, messages);
    // Each message's last word (Cloudflare keeps the last call); the batch-wide calls apply to messages without one.
    const decided = new Map<string, Decision>();
    let batchDecision: Decision | null = null;
    batch.messages.forEach((message) => {
      const { ack, retry } = message;
      message.ack = () => {
        decided.set(message.id, { ack: true });
        ack.call(message);
      };
      message.retry = (options?: QueueRetryOptions) => {
        decided.set(message.id, { ack: false, delaySeconds: options?.delaySeconds });
        retry.call(message, options);
      };
    });
    const { ackAll, retryAll } = batch;
    batch.ackAll = () => {
      batchDecision = { ack: true };
      ackAll.call(batch);
    };
    batch.retryAll = (options?: QueueRetryOptions) => {
      batchDecision = { ack: false, delaySeconds: options?.delaySeconds };
      retryAll.call(batch, options);
    };
    const ctx = createExecutionContext();
    let thrown = false;
    try {
      await logOf.run(lines, () => worker.queue(batch, serviceEnv, ctx));
    } catch {
      // A handler that throws has every message of the batch retried.
      thrown = true;
    }
    const result = (await getQueueResult(batch, ctx)) as unknown as QueueResult;
    const decisions = messages.map(({ id }, index): MessageDecision => {
      const decision: Decision = decided.get(id) ?? batchDecision ?? { ack: !thrown };
      if (!decision.ack) pending.push({ body: taken[index].body, attempts: taken[index].attempts + 1 });
      return { id, body: taken[index].body, ...decision };
    });
    return { queue, decisions, result };
  }

  return {
    origin,
    env: serviceEnv,
    fetch: async (input, init) => {
      const request = new Request(typeof input === "string" && input.startsWith("/") ? `${origin}${input}` : input, init) as Request<
        unknown,
        IncomingRequestCfProperties
      >;
      // Cloudflare sets CF-Connecting-IP on every request: a test that sends none comes from an address of its own, so
      // the rate limits of one test never throttle another.
      if (!request.headers.has("cf-connecting-ip")) request.headers.set("cf-connecting-ip", nextClientIp());
      const ctx = createExecutionContext();
      const response = await logOf.run(lines, () => worker.fetch(request, serviceEnv, ctx));
      await waitOnExecutionContext(ctx);
      return declaredAnswer(request, response);
    },
    query: async <Row>(sql: string, ...params: unknown[]) =>
      (
        await env.DB.prepare(sql)
          .bind(...params)
          .all<Row>()
      ).results,
    output: () => lines.join("\n"),
    queued: (queue = DELIVERY_QUEUE) => queues.get(queue)!.map(({ body }) => body),
    discard: (queue = DELIVERY_QUEUE) =>
      queues
        .get(queue)!
        .splice(0)
        .map(({ body }) => body),
    enqueue: (queue, body) => {
      const pending = queues.get(queue);
      if (!pending) throw new Error(`wrangler.jsonc has no queue ${queue}`);
      pending.push({ body, attempts: 1 });
    },
    deliver: ({ alongside = false } = {}) => {
      const runRounds = async () => {
        const rounds: QueueRound[] = [];
        for (const queue of [DELIVERY_QUEUE, DEAD_LETTER_QUEUE, DRAW_JOB_QUEUE]) {
          const round = await runBatch(queue);
          if (round) rounds.push(round);
        }
        return rounds;
      };
      if (alongside) return runRounds();
      // One delivery at a time, as concurrent callers queue behind each other (a failed one does not stop the next).
      const run = delivering.then(runRounds);
      delivering = run.catch(() => undefined);
      return run;
    },
    scheduled: async (cron, scheduledTime = Date.now()) => {
      const controller = createScheduledController({ scheduledTime: new Date(scheduledTime), cron });
      const ctx = createExecutionContext();
      await logOf.run(lines, () => worker.scheduled(controller, serviceEnv, ctx));
      await waitOnExecutionContext(ctx);
    },
  };
}

/** The tag in client addresses of the test file running (files share the rate limiter, so each gets its own /64s). */
let fileTag = { path: "", tag: "" };
/** Never reset: files share a runtime and this module, so an address stays unused by every file before. */
let clientNumber = 0;

/**
 * A client address no other request of the test run has used (in 2001:db8::/32, IPv6's documentation prefix: a /64
 * per call, tagged with the test file), so that the rate limit of one test never throttles another.
 */
export function nextClientIp(): string {
  const path = expect.getState().testPath ?? "";
  if (fileTag.path !== path) {
    // FNV-1a of the file's path: the same tag on every run, a different one per file.
    let hash = 0x811c9dc5;
    for (const char of path) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    fileTag = { path, tag: (hash & 0xffff).toString(16) };
  }
  clientNumber += 1;
  return `2001:db8:${fileTag.tag}:${clientNumber.toString(16)}::1`;
}

/** Leaderboard reads so far; never reset, so no file reads a board another file's read left in the edge cache. */
let boardReads = 0;

/**
 * The public leaderboard's names as a visitor would read them now: each read on a host of its own, so no cached copy
 * answers (the board is cached per URL).
 */
export async function freshBoardNames(service: WaitlistService): Promise<string[]> {
  boardReads += 1;
  const response = await service.fetch(`https://board-${boardReads}.waitlist.example/api/leaderboard`, {
    headers: { "sec-fetch-site": "same-origin" },
  });
  expect(response.status).toBe(200);
  return (await response.json<{ entries: { name: string }[] }>()).entries.map((entry) => entry.name);
}

/**
 * Resolves once at least `neededMs` of a rate limiter's current window are left, waiting for the next window if not.
 * The local rate-limiting binding counts in fixed windows aligned to the clock and clears every key at a boundary, so a
 * test that needs its 61st request in the same window as the first 60 must not start just before one.
 * @param limiter the binding (default the signup limit); its window is RATE_LIMITS'
 * @param neededMs how much of the window the test needs (default half of it)
 */
export async function withinOneRateWindow(
  limiter: Limiter = "SIGNUP_LIMITER",
  neededMs = RATE_LIMITS[limiter].periodS * 500,
): Promise<void> {
  const windowMs = RATE_LIMITS[limiter].periodS * 1000;
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < neededMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 250));
}

/** How a test request differs from the page's own. */
export interface SignupRequestOptions {
  /** CF-Connecting-IP (default: a fresh nextClientIp()). */
  ip?: string;
  /** Content-Type (default application/json; the form's type for a URLSearchParams body). */
  contentType?: string | null;
  /** Origin (default: the service's own, as a browser sends it; null leaves it out). */
  origin?: string | null;
  /** Method (default POST). */
  method?: string;
  /** More headers. */
  headers?: Record<string, string>;
}

/**
 * Send POST /api/signups as the page would: JSON (an object is serialised, a string sent as it is) or a form body
 * (URLSearchParams), from the service's own origin, from a fresh client IP. Redirects are not followed.
 */
export function postSignup(
  service: Pick<WaitlistService, "origin" | "fetch">,
  body: unknown,
  { ip = nextClientIp(), contentType, origin = service.origin, method = "POST", headers = {} }: SignupRequestOptions = {},
): Promise<Response> {
  const form = body instanceof URLSearchParams;
  const type = contentType === undefined ? (form ? "application/x-www-form-urlencoded" : "application/json") : contentType;
  const allHeaders: Record<string, string> = { "cf-connecting-ip": ip, ...headers };
  if (type !== null) allHeaders["content-type"] = type;
  if (origin !== null) allHeaders.origin = origin;
  const payload =
    method === "GET" || method === "HEAD" ? undefined : typeof body === "string" || form ? body.toString() : JSON.stringify(body);
  return service.fetch("/api/signups", { method, headers: allHeaders, body: payload, redirect: "manual" });
}

/** One JSON:API error as the service writes it. */
export interface ErrorMember {
  status: string;
  code: string;
  detail: string;
  source?: { pointer: string };
}

/** The `errors` of a JSON:API error answer. */
export async function errorsOf(response: Response): Promise<ErrorMember[]> {
  expect(response.headers.get("content-type")).toBe("application/vnd.api+json");
  return (await response.json<{ errors: ErrorMember[] }>()).errors;
}

/** A signup row as the tests read it back. */
export interface SignupRow {
  id: string;
  seq: number;
  email: string;
  email_key: string;
  first_name: string;
  last_name: string;
  source: string | null;
  properties: string;
  ip_hash: string | null;
  created_at: string;
  delivery_state: string;
}

/** The rows stored for an address as typed (trimmed). */
export function rowsFor(service: WaitlistService, email: string): Promise<SignupRow[]> {
  return service.query<SignupRow>("SELECT * FROM signups WHERE email = ?1 ORDER BY seq", email.trim());
}

/** How many rows the table holds. */
export async function rowCount(service: WaitlistService): Promise<number> {
  const [row] = await service.query<{ n: number }>("SELECT count(*) AS n FROM signups");
  return row.n;
}

/** The Worker's JSON log lines of one event, parsed. */
export function logLinesOf(service: Pick<WaitlistService, "output">, event: string): Record<string, unknown>[] {
  return service
    .output()
    .split("\n")
    .filter((line) => line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as Record<string, unknown>);
}

/** A new person as their welcome e-mail knows them (worker/src/delivery/referral-properties.ts). */
export interface Welcome {
  /** signups.id */
  id: string;
  referralCode: string;
  /** `<origin>/?ref=<code>` */
  referralUrl: string;
  /** `<origin>/status/#t=<token>` */
  statusUrl: string;
  /** The status link's token, for `Authorization: Bearer`. */
  statusToken: string;
}

/**
 * The links a person's welcome e-mail will carry, read from their row (the signup's answer carries none): the row
 * keeps the status token until delivery settles, so call it after the signup and before `deliver()`.
 * @param email any spelling of the person's address (compared by its key, as the Worker does)
 * @throws an assertion error when there is no such row or its token was dropped already
 */
export async function welcomeOf(service: Pick<WaitlistService, "origin" | "query">, email: string): Promise<Welcome> {
  const [row] = await service.query<{ id: string; referral_code: string | null; status_token: string | null }>(
    "SELECT id, referral_code, status_token FROM signups WHERE email_key = ?1",
    emailKey(email),
  );
  expect(row?.referral_code, `a row with a referral code for ${email}`).toEqual(expect.any(String));
  expect(row.status_token, `the status token of ${email}, kept until delivery settles`).toEqual(expect.any(String));
  const [referralCode, statusToken] = [row.referral_code!, row.status_token!];
  return {
    id: row.id,
    referralCode,
    referralUrl: referralLink(service.origin, referralCode),
    statusUrl: statusLink(service.origin, statusToken),
    statusToken,
  };
}
