/**
 * The tests' side of the provider stand-in: tell it how to answer and read what it
 * received, over its HTTP control endpoints (see provider-stand-in.ts).
 */
import { expect } from "@playwright/test";
import type { RecordedRequest, StandInMode } from "./provider-stand-in";
import { runEnv } from "./run-env";
import type { Visitor } from "./visitors";

async function control(path: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(`${runEnv().providerOrigin}${path}`, init);
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`provider stand-in ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Details of a mode. */
export interface ModeOptions {
  /** For "slow": how long to wait before answering (ms). */
  delayMs?: number;
  /** For the throttle modes: how many requests get a 429 before the stand-in accepts (default: all). */
  times?: number;
  /** For the throttle modes: the Retry-After value (s). */
  retryAfterS?: number;
}

/**
 * Answer signups that carry `match` in any field (use the test's own e-mail address) in this mode.
 * @param options for "slow" the delay in ms (a number), or the mode's options
 */
export async function setProviderMode(match: string, mode: StandInMode, options: number | ModeOptions = {}): Promise<void> {
  const details = typeof options === "number" ? { delayMs: options } : options;
  await control("/__mode", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ match, mode, ...details }),
  });
}

/** What a signup request carried, whichever transport sent it. */
export interface SentSignup {
  listId: string | undefined;
  email: string | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
}

/**
 * The list id and the visitor's values of a recorded signup: from the JSON:API document
 * of the Client API, or from the legacy form's fields (`g`, `email`, `first_name`, `last_name`).
 */
export function sentSignup(request: RecordedRequest): SentSignup {
  const at = (key: string) => request.fields.find(([name]) => name === key)?.[1];
  if (request.json === null) return { listId: at("g"), email: at("email"), firstName: at("first_name"), lastName: at("last_name") };
  const profile = "/data/attributes/profile/data/attributes";
  return {
    listId: at("/data/relationships/list/data/id"),
    email: at(`${profile}/email`),
    firstName: at(`${profile}/first_name`),
    lastName: at(`${profile}/last_name`),
  };
}

/** The signups the stand-in received that carry `match` (e.g. the test's e-mail address) in any field. */
export async function providerRequests(match: string): Promise<RecordedRequest[]> {
  return (await control(`/__requests?match=${encodeURIComponent(match)}`)) as RecordedRequest[];
}

/** Every signup the stand-in received since the start (or the last reset). */
export async function allProviderRequests(): Promise<RecordedRequest[]> {
  return (await control("/__requests")) as RecordedRequest[];
}

/**
 * Wait until the stand-in has exactly `count` requests from this visitor, and return them.
 * @param timeoutMs give up after this long (ms; default: the config's expect timeout)
 * @throws the assertion failure when the count is not reached in time
 */
export async function requestsFrom(visitor: Visitor, count: number, timeoutMs?: number): Promise<RecordedRequest[]> {
  let requests: RecordedRequest[] = [];
  await expect
    .poll(async () => (requests = await providerRequests(visitor.email)), {
      message: `signups from ${visitor.email} at the provider stand-in`,
      timeout: timeoutMs,
    })
    .toHaveLength(count);
  return requests;
}

/**
 * Wait until the stand-in has at least one signup carrying `match`, and return all it has: for a test that then
 * checks there is exactly one, so that a second one arriving is a failure and not a longer wait.
 * @throws the assertion failure when none arrives in time (the config's expect timeout)
 */
export async function firstRequestsCarrying(match: string): Promise<RecordedRequest[]> {
  let requests: RecordedRequest[] = [];
  await expect
    .poll(async () => (requests = await providerRequests(match)).length, { message: `signups carrying ${match} at the provider stand-in` })
    .toBeGreaterThan(0);
  return requests;
}
