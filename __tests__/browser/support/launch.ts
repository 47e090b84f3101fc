/**
 * Launch day in the browser tests: people on a worker's waitlist service in each invitation state its status page
 * shows: invited, accepted (through the local run's /invite/ page's endpoint) and expired.
 */
import { readFile } from "node:fs/promises";
import { d1Query, logLines } from "../../../scripts/lib/wrangler";
import type { PeopleAnswer } from "../../../shared/api/console";
import { CONSOLE_PEOPLE_ENDPOINT } from "../../../shared/console";
import { INVITE_ACCEPT_ENDPOINT, INVITE_PARAMETER, personInviteEndpoint } from "../../../shared/launch";
import { consoleOrigin } from "./console-page";
import { expect } from "./fixtures";
import { waitlistSite } from "./run-env";
import { demoLinksOf, nextClientIp } from "./waitlist-service";

/** How long the local queue may take to send an invitation's demo event (ms). */
const DEMO_INVITATION_TIMEOUT_MS = 30_000;

/** The status link of a person in each invitation state the status page shows. */
export type InvitationStates = Record<"invited" | "accepted" | "expired", string>;

/**
 * The token of an invitation, from its `demo_invitation_link` line in a local run's output (demo delivery's stand-in
 * for the e-mail).
 * @throws when the line does not come within DEMO_INVITATION_TIMEOUT_MS
 */
export async function demoInvitationToken(invitationId: string, output: () => string | Promise<string>): Promise<string> {
  const tokenIn = (text: string): string | null => {
    const event = logLines<{ id?: unknown; kind?: unknown; inviteUrl?: unknown }>(text, "demo_invitation_link").find(
      (line) => line.id === invitationId && line.kind === "invitation" && typeof line.inviteUrl === "string",
    );
    return event ? new URL(event.inviteUrl as string).searchParams.get(INVITE_PARAMETER) : null;
  };
  await expect
    .poll(async () => tokenIn(await output()), {
      message: `the demo_invitation_link of ${invitationId}`,
      timeout: DEMO_INVITATION_TIMEOUT_MS,
    })
    .not.toBeNull();
  return tokenIn(await output())!;
}

/** The people of each worker's service, made once: the pages that show them only read them. */
const madeFor = new Map<string, Promise<InvitationStates>>();

/**
 * Three people on this worker's waitlist service, one in each invitation state its status page shows (made the first
 * time a test asks, then shared by the tests that only look at their pages).
 * @returns each one's status link
 */
export function peopleInEachInvitationState(): Promise<InvitationStates> {
  const { origin } = waitlistSite();
  if (!madeFor.has(origin)) madeFor.set(origin, makePeopleInEachInvitationState());
  return madeFor.get(origin)!;
}

/**
 * Sign three people up on this worker's waitlist service and invite each from the console's API (its local operator),
 * then accept one invitation and let another expire.
 */
async function makePeopleInEachInvitationState(): Promise<InvitationStates> {
  const label = "invitation-states";
  const { origin, stateDir, outputFile } = waitlistSite();
  const links: Partial<InvitationStates> = {};
  const invitations: Partial<Record<keyof InvitationStates, string>> = {};
  for (const state of ["invited", "accepted", "expired"] as const) {
    const email = `${label}-${state}-${Date.now()}@example.test`;
    const signup = await fetch(`${origin}/api/signups`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, "cf-connecting-ip": nextClientIp() },
      body: JSON.stringify({ email, firstName: "Robin", lastName: "Invited" }),
    });
    expect(signup.status).toBe(202);
    links[state] = (await demoLinksOf(email)).statusUrl;
    const consoleAt = consoleOrigin(origin);
    // Found as an operator finds them (the console's search), not through a second process on the service's D1.
    const search = await fetch(`${consoleAt}${CONSOLE_PEOPLE_ENDPOINT}?q=${encodeURIComponent(email)}`);
    expect(search.status, "the console's search finds them").toBe(200);
    const [{ id }] = ((await search.json()) as PeopleAnswer).people;
    const invite = await fetch(`${consoleAt}${personInviteEndpoint(id)}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: consoleAt },
      body: JSON.stringify({ reason: "Layout and accessibility of the invitation states" }),
    });
    expect(invite.status, "the console's API invites them (the worker's local operator)").toBe(200);
    invitations[state] = ((await invite.json()) as { invitation: { id: string } }).invitation.id;
  }
  const token = await demoInvitationToken(invitations.accepted!, () => readFile(outputFile, "utf8"));
  const accepted = await fetch(`${origin}${INVITE_ACCEPT_ENDPOINT}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ token }),
  });
  expect(accepted.status).toBe(200);
  await d1Query(
    stateDir,
    `UPDATE invitations SET state = 'expired', expired_at = '2026-01-01T00:00:00.000Z', expires_at = '2026-01-01T00:00:00.000Z' WHERE id = '${invitations.expired}'`,
  );
  return links as InvitationStates;
}
