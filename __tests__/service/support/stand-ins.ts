/**
 * The provider stand-ins as a test inside workerd drives them: through the Node control surface (stand-in-host.ts)
 * whose address the global setup provides. Each start is a stand-in of the test file's own.
 */
import { inject } from "vitest";
import type {
  DeletionRequest,
  KlaviyoEvent,
  OptInProcess,
  ProfileImport,
  ReceivedRequest,
  Subscription,
} from "../../../scripts/lib/klaviyo-stand-in";
import type { TokenClaims } from "../../../scripts/lib/access-stand-in";
import { TURNSTILE_SIGNUP_ACTION } from "../../../shared/contract";
import defaultSettings from "../fixtures/public/service-settings.json";
import type { SiteverifyCall, SolvedOn } from "./siteverify-stand-in";

async function control<T>(method: string, path: string, args?: unknown[]): Promise<T> {
  const response = await fetch(`${inject("standInHost")}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: args ? JSON.stringify(args) : undefined,
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`stand-in host: ${method} ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** What a Klaviyo stand-in has taken so far (scripts/lib/klaviyo-stand-in.ts's records). */
export interface KlaviyoRecords {
  received: ReceivedRequest[];
  profileImports: ProfileImport[];
  subscriptions: Subscription[];
  events: KlaviyoEvent[];
  deletions: DeletionRequest[];
  problems: string[];
  /** Requests held unanswered now (hold). */
  held: number;
  /** The addresses the account holds a profile for now. */
  profiles: string[];
}

/** A Klaviyo stand-in of this test file (the methods of scripts/lib/klaviyo-stand-in.ts's KlaviyoStandIn). */
export interface KlaviyoStandInClient {
  apiUrl: string;
  privateApiKey: string;
  /** Its records, read now. */
  records(): Promise<KlaviyoRecords>;
  failFor(outage: { requests?: number; seconds?: number }): Promise<void>;
  throttle(options: { retryAfterS: number; requests?: number }): Promise<void>;
  revokeKey(): Promise<void>;
  /** Give the key only these scopes: an operation needing another answers 403 `permission_denied` until reset(). */
  limitScopes(scopes: readonly string[]): Promise<void>;
  /** Hold every request of one operation (Klaviyo's operationId) unanswered until release(). */
  hold(operationId: string): Promise<void>;
  release(): Promise<void>;
  refuse(email: string, detail?: string): Promise<void>;
  /** Name a list of the account (default `double_opt_in`); `GET /api/lists/{id}` answers 404 for any other. */
  setList(listId: string, options?: { optInProcess?: OptInProcess; name?: string }): Promise<void>;
  /** Make an address a member of a list, as confirming a double opt-in does. */
  addToList(listId: string, email: string): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Start a Klaviyo stand-in. */
export async function startKlaviyoStandIn(): Promise<KlaviyoStandInClient> {
  const { id, apiUrl, privateApiKey } = await control<{ id: string; apiUrl: string; privateApiKey: string }>("POST", "/klaviyo");
  const call = (action: string, ...args: unknown[]) => control<void>("POST", `/klaviyo/${id}/${action}`, args);
  return {
    apiUrl,
    privateApiKey,
    records: () => control<KlaviyoRecords>("GET", `/klaviyo/${id}`),
    failFor: (outage) => call("failFor", outage),
    throttle: (options) => call("throttle", options),
    revokeKey: () => call("revokeKey"),
    limitScopes: (scopes) => call("limitScopes", scopes),
    hold: (operationId) => call("hold", operationId),
    release: () => call("release"),
    refuse: (email, detail) => (detail === undefined ? call("refuse", email) : call("refuse", email, detail)),
    setList: (listId, options) => (options === undefined ? call("setList", listId) : call("setList", listId, options)),
    addToList: (listId, email) => call("addToList", listId, email),
    reset: () => call("reset"),
    close: () => control<void>("DELETE", `/klaviyo/${id}`),
  };
}

/** A siteverify stand-in of this test file (siteverify-stand-in.ts's SiteverifyStandIn). */
export interface SiteverifyStandInClient {
  verifyUrl: string;
  /** Every call so far, in order, read now. */
  calls(): Promise<SiteverifyCall[]>;
  /** Answer 500 to the next `count` calls. */
  failNext(count: number): Promise<void>;
  /** The next tokens were solved on this hostname for this action (a passing answer reports them). */
  solvedOn(widget: SolvedOn): Promise<void>;
  /** Forget the calls so far, any failures still scripted and any solvedOn. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Where the tests' tokens are solved: the signup form's widget on the fixture site's host. */
export const SIGNUP_WIDGET: SolvedOn = { hostname: new URL(defaultSettings.siteUrl).hostname, action: TURNSTILE_SIGNUP_ACTION };

/** Start a siteverify stand-in whose tokens are solved by `widget` until solvedOn says otherwise. */
export async function startSiteverifyStandIn(widget: SolvedOn = SIGNUP_WIDGET): Promise<SiteverifyStandInClient> {
  const { id, verifyUrl } = await control<{ id: string; verifyUrl: string }>("POST", "/siteverify", [widget]);
  return {
    verifyUrl,
    calls: async () => (await control<{ calls: SiteverifyCall[] }>("GET", `/siteverify/${id}`)).calls,
    failNext: (count) => control<void>("POST", `/siteverify/${id}/failNext`, [count]),
    solvedOn: (next) => control<void>("POST", `/siteverify/${id}/solvedOn`, [next]),
    reset: () => control<void>("POST", `/siteverify/${id}/reset`, []),
    close: () => control<void>("DELETE", `/siteverify/${id}`),
  };
}

/** A Cloudflare Access stand-in of this test file (scripts/lib/access-stand-in.ts's AccessStandIn). */
export interface AccessStandInClient {
  /** ACCESS_TEAM_DOMAIN: the stand-in's origin, which publishes the JWKS and issues the tokens. */
  teamDomain: string;
  /** ACCESS_AUD: its application's AUD tag. */
  aud: string;
  /** A signed token (`Cf-Access-Jwt-Assertion`), valid unless the claims say otherwise. */
  sign(claims?: TokenClaims): Promise<string>;
  close(): Promise<void>;
}

/** Start a Cloudflare Access stand-in. */
export async function startAccessStandIn(): Promise<AccessStandInClient> {
  const { id, teamDomain, aud } = await control<{ id: string; teamDomain: string; aud: string }>("POST", "/access");
  return {
    teamDomain,
    aud,
    sign: async (claims) => (await control<{ token: string }>("POST", `/access/${id}/sign`, claims === undefined ? [] : [claims])).token,
    close: () => control<void>("DELETE", `/access/${id}`),
  };
}
