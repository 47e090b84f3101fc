/**
 * The operator's console API (shared/console.ts) as `npm run waitlist` calls it over HTTP: the local `npm start`
 * service as its local operator, or the deployed site through Cloudflare Access with a service token. The actions
 * themselves are the Worker's (worker/src/console/actions.ts); this module only finds the person and asks.
 */
import { CONSOLE_PEOPLE_ENDPOINT, type PersonAction, personActionEndpoint, personExportEndpoint } from "../../shared/console";
import type { ActionAnswer, PeopleAnswer, PersonExport, PersonSummary } from "../../shared/api/console";
import type { ErrorDocument } from "../../shared/api/errors";
import { send } from "../../src/api/client";
import type { BatchAnswer, BatchRequest, InvitationAnswer, LaunchAnswer, LaunchPreview } from "../../shared/api/launch";
import {
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
  personInviteEndpoint,
  personRevokeEndpoint,
} from "../../shared/launch";
import { LOCAL_CONSOLE_HOST } from "../lib/wrangler";

/** Where `npm start` serves the console (its own host, localhost, beside the site on 127.0.0.1) unless PORT says otherwise. */
export const LOCAL_ORIGIN = `http://${LOCAL_CONSOLE_HOST}:8787`;

/** Where `npm start` serves the site. */
export const LOCAL_SITE_ORIGIN = "http://127.0.0.1:8787";

/** How long one request may take (ms): an export or an erasure crosses Access and D1, and an operator can wait longer than a page. */
export const CLI_REQUEST_TIMEOUT_MS = 60_000;

/** The headers of an Access service token (Access turns them into the JWT the Worker verifies). */
export const SERVICE_TOKEN_HEADERS = { id: "CF-Access-Client-Id", secret: "CF-Access-Client-Secret" } as const;

/** The shell variables holding the service token. */
export const SERVICE_TOKEN_VARIABLES = { id: "CF_ACCESS_CLIENT_ID", secret: "CF_ACCESS_CLIENT_SECRET" } as const;

/** A console API to call: its origin and the headers every request carries. */
export interface ConsoleTarget {
  origin: string;
  headers: Record<string, string>;
}

/**
 * The console API for `--env` and `--origin`.
 * @param env undefined: the local service (`origin` or LOCAL_ORIGIN, no token: the Worker's local operator);
 *   "production": `origin` or the console's own origin, with the service token from CF_ACCESS_CLIENT_ID and
 *   CF_ACCESS_CLIENT_SECRET
 * @param consoleOrigin the deployed console's origin (console-host.ts: productionConsoleOrigin), read only for
 *   production without `origin`
 * @throws Error for another `env`, production without the service token, or production on an origin that is not https
 */
export function consoleTarget(
  env: string | undefined,
  origin: string | undefined,
  consoleOrigin: () => string,
  shell: NodeJS.ProcessEnv = process.env,
): ConsoleTarget {
  if (env === undefined) return { origin: new URL(origin ?? LOCAL_ORIGIN).origin, headers: {} };
  if (env !== "production") throw new Error(`--env takes "production" only (the local service needs no flag), not ${JSON.stringify(env)}.`);
  const id = shell[SERVICE_TOKEN_VARIABLES.id]?.trim();
  const secret = shell[SERVICE_TOKEN_VARIABLES.secret]?.trim();
  if (!id || !secret)
    throw new Error(
      `--env production signs in through Cloudflare Access with a service token: set ${SERVICE_TOKEN_VARIABLES.id} and ` +
        `${SERVICE_TOKEN_VARIABLES.secret} (docs/operators.md: Who gets in: Cloudflare Access).`,
    );
  const url = new URL(origin ?? consoleOrigin());
  // The service token travels in every request's headers: never in clear text.
  if (url.protocol !== "https:")
    throw new Error(
      `--env production sends the Access service token with every request, so it calls only an https:// origin, not ${url.origin}` +
        `${origin === undefined ? " (wrangler.jsonc's CONSOLE_HOST)" : " (--origin)"}; e.g. --origin https://console.pickfund.com.`,
    );
  return { origin: url.origin, headers: { [SERVICE_TOKEN_HEADERS.id]: id, [SERVICE_TOKEN_HEADERS.secret]: secret } };
}

/** The console API refused a request: its status and the JSON:API error's code and detail. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`The console API answered ${status} ${code}: ${detail}`);
    this.name = "ConsoleApiError";
  }
}

/**
 * One request to the console API.
 * @throws ConsoleApiError for an error answer; Error when the API cannot be reached or answers something else
 */
