/**
 * A stand-in for Klaviyo's three signup paths (and Turnstile's script), so browser tests see exactly what
 * left the browser. Like the real Client API it refuses a request without `company_id`, `revision` or a
 * subscription document. It runs in globalSetup's process, so tests steer it over HTTP (`/__requests`,
 * `/__mode`, `/__reset`; provider-control.ts). Modes are keyed by a value in the body (each test's own
 * e-mail address), so test files running in parallel never see each other's traffic.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { TURNSTILE_STAND_IN_PATH, turnstileStandInScript } from "./turnstile-stand-in";

/** The legacy form's ajax list-subscribe path (a legacy-form build's SIGNUP_ENDPOINT_URL points here). */
export const LEGACY_SUBSCRIBE_PATH = "/ajax/subscriptions/subscribe";
/** The Client API's subscription path (a client-api build's SIGNUP_ENDPOINT_URL points here). */
export const CLIENT_API_PATH = "/client/subscriptions/";
/** The legacy form's non-ajax path, where the form posts without JavaScript (SIGNUP_NOSCRIPT_FORM_URL). */
export const NO_SCRIPT_FORM_PATH = "/subscriptions/subscribe";
/** The heading of the page the stand-in answers a no-JavaScript form post with, as Klaviyo answers with a page of its own. */
export const NO_SCRIPT_FORM_HEADING = "Thanks for subscribing";

/**
 * How the stand-in answers a signup:
 * - ok: at once (Client API 202, legacy 200); slow: the same after delayMs;
 * - 500: a server error; never: hold the request open; drop: destroy the connection (a network failure);
 * - refuse-email: 400 whose error points at the profile's e-mail (Client API);
 * - refuse-list: 400 whose error points at the list, as for a wrong list id (Client API);
 * - throttle: 429 with `Retry-After: retryAfterS`, exposed to the page by CORS, for the first `times` requests, then ok;
 * - throttle-hidden: the same, but `Retry-After` is not exposed, so the page cannot read it.
 */
export type StandInMode = "ok" | "slow" | "500" | "never" | "drop" | "refuse-email" | "refuse-list" | "throttle" | "throttle-hidden";

/** The modes, for checking control requests. */
export const STAND_IN_MODES: readonly StandInMode[] = [
  "ok",
  "slow",
  "500",
  "never",
  "drop",
  "refuse-email",
  "refuse-list",
  "throttle",
  "throttle-hidden",
];

/** How long "slow" waits when the test gives no delay (ms); below SIGNUP_ATTEMPT_TIMEOUT_MS. */
export const DEFAULT_SLOW_DELAY_MS = 2_000;
/** What "throttle" sends in Retry-After when the test gives nothing (s). */
export const DEFAULT_RETRY_AFTER_S = 1;

/** The JSON pointers Klaviyo's errors carry for the profile's e-mail and for the list. */
export const EMAIL_POINTER = "/data/attributes/profile/data/attributes/email";
export const LIST_POINTER = "/data/relationships/list/data/id";
/** The `detail` of the stand-in's wrong-list refusal (tests look for it in the console). */
export const LIST_REFUSAL_DETAIL = "The list could not be found. Check the list id.";

/** One signup request as it reached the stand-in. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters (e.g. company_id). */
  query: Record<string, string>;
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string>;
  /** The raw body. */
  body: string;
  /**
   * The body's values: for application/x-www-form-urlencoded the fields in order; for
   * JSON every string leaf as [JSON pointer, value] (so a test finds its request by value either way).
   */
  fields: [string, string][];
  /** The body parsed as JSON, or null when it is not JSON. */
  json: unknown;
  /** When the request reached the stand-in (ms since the epoch, the stand-in's clock), before its body was read. */
  receivedAt: number;
  /**
   * When the connection closed before the stand-in answered (ms since the epoch): the
   * browser gave up (an aborted fetch) or, in "drop" mode, the stand-in cut it. Null while open or once answered.
   */
  abandonedAt: number | null;
}

/** A running stand-in. */
export interface ProviderStandIn {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  /** The Client API URL to build a client-api site with. */
  clientApiUrl: string;
  /** The legacy ajax URL to build a legacy-form site with. */
  legacySubscribeUrl: string;
  /** The no-JavaScript form's URL. */
  noScriptFormUrl: string;
  /** The Turnstile stand-in script's URL (TURNSTILE_SCRIPT_URL of a build with a site key). */
  turnstileScriptUrl: string;
  /** Stop listening and cut any held connections. */
  close(): Promise<void>;
}

