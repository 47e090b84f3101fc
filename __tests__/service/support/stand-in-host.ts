/**
 * The provider stand-ins for tests that run inside workerd, which cannot call a Node object: a loopback HTTP control
 * surface in the Node process that starts, scripts, reads and stops stand-ins (scripts/lib/klaviyo-stand-in.ts,
 * siteverify-stand-in.ts) on request. Each test file starts its own, so one file's scripted outage never reaches
 * another's. Routes (JSON bodies and answers):
 * - `POST /klaviyo` → `{ id, apiUrl, privateApiKey }`;
 *   `POST /klaviyo/<id>/<failFor|throttle|revokeKey|limitScopes|hold|release|refuse|setList|addToList|reset>` with the method's
 *   arguments as a JSON array; `GET /klaviyo/<id>` → `{ received, profileImports, subscriptions, events, deletions,
 *   problems, held, profiles }`;
 *   `DELETE /klaviyo/<id>`.
 * - `POST /access` → `{ id, teamDomain, aud }`; `POST /access/<id>/sign` `[claims]` → `{ token }`; `DELETE /access/<id>`
 *   (scripts/lib/access-stand-in.ts).
 * - `POST /siteverify` `[solvedOn]` → `{ id, verifyUrl }`; `POST /siteverify/<id>/failNext` `[count]`,
 *   `POST /siteverify/<id>/solvedOn` `[{ hostname, action }]`, `POST /siteverify/<id>/reset`; `GET /siteverify/<id>` →
 *   `{ calls }`; `DELETE /siteverify/<id>`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startAccessStandIn, type AccessStandIn, type TokenClaims } from "../../../scripts/lib/access-stand-in";
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../../scripts/lib/klaviyo-stand-in";
import { type SiteverifyStandIn, type SolvedOn, startSiteverifyStandIn } from "./siteverify-stand-in";

/** The Klaviyo stand-in's methods a test may call through the control surface. */
const KLAVIYO_ACTIONS = [
  "failFor",
  "throttle",
  "revokeKey",
  "limitScopes",
  "hold",
  "release",
  "refuse",
  "setList",
  "addToList",
  "reset",
] as const;

/** A running control surface. */
export interface StandInHost {
  /** e.g. http://127.0.0.1:40125 */
  url: string;
  /** Stop every stand-in it started, then itself. */
  close(): Promise<void>;
}

/** Start the control surface on 127.0.0.1 at a free port. */
export async function startStandInHost(): Promise<StandInHost> {
  const klaviyos = new Map<string, KlaviyoStandIn>();
  const siteverifies = new Map<string, SiteverifyStandIn>();
  const accesses = new Map<string, AccessStandIn>();
  let next = 0;

  async function answer(method: string, parts: string[], args: unknown[]): Promise<[number, unknown]> {
    const [kind, id, action] = parts;
    if (kind === "klaviyo") {
      if (method === "POST" && !id) {
        const standIn = await startKlaviyoStandIn();
        const newId = String((next += 1));
        klaviyos.set(newId, standIn);
        return [201, { id: newId, apiUrl: standIn.apiUrl, privateApiKey: standIn.privateApiKey }];
      }
      const standIn = klaviyos.get(id);
      if (!standIn) return [404, { error: `no Klaviyo stand-in ${id}` }];
      if (method === "GET") {
        const { received, profileImports, subscriptions, events, deletions, problems } = standIn;
        return [
          200,
          { received, profileImports, subscriptions, events, deletions, problems, held: standIn.held(), profiles: standIn.profileEmails() },
        ];
      }
      if (method === "DELETE") {
        klaviyos.delete(id);
        await standIn.close();
        return [200, {}];
      }
      if (method === "POST" && (KLAVIYO_ACTIONS as readonly string[]).includes(action)) {
        (standIn[action as (typeof KLAVIYO_ACTIONS)[number]] as (...values: unknown[]) => void)(...args);
        return [200, {}];
      }
    }
    if (kind === "access") {
      if (method === "POST" && !id) {
        const standIn = await startAccessStandIn();
        const newId = String((next += 1));
        accesses.set(newId, standIn);
        return [201, { id: newId, teamDomain: standIn.teamDomain, aud: standIn.aud }];
      }
      const standIn = accesses.get(id);
      if (!standIn) return [404, { error: `no Access stand-in ${id}` }];
      if (method === "DELETE") {
        accesses.delete(id);
        await standIn.close();
        return [200, {}];
      }
      if (method === "POST" && action === "sign") return [200, { token: await standIn.sign(args[0] as TokenClaims | undefined) }];
    }
    if (kind === "siteverify") {
      if (method === "POST" && !id) {
        const standIn = await startSiteverifyStandIn(args[0] as SolvedOn | undefined);
        const newId = String((next += 1));
        siteverifies.set(newId, standIn);
        return [201, { id: newId, verifyUrl: standIn.verifyUrl }];
      }
      const standIn = siteverifies.get(id);
      if (!standIn) return [404, { error: `no siteverify stand-in ${id}` }];
      if (method === "GET") return [200, { calls: standIn.calls }];
      if (method === "DELETE") {
        siteverifies.delete(id);
        await standIn.close();
        return [200, {}];
      }
      if (method === "POST" && action === "failNext") {
        standIn.failNext(args[0] as number);
        return [200, {}];
      }
      if (method === "POST" && action === "solvedOn") {
        standIn.solvedOn(args[0] as SolvedOn);
        return [200, {}];
      }
      if (method === "POST" && action === "reset") {
        standIn.reset();
        return [200, {}];
      }
    }
    return [404, { error: `${method} ${parts.join("/")} is not a route of the stand-in host` }];
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const parts = new URL(request.url ?? "/", "http://host").pathname.split("/").filter(Boolean);
      void answer(request.method ?? "GET", parts, text ? (JSON.parse(text) as unknown[]) : [])
        .catch((error: unknown): [number, unknown] => [500, { error: String(error) }])
        .then(([status, body]) => {
          // One connection per call: workerd may reuse an idle connection just as Node's keep-alive timeout closes it,
          // and that call then fails with "Network connection lost".
          response.writeHead(status, { "content-type": "application/json", connection: "close" });
          response.end(JSON.stringify(body));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await Promise.all([...klaviyos.values(), ...siteverifies.values(), ...accesses.values()].map((standIn) => standIn.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
