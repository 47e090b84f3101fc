/**
 * A loopback stand-in for Cloudflare Turnstile's siteverify (`POST /turnstile/v0/siteverify`), answering as
 * Cloudflare documents: form-encoded or JSON fields `secret`, `response`, `remoteip`, `idempotency_key`; an answer
 * `{ success, "error-codes", challenge_ts, hostname, action, cdata }`; the published test secrets
 * (`1x…AA` always passes, `2x…AA` always fails, `3x…AA` reports a spent token); `missing-input-secret`,
 * `invalid-input-secret`, `missing-input-response`, `invalid-input-response` for bad requests. A passing answer
 * names the hostname and action the widget was solved with, as the real one does (`solvedOn` sets them: a test
 * plays a token farmed on another site or for another action). For fault tests it can answer 500 to the next calls.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { TURNSTILE_TEST_SECRETS } from "./turnstile-test-keys";

export { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "./turnstile-test-keys";

/** The longest token siteverify takes (characters). */
const TOKEN_MAX_LENGTH = 2_048;

/** One call as the stand-in received it. */
export interface SiteverifyCall {
  secret?: string;
  response?: string;
  remoteip?: string;
  idempotency_key?: string;
}

/** Where a token was solved: the page's hostname and the widget's `action`, which a passing answer reports. */
export interface SolvedOn {
  hostname: string;
  action: string;
}

/** A running stand-in. */
export interface SiteverifyStandIn {
  /** The URL to give the Worker as TURNSTILE_VERIFY_URL. */
  verifyUrl: string;
  /** Every call so far, in order. */
  calls: SiteverifyCall[];
  /** Answer 500 (Cloudflare's side failing) to the next `count` calls. */
  failNext(count: number): void;
  /** The tokens of the next calls were solved on this hostname for this action. */
  solvedOn(widget: SolvedOn): void;
  /** Forget the calls so far, any failures still scripted and any solvedOn: back to the stand-in's start. */
  reset(): void;
  close(): Promise<void>;
}

function verdict(call: SiteverifyCall): { success: boolean; "error-codes": string[] } {
  if (!call.secret) return { success: false, "error-codes": ["missing-input-secret"] };
  const known = Object.values(TURNSTILE_TEST_SECRETS) as string[];
  if (!known.includes(call.secret)) return { success: false, "error-codes": ["invalid-input-secret"] };
  if (!call.response) return { success: false, "error-codes": ["missing-input-response"] };
  if (call.response.length > TOKEN_MAX_LENGTH) return { success: false, "error-codes": ["invalid-input-response"] };
  if (call.secret === TURNSTILE_TEST_SECRETS.passes) return { success: true, "error-codes": [] };
  if (call.secret === TURNSTILE_TEST_SECRETS.spent) return { success: false, "error-codes": ["timeout-or-duplicate"] };
  return { success: false, "error-codes": ["invalid-input-response"] };
}

/**
 * Start the stand-in on 127.0.0.1 at a free port.
 * @param widget where the tokens are solved until solvedOn says otherwise (default: Cloudflare's answer for its test
 *   keys, `example.com` without an action)
 */
export async function startSiteverifyStandIn(widget: SolvedOn = { hostname: "example.com", action: "" }): Promise<SiteverifyStandIn> {
  const calls: SiteverifyCall[] = [];
  let failures = 0;
  let solved = widget;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST") return send(405, { success: false, "error-codes": ["bad-request"] });
      const text = Buffer.concat(chunks).toString("utf8");
      let call: SiteverifyCall;
      try {
        call = (request.headers["content-type"] ?? "").startsWith("application/json")
          ? (JSON.parse(text) as SiteverifyCall)
          : Object.fromEntries(new URLSearchParams(text));
      } catch {
        return send(400, { success: false, "error-codes": ["bad-request"] });
      }
      calls.push(call);
      if (failures > 0) {
        failures -= 1;
        return send(500, { success: false, "error-codes": ["internal-error"] });
      }
      const answer = verdict(call);
      send(200, {
        ...answer,
        ...(answer.success ? { challenge_ts: new Date().toISOString(), hostname: solved.hostname, action: solved.action, cdata: "" } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    verifyUrl: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    calls,
    failNext: (count) => (failures = count),
    solvedOn: (next) => (solved = next),
    reset: () => {
      calls.length = 0;
      failures = 0;
      solved = widget;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
