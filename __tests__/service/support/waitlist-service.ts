/**
 * The waitlist service as a test meets it: `wrangler dev` on a free port with its own temporary local D1 (migrations
 * applied first) and a temporary assets directory holding the build's service-settings.json, plus helpers to post
 * signups the way the page and the no-JavaScript form do and to read the stored rows back.
 *
 * Rows are read through Miniflare (wrangler's own local runtime) opened on the same local D1 files, as the API bench
 * reads them (scripts/bench/api/local-d1.ts: openLocalD1, which waits out the service's write lock): one process
 * start, then each query is a round trip of milliseconds instead of a wrangler run of seconds.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServiceSettings } from "../../../shared/service-settings";
import { openLocalD1, type LocalD1 } from "../../../scripts/bench/api/local-d1";
import { applyMigrations, startWranglerDev } from "../../../scripts/lib/wrangler";

/** The build's settings in the tests (what the fixture content would give). */
export const TEST_SETTINGS: ServiceSettings = {
  siteUrl: "https://waitlist.example",
  listId: "TestList",
  source: "Waitlist",
  turnstileSiteKey: null,
  referrals: { enabled: true, placesPerReferral: 10, entriesPerReferral: 1, countAfter: "signup" },
  leaderboard: { size: 10 },
};

/** The Worker's secrets, empty (unset for the Worker: demo delivery, no Turnstile, the development salt). */
const UNSET_SECRETS = { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "" };

/** A running service under test. */
export interface WaitlistService {
  /** e.g. http://127.0.0.1:40124 */
  origin: string;
  /** Rows of a SQL query against the service's local D1, with bound parameters. */
  query<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** The local state directory (`--persist-to`): for `wrangler d1 execute` and the operator's CLI. */
  stateDir: string;
  /** Everything wrangler and the Worker logged so far. */
  output(): string;
  /**
   * Stop wrangler and start it again on the same local state (D1, the Cache API's store) at a new port: a fresh
   * service, as after a deploy. `origin` changes.
   */
  restart(): Promise<void>;
  /** Stop wrangler (its whole process group) and delete the temporary directories. */
  stop(): Promise<void>;
}

/** How to start it. */
export interface WaitlistServiceOptions {
  /** Worker vars and secrets (`ENVIRONMENT` is `development` and every secret empty unless given). */
  vars?: Record<string, string>;
  /** The build's service-settings.json; null for a build without one (default TEST_SETTINGS). */
  settings?: ServiceSettings | null;
}

/**
 * Start the service with an empty, migrated local D1.
 * @throws Error with wrangler's output when a migration fails or wrangler does not come up
 */
export async function startWaitlistService({ vars = {}, settings = TEST_SETTINGS }: WaitlistServiceOptions = {}): Promise<WaitlistService> {
  const directory = await mkdtemp(path.join(tmpdir(), "waitlist-service-"));
  const assetsDir = path.join(directory, "public");
  const persistTo = path.join(directory, "state");
  await mkdir(assetsDir);
  if (settings) await writeFile(path.join(assetsDir, "service-settings.json"), JSON.stringify(settings));
  await applyMigrations(persistTo);
  // Empty secrets unless the test sets them: `--var` wins over a developer's .dev.vars, which must not change a test.
  const start = () => startWranglerDev({ assetsDir, persistTo, vars: { ...UNSET_SECRETS, ...vars } });
  let dev = await start();
  // Opened on the first query: many tests read no rows.
  let reader: Promise<LocalD1> | null = null;
  const service: WaitlistService = {
    origin: dev.origin,
    stateDir: persistTo,
    query: async <Row>(sql: string, ...params: unknown[]) => (await (reader ??= openLocalD1(persistTo))).query<Row>(sql, ...params),
    output: () => dev.output(),
    restart: async () => {
      await dev.stop();
      dev = await start();
      service.origin = dev.origin;
    },
    stop: async () => {
      await (await reader)?.dispose();
      await dev.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
  return service;
}

let clientNumber = 0;

/**
 * A client address no other request of the test run has used (TEST-NET-2, 198.51.100.0/24, then onwards), so that
 * the rate limit of one test never throttles another.
 */
export function nextClientIp(): string {
  clientNumber += 1;
  return `198.51.${100 + Math.floor(clientNumber / 250)}.${(clientNumber % 250) + 1}`;
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
  service: Pick<WaitlistService, "origin">,
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
  return fetch(`${service.origin}/api/signups`, { method, headers: allHeaders, body: payload, redirect: "manual" });
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
  return ((await response.json()) as { errors: ErrorMember[] }).errors;
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