interface ModeRule {
  mode: StandInMode;
  delayMs: number;
  /** For throttle modes: how many more requests get a 429. */
  remaining: number;
  retryAfterS: number;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Every string leaf of a JSON value as [JSON pointer, value]. */
function stringLeaves(value: unknown, pointer = ""): [string, string][] {
  if (typeof value === "string") return [[pointer, value]];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => stringLeaves(child, `${pointer}/${key}`));
  }
  return [];
}

/** A JSON:API error document with one error, as Klaviyo sends it. */
function jsonApiError(status: number, code: string, title: string, detail: string, source: Record<string, string>) {
  return { errors: [{ id: `stand-in-${status}-${code}`, status: String(status), code, title, detail, source }] };
}

/** Why Klaviyo would refuse this Client API request outright (400), or null when it is well formed. */
function malformed(record: RecordedRequest) {
  if (!record.query.company_id) return jsonApiError(400, "invalid", "Invalid input.", "Invalid Company ID", { parameter: "company_id" });
  if (!record.headers.revision)
    return jsonApiError(400, "invalid", "Invalid input.", "The revision header is required.", { parameter: "revision" });
  const doc = record.json as {
    data?: {
      type?: unknown;
      attributes?: { profile?: { data?: { type?: unknown; attributes?: { email?: unknown } } } };
      relationships?: { list?: { data?: { type?: unknown; id?: unknown } } };
    };
  } | null;
  const data = doc?.data;
  const profile = data?.attributes?.profile?.data;
  const list = data?.relationships?.list?.data;
  const ok =
    data?.type === "subscription" &&
    profile?.type === "profile" &&
    typeof profile.attributes?.email === "string" &&
    list?.type === "list" &&
    typeof list.id === "string";
  return ok ? null : jsonApiError(400, "invalid", "Invalid input.", "The body is not a subscription document.", { pointer: "/data" });
}

/**
 * Start the stand-in on 127.0.0.1 at a free port.
 * @returns its origin, the three URLs and a close function
 */
