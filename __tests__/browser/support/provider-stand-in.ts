/**
 * A stand-in for the email-marketing provider (spec §7), so that browser tests send
 * signups to 127.0.0.1 and can see exactly what left the browser.
 *
 * It runs in jest's globalSetup process, which the test files cannot reach, so tests
 * steer it over small HTTP control endpoints (see provider-control.ts):
 * - `GET  /__requests?match=<value>`: recorded signups whose body has a field equal to value (all without match)
 * - `POST /__mode` `{ match, mode, delayMs }`: how to answer signups carrying `match` in a field
 * - `POST /__reset`: forget requests and modes
 *
 * Modes are keyed by a value in the body (each test uses its own e-mail address), so
 * test files never see each other's traffic even when jest runs them in parallel.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The provider's list-subscribe path (the build's SIGNUP_ENDPOINT_URL points here). */
export const SUBSCRIBE_PATH = "/ajax/subscriptions/subscribe";

/**
 * How the stand-in answers a signup:
 * ok (200 at once), slow (200 after delayMs), 500, never (hold the request open),
 * drop (destroy the connection: the browser sees a network failure).
 */
export type StandInMode = "ok" | "slow" | "500" | "never" | "drop";

/** The modes, for checking control requests. */
export const STAND_IN_MODES: readonly StandInMode[] = ["ok", "slow", "500", "never", "drop"];

/** How long "slow" waits when the test gives no delay (ms); below the client's 5 s per-attempt timeout. */
export const DEFAULT_SLOW_DELAY_MS = 2_000;

/** One signup request as it reached the stand-in. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string>;
  /** The raw body. */
  body: string;
  /** The body decoded as application/x-www-form-urlencoded, in order. */
  fields: [string, string][];
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
  /** The URL to build the site with (origin + SUBSCRIBE_PATH). */
  subscribeUrl: string;
  /** Stop listening and cut any held connections. */
  close(): Promise<void>;
}

interface ModeRule {
  mode: StandInMode;
  delayMs: number;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]));
}

/**
 * Start the stand-in on 127.0.0.1 at a free port.
 * @returns its origin, the subscribe URL and a close function
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
    return { mode: "ok", delayMs: 0 };
  };

  const answerSignup = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const receivedAt = Date.now();
    let record: RecordedRequest | undefined;
    let abandonedAt: number | null = null;
    // An aborted fetch (the client's per-attempt timeout) closes the connection before any answer.
    res.once("close", () => {
      if (res.writableFinished) return;
      abandonedAt = Date.now();
      if (record) record.abandonedAt = abandonedAt;
    });
    const body = await readBody(req);
    const fields = [...new URLSearchParams(body).entries()];
    record = { method: req.method ?? "", path: url.pathname, headers: flatHeaders(req.headers), body, fields, receivedAt, abandonedAt };
    requests.push(record);
    const rule = ruleFor(fields);
    // no-cors: the browser cannot read the answer, so a plain 200 is all the provider needs to send.
    const ok = () => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("1");
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
        res.writeHead(500, { "content-type": "text/plain" });
        return res.end("stand-in: internal error");
      case "never":
        return undefined;
      case "drop":
        return req.socket.destroy();
    }
  };

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (req.method === "GET" && url.pathname === "/__requests") {
      const match = url.searchParams.get("match");
      return sendJson(res, 200, match === null ? requests : requests.filter((r) => r.fields.some(([, value]) => value === match)));
    }
    if (req.method === "POST" && url.pathname === "/__mode") {
      const { match, mode, delayMs } = JSON.parse(await readBody(req)) as { match?: string; mode?: StandInMode; delayMs?: number };
      if (typeof match !== "string" || !mode || !STAND_IN_MODES.includes(mode)) {
        return sendJson(res, 400, { error: `expected { match: string, mode: ${STAND_IN_MODES.join("|")}, delayMs? }` });
      }
      rules.set(match, { mode, delayMs: delayMs ?? DEFAULT_SLOW_DELAY_MS });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && url.pathname === "/__reset") {
      requests = [];
      rules = new Map();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: `no control endpoint ${req.method} ${url.pathname}` });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const handle = url.pathname === SUBSCRIBE_PATH ? answerSignup : control;
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
    subscribeUrl: `${origin}${SUBSCRIBE_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
