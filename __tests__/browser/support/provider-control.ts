/**
 * The tests' side of the provider stand-in: tell it how to answer and read what it
 * received, over its HTTP control endpoints (see provider-stand-in.ts).
 */
import type { RecordedRequest, StandInMode } from "./provider-stand-in";
import { runEnv } from "./run-env";

async function control(path: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(`${runEnv().providerOrigin}${path}`, init);
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`provider stand-in ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Answer signups that carry `match` in any field (use the test's own e-mail address) in this mode.
 * @param match a field value, e.g. the e-mail address the test types
 * @param mode ok | slow | 500 | never | drop
 * @param delayMs for "slow": how long to wait before answering
 */
export async function setProviderMode(match: string, mode: StandInMode, delayMs?: number): Promise<void> {
  await control("/__mode", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ match, mode, delayMs }) });
}

/**
 * The signups the stand-in received that carry `match` in any field.
 * @param match a field value, e.g. the e-mail address the test typed
 */
export async function providerRequests(match: string): Promise<RecordedRequest[]> {
  return (await control(`/__requests?match=${encodeURIComponent(match)}`)) as RecordedRequest[];
}

/** Every signup the stand-in received since the start (or the last reset). */
export async function allProviderRequests(): Promise<RecordedRequest[]> {
  return (await control("/__requests")) as RecordedRequest[];
}