export async function startProviderStandIn(): Promise<ProviderStandIn> {
  let requests: RecordedRequest[] = [];
  let rules = new Map<string, ModeRule>();
  const timers = new Set<NodeJS.Timeout>();

  const ruleFor = (fields: [string, string][]): ModeRule => {
    for (const [, value] of fields) {
      const rule = rules.get(value);
      if (rule) return rule;
    }
    return { mode: "ok", delayMs: 0, remaining: 0, retryAfterS: DEFAULT_RETRY_AFTER_S };
  };

  /** CORS answer headers for the Client API: the page may read the answer, and `extra` exposed headers. */
  const cors = (req: http.IncomingMessage, expose: string[] = []): Record<string, string> => ({
    "access-control-allow-origin": req.headers.origin ?? "*",
    vary: "Origin",
    ...(expose.length ? { "access-control-expose-headers": expose.join(", ") } : {}),
  });

  const preflight = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(204, {
      ...cors(req),
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "revision, content-type",
      "access-control-max-age": "600",
    });
    res.end();
  };

  const answerSignup = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const clientApi = url.pathname === CLIENT_API_PATH;
    if (clientApi && req.method === "OPTIONS") return preflight(req, res);
    const receivedAt = Date.now();
    // The close handler can run while the body is still being read, before the request is recorded.
    const recorded: { request?: RecordedRequest } = {};
    let abandonedAt: number | null = null;
    // An aborted fetch (the client's per-attempt timeout) closes the connection before any answer.
    res.once("close", () => {
      if (res.writableFinished) return;
      abandonedAt = Date.now();
      if (recorded.request) recorded.request.abandonedAt = abandonedAt;
    });
    const body = await readBody(req);
    const json = parseJson(body);
    const fields = json === null ? [...new URLSearchParams(body).entries()] : stringLeaves(json);
    const record: RecordedRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      headers: flatHeaders(req.headers),
      body,
      fields,
      json,
      receivedAt,
      abandonedAt,
    };
    recorded.request = record;
    requests.push(record);

    if (url.pathname === NO_SCRIPT_FORM_PATH) {
      // A person's browser lands here: Klaviyo answers with a page, whatever the mode.
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><title>Klaviyo stand-in</title><h1>${NO_SCRIPT_FORM_HEADING}</h1>`);
    }
    if (clientApi) {
      const refusal = malformed(record);
      if (refusal) return sendJson(res, 400, refusal, cors(req));
    }
    const rule = ruleFor(fields);
    // Legacy: no-cors, so the browser cannot read the answer and a plain 200 is all the provider needs to send.
    const ok = () => {
      if (clientApi) {
        res.writeHead(202, cors(req));
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end("1");
    };
    switch (rule.mode) {
      case "ok":
        return ok();
      case "slow": {
        const timer = setTimeout(() => {
          timers.delete(timer);
          ok();
        }, rule.delayMs);
        timers.add(timer);
        return undefined;
      }
      case "500":
        if (clientApi)
          return sendJson(res, 500, jsonApiError(500, "error", "A server error occurred.", "A server error occurred.", {}), cors(req));
        res.writeHead(500, { "content-type": "text/plain" });
        return res.end("stand-in: internal error");
      case "never":
        return undefined;
      case "drop":
        return req.socket.destroy();
      case "refuse-email":
        return sendJson(
          res,
          400,
          jsonApiError(400, "invalid", "Invalid input.", "Invalid email address", { pointer: EMAIL_POINTER }),
          cors(req),
        );
      case "refuse-list":
        return sendJson(
          res,
          400,
          jsonApiError(400, "invalid", "Invalid input.", LIST_REFUSAL_DETAIL, { pointer: LIST_POINTER }),
          cors(req),
        );
      case "throttle":
      case "throttle-hidden": {
        if (rule.remaining <= 0) return ok();
        rule.remaining -= 1;
        const expose = rule.mode === "throttle" ? ["Retry-After"] : [];
        return sendJson(
          res,
          429,
          jsonApiError(
            429,
            "throttled",
            "Request was throttled.",
            `Request was throttled. Expected available in ${rule.retryAfterS} seconds.`,
            {},
          ),
          {
            ...cors(req, expose),
            "retry-after": String(rule.retryAfterS),
          },
        );
      }
    }
  };

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (req.method === "GET" && url.pathname === "/__requests") {
      const match = url.searchParams.get("match");
      return sendJson(res, 200, match === null ? requests : requests.filter((r) => r.fields.some(([, value]) => value === match)));
    }
    if (req.method === "POST" && url.pathname === "/__mode") {
      const { match, mode, delayMs, times, retryAfterS } = JSON.parse(await readBody(req)) as {
        match?: string;
        mode?: StandInMode;
        delayMs?: number;
        times?: number;
        retryAfterS?: number;
      };
      if (typeof match !== "string" || !mode || !STAND_IN_MODES.includes(mode)) {
        return sendJson(res, 400, {
          error: `expected { match: string, mode: ${STAND_IN_MODES.join("|")}, delayMs?, times?, retryAfterS? }`,
        });
      }
      rules.set(match, {
        mode,
        delayMs: delayMs ?? DEFAULT_SLOW_DELAY_MS,
        remaining: times ?? Infinity,
        retryAfterS: retryAfterS ?? DEFAULT_RETRY_AFTER_S,
      });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && url.pathname === "/__reset") {
      requests = [];
      rules = new Map();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: `no control endpoint ${req.method} ${url.pathname}` });
  };

  const SIGNUP_PATHS = [CLIENT_API_PATH, LEGACY_SUBSCRIBE_PATH, NO_SCRIPT_FORM_PATH];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === TURNSTILE_STAND_IN_PATH) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(turnstileStandInScript());
      return;
    }
    const handle = SIGNUP_PATHS.includes(url.pathname) ? answerSignup : control;
    handle(req, res, url).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    clientApiUrl: `${origin}${CLIENT_API_PATH}`,
    legacySubscribeUrl: `${origin}${LEGACY_SUBSCRIBE_PATH}`,
    noScriptFormUrl: `${origin}${NO_SCRIPT_FORM_PATH}`,
    turnstileScriptUrl: `${origin}${TURNSTILE_STAND_IN_PATH}?render=explicit`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
