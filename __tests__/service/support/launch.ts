/**
 * What the launch tests share: a service with `npm start`'s local operator, people signed up and confirmed through
 * the API (demo delivery confirms them in development), a fresh line per test, and places and status read back.
 */
import { expect } from "vitest";
import type { BatchAnswer, LaunchPreview } from "../../../shared/api/launch";
import type { StatusAnswer } from "../../../shared/api/referrals";
import { INVITE_PARAMETER, LAUNCH_BATCHES_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT } from "../../../shared/launch";
import {
  LOCAL_ORIGIN,
  logLinesOf,
  postSignup,
  startWaitlistService,
  type WaitlistService,
  type WaitlistServiceOptions,
  welcomeOf,
} from "./service";

export const OPERATOR = "local-operator@localhost";

/** A service with the local operator signed in, requests to LOCAL_ORIGIN. */
export function launchService(options: WaitlistServiceOptions = {}): WaitlistService {
  return startWaitlistService({ origin: LOCAL_ORIGIN, ...options, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR, ...options.vars } });
}

/** A person as the tests know them. */
export interface Person {
  id: string;
  email: string;
  statusToken: string;
}

let addressNumber = 0;

/**
 * Sign `count` people up in order and let demo delivery confirm them (the queue is run), so each is in line and
 * invitable.
 */
export async function signUpConfirmed(service: WaitlistService, count: number): Promise<Person[]> {
  const people: Person[] = [];
  for (let index = 0; index < count; index += 1) {
    addressNumber += 1;
    const email = `launch.${addressNumber}.${Date.now()}@example.com`;
    const response = await postSignup(service, { email, firstName: "Robin", lastName: `Number${addressNumber}` });
    expect(response.status).toBe(202);
    const { id, statusToken } = await welcomeOf(service, email);
    people.push({ id, email, statusToken });
  }
  await service.deliver();
  return people;
}

/**
 * Everyone signed up before this test leaves the line (and the rank tree starts empty), so a test's own people are
 * the whole line; the invitations and batches of earlier tests stay.
 */
export async function resetLine(service: WaitlistService): Promise<void> {
  await service.env.DB.batch([service.env.DB.prepare("UPDATE signups SET score = NULL"), service.env.DB.prepare("DELETE FROM rank_tree")]);
  service.discard();
}

/** Each person's place in line now (null: out of line), through the rank tree. */
export async function lineOf(service: WaitlistService, people: Person[]): Promise<(number | null)[]> {
  const { positionOf } = await import("../../../worker/src/store/rank");
  return Promise.all(people.map(async (person) => (await positionOf(service.env.DB, person.id))?.position ?? null));
}

/** GET /api/status with the person's status token: the answer's document, or the status when it is refused. */
export async function statusOf(service: WaitlistService, person: Person): Promise<StatusAnswer | number> {
  const response = await service.fetch("/api/status", { headers: { authorization: `Bearer ${person.statusToken}`, origin: LOCAL_ORIGIN } });
  return response.status === 200 ? response.json<StatusAnswer>() : response.status;
}

/** POST a JSON body from the console's origin. */
export function postJson(service: WaitlistService, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return service.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: LOCAL_ORIGIN, ...headers },
    body: JSON.stringify(body),
  });
}

/** Invite the next `count` from the console, as an operator would: the preview first, then its key. */
export async function inviteNext(service: WaitlistService, count: number, reason = "Launch day"): Promise<BatchAnswer> {
  const preview = await (await service.fetch(`${LAUNCH_PREVIEW_ENDPOINT}?count=${count}`)).json<LaunchPreview>();
  const response = await postJson(service, LAUNCH_BATCHES_ENDPOINT, { count, reason, idempotencyKey: preview.idempotencyKey });
  expect(response.status).toBe(201);
  return response.json<BatchAnswer>();
}

/**
 * Each invited person's link, as a local run's demo delivery logs it in place of the e-mail (`demo_invitation_link`):
 * runs the queue, then reads the log.
 * @returns the token of each invitation id delivered so far
 */
export async function invitationTokens(service: WaitlistService): Promise<Map<string, string>> {
  await service.deliver();
  return new Map(
    logLinesOf(service, "demo_invitation_link").map((line) => [
      String(line.id),
      new URL(String(line.inviteUrl)).searchParams.get(INVITE_PARAMETER)!,
    ]),
  );
}