export async function callConsole<T>(target: ConsoleTarget, path: string, init: RequestInit = {}): Promise<T> {
  const answer = await send(
    `${target.origin}${path}`,
    {
      ...init,
      headers: { accept: "application/json", ...target.headers, ...(init.headers as Record<string, string> | undefined) },
      redirect: "manual",
    },
    { timeoutMs: CLI_REQUEST_TIMEOUT_MS },
  );
  if (!answer.answered) {
    const local = Object.keys(target.headers).length === 0;
    const why = answer.timedOut ? `no answer in ${CLI_REQUEST_TIMEOUT_MS / 1_000} s` : String(answer.error);
    throw new Error(
      `Cannot reach the console API at ${target.origin} (${why})` +
        (local ? ": is `npm start` running? (--origin for another address)" : "."),
    );
  }
  const { status, body } = answer;
  // A body that is not JSON is an Access login page (a redirect) or a proxy's error.
  if (status >= 200 && status < 300 && body !== null) return body as T;
  const first = (body as ErrorDocument | null)?.errors?.[0];
  if (first) throw new ConsoleApiError(status, first.code, first.detail);
  const where = answer.headers.get("location");
  throw new Error(
    `The console API at ${target.origin} answered ${status} without a JSON answer` +
      (where ? ` (a redirect to ${where}: Access did not take the service token)` : "") +
      ".",
  );
}

/**
 * The one person an address (any spelling) or a referral code names.
 * @throws Error when no one does
 */
export async function findPerson(target: ConsoleTarget, addressOrCode: string): Promise<PersonSummary> {
  const { people } = await callConsole<PeopleAnswer>(target, `${CONSOLE_PEOPLE_ENDPOINT}?q=${encodeURIComponent(addressOrCode)}`);
  if (people.length === 0) throw new Error(`No one on the waitlist has the address or referral code ${JSON.stringify(addressOrCode)}.`);
  if (people.length > 1)
    throw new Error(
      `${JSON.stringify(addressOrCode)} names ${people.length} people (an address and a referral code); give one of their addresses.`,
    );
  return people[0];
}

/** POST a JSON body to a console endpoint; its JSON answer. @throws as callConsole */
export function postJson<T>(target: ConsoleTarget, path: string, body: unknown): Promise<T> {
  return callConsole<T>(target, path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Take one action on one person (ActionAnswer); the reason is the Worker's to check. */
export function act(target: ConsoleTarget, id: string, action: PersonAction, reason: string): Promise<ActionAnswer> {
  return postJson<ActionAnswer>(target, personActionEndpoint(id, action), { reason });
}

/** One person's own stored fields and what was done to them (PersonExport); the export is an audited action. */
export function exportPerson(target: ConsoleTarget, id: string, reason: string): Promise<PersonExport> {
  return postJson<PersonExport>(target, personExportEndpoint(id), { reason });
}

/** Launch day's funnel and latest batches (LaunchAnswer). */
export function launchFunnel(target: ConsoleTarget): Promise<LaunchAnswer> {
  return callConsole<LaunchAnswer>(target, LAUNCH_ENDPOINT);
}

/**
 * Invite the next `count` in line: the preview first, then the batch with the preview's idempotency key (so a
 * command run twice on one preview, or beside the console's button, makes one batch).
 * @returns the preview and the batch (`made`: false when the key's batch existed already)
 */
export async function inviteNext(
  target: ConsoleTarget,
  count: number,
  reason: string,
): Promise<{ preview: LaunchPreview; batch: BatchAnswer["batch"]; audit: BatchAnswer["audit"] }> {
  const preview = await callConsole<LaunchPreview>(target, `${LAUNCH_PREVIEW_ENDPOINT}?count=${count}`);
  const request: BatchRequest = { count, reason, idempotencyKey: preview.idempotencyKey };
  const answer = await postJson<BatchAnswer>(target, LAUNCH_BATCHES_ENDPOINT, request);
  return { preview, ...answer };
}

/** Invite one person now, or revoke their open invitation (InvitationAnswer); the reason is the Worker's to check. */
export function inviteAction(target: ConsoleTarget, id: string, action: "invite" | "revoke", reason: string): Promise<InvitationAnswer> {
  return postJson<InvitationAnswer>(target, action === "invite" ? personInviteEndpoint(id) : personRevokeEndpoint(id), { reason });
}
