/**
 * The check-in the firm's product calls (docs/api.md: Check-in): an invitation's token accepted once, with the
 * product's secret, and every refusal changing nothing. Each test is named after the attack it stops. Also the
 * invitation's end by the cron (expiry, backfill, the reminder), and by disqualifying or erasing the person.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChainedAuditRow, verifyAuditChain } from "../../shared/audit-chain";
import type { CheckInAnswer, InvitationAnswer, LaunchAnswer } from "../../shared/api/launch";
import { personActionEndpoint } from "../../shared/console";
import { CHECK_IN_ENDPOINT, INVITE_ACCEPT_ENDPOINT, LAUNCH_ENDPOINT, LAUNCH_ERROR_CODE, personInviteEndpoint } from "../../shared/launch";
import { AUDIT_VERIFIER, errorsOf, PRODUCTION_SECRETS, PRODUCTION_SETTINGS, startWaitlistService, TEST_SETTINGS } from "./support/service";
import { requiredSecrets } from "../../worker/src/secrets";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import { invitationTokens, inviteNext, launchService, postJson, resetLine, signUpConfirmed, statusOf, type Person } from "./support/launch";
import { DEVELOPMENT_SALT } from "../../worker/src/ip-hash";
import { newInvitationToken, openInvitationToken } from "../../worker/src/launch/tokens";

const SECRET = "9f2c7e1a5b8d3064c1e7a9f2b5d8c3e6";
const service = launchService({ vars: { LAUNCH_CHECKIN_SECRET: SECRET } });
const DAY_MS = 86_400_000;

beforeEach(() => resetLine(service));

function checkIn(token: unknown, secret: string | null = SECRET, target = service): Promise<Response> {
  return target.fetch(CHECK_IN_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", ...(secret === null ? {} : { authorization: `Bearer ${secret}` }) },
    body: JSON.stringify({ token }),
  });
}

/** `count` people invited in one batch, each with their invitation's id and token. */
async function invited(count: number): Promise<(Person & { invitationId: string; token: string })[]> {
  const people = await signUpConfirmed(service, count);
  const { batch } = await inviteNext(service, count);
  const tokens = await invitationTokens(service);
  const rows = await service.query<{ id: string; person_id: string }>(
    "SELECT id, person_id FROM invitations WHERE batch_id = ?1",
    batch.id,
  );
  return people.map((person) => {
    const invitationId = rows.find((row) => row.person_id === person.id)!.id;
    return { ...person, invitationId, token: tokens.get(invitationId)! };
  });
}

async function invitationRow(id: string) {
  const [row] = await service.query<{ state: string; accepted_at: string | null; person_id: string | null }>(
    "SELECT state, accepted_at, person_id FROM invitations WHERE id = ?1",
    id,
  );
  return row;
}

async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, (await errorsOf(response))[0].code];
}

describe("check-in", () => {
  it("accepts an invitation once and names whom it was for", async () => {
    const [ada] = await invited(1);
    const response = await checkIn(ada.token);
    expect(response.status).toBe(200);
    expect(await response.json<CheckInAnswer>()).toEqual({ email: ada.email, firstName: "Robin", lastName: expect.any(String), place: 1 });
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "accepted", accepted_at: expect.any(String) });
  });

  it("a replayed token is refused 409 invitation_used, and the first acceptance stands", async () => {
    const [ada] = await invited(1);
    await checkIn(ada.token);
    const first = await invitationRow(ada.invitationId);
    expect(await refusal(await checkIn(ada.token))).toEqual([409, LAUNCH_ERROR_CODE.invitationUsed]);
    expect(await invitationRow(ada.invitationId)).toEqual(first);
  });

  it("a token used past its expiry is refused 410 invitation_expired, before the cron has marked it", async () => {
    const [ada] = await invited(1);
    await service.query(
      "UPDATE invitations SET expires_at = ?2 WHERE id = ?1",
      ada.invitationId,
      new Date(Date.now() - 1000).toISOString(),
    );
    expect(await refusal(await checkIn(ada.token))).toEqual([410, LAUNCH_ERROR_CODE.invitationExpired]);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited", accepted_at: null });
  });

  it("a revoked token is refused 410 invitation_revoked", async () => {
    const [ada] = await invited(1);
    await postJson(service, `/api/console/people/${ada.id}/revoke`, { reason: "Sent to the wrong person" });
    expect(await refusal(await checkIn(ada.token))).toEqual([410, LAUNCH_ERROR_CODE.invitationRevoked]);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "revoked", accepted_at: null });
  });

  it.each([
    ["a guessed token of the right form", "A".repeat(43)],
    ["a malformed token", "not-a-token"],
  ])("%s is refused 404 invitation_unknown", async (_, token) => {
    expect(await refusal(await checkIn(token))).toEqual([404, LAUNCH_ERROR_CODE.invitationUnknown]);
  });

  it("a token that is not text is refused 400, pointing at it", async () => {
    const response = await checkIn(12345);
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0].source).toEqual({ pointer: "/token" });
  });

  it("the stored hash, stolen from the database, is no token: 404", async () => {
    const [ada] = await invited(1);
    const [{ token_hash }] = await service.query<{ token_hash: string }>(
      "SELECT token_hash FROM invitations WHERE id = ?1",
      ada.invitationId,
    );
    expect((await checkIn(token_hash)).status).toBe(404);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited" });
  });

  it("another person's token accepts only that person's invitation, never the caller's", async () => {
    const [ada, ben] = await invited(2);
    expect(await (await checkIn(ben.token)).json<CheckInAnswer>()).toMatchObject({ email: ben.email, place: 2 });
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited" });
  });

  it.each([
    ["a wrong secret", "0".repeat(32)],
    ["the secret with one character changed", `${SECRET.slice(0, -1)}0`],
    ["no secret at all", null],
  ])("%s is refused 401 and the invitation stays open", async (_, secret) => {
    const [ada] = await invited(1);
    const response = await checkIn(ada.token, secret);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited" });
  });

  it("a Worker without LAUNCH_CHECKIN_SECRET checks nothing in: 503", async () => {
    const bare = launchService();
    expect((await checkIn("A".repeat(43), SECRET, bare)).status).toBe(503);
  });

  it("the stand-in /invite/ page accepts once in development, and production's performs nothing", async () => {
    const [ada] = await invited(1);
    expect((await postJson(service, INVITE_ACCEPT_ENDPOINT, { token: ada.token })).status).toBe(200);
    expect(await refusal(await postJson(service, INVITE_ACCEPT_ENDPOINT, { token: ada.token }))).toEqual([
      409,
      LAUNCH_ERROR_CODE.invitationUsed,
    ]);
    const production = startWaitlistService({ vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS }, settings: PRODUCTION_SETTINGS });
    const [ben] = await invited(1);
    const response = await production.fetch(INVITE_ACCEPT_ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/json", origin: production.origin },
      body: JSON.stringify({ token: ben.token }),
    });
    expect(response.status).toBe(404);
    expect(await invitationRow(ben.invitationId)).toMatchObject({ state: "invited" });
  });
});

/** base64url without padding. */
function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The token an attacker computes from an invitation's id and a salt, as tokens were once derived: HMAC(HKDF(salt), id). */
async function derivedFromId(id: string, salt: string): Promise<string> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(salt), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("waitlist invitation token v1") },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  return base64url(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id)));
}

/** Every value of every table of the service's database, as text. */
async function databaseText(): Promise<string> {
  const tables = await service.query<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  );
  const dumps = await Promise.all(tables.map(({ name }) => service.query(`SELECT * FROM "${name}"`)));
  return JSON.stringify(dumps);
}

describe("token guessing from an id", () => {
  it("an invitation's id and the development salt give no token the check-in or the /invite/ page accept", async () => {
    const [ada] = await invited(1);
    for (const salt of [DEVELOPMENT_SALT, PRODUCTION_SECRETS.IP_HASH_SALT]) {
      const guess = await derivedFromId(ada.invitationId, salt);
      expect(await refusal(await checkIn(guess))).toEqual([404, LAUNCH_ERROR_CODE.invitationUnknown]);
      expect(await refusal(await postJson(service, INVITE_ACCEPT_ENDPOINT, { token: guess }))).toEqual([
        404,
        LAUNCH_ERROR_CODE.invitationUnknown,
      ]);
    }
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited" });
    // The link the person was sent still works.
    expect((await checkIn(ada.token)).status).toBe(200);
  });

  it("tokens are random: two invitations' tokens are unrelated, each 256 bits, and one id sealed twice gives two", async () => {
    const [ada, ben] = await invited(2);
    for (const { token } of [ada, ben])
      expect(Uint8Array.from(atob(token.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)).length).toBe(32);
    expect(ada.token).not.toBe(ben.token);
    const env = { INVITATION_TOKEN_KEY: "" };
    const [first, second] = await Promise.all([newInvitationToken("same-id", env), newInvitationToken("same-id", env)]);
    expect(first.hash).not.toBe(second.hash);
    expect(await openInvitationToken("same-id", first.sealed, env)).not.toBe(await openInvitationToken("same-id", second.sealed, env));
  });

  it("the database holds no token in the clear, and its sealed copy opens under no salt nor for another id", async () => {
    const [ada] = await invited(1);
    expect(await databaseText()).not.toContain(ada.token);
    const [{ token_sealed }] = await service.query<{ token_sealed: string }>(
      "SELECT token_sealed FROM invitations WHERE id = ?1",
      ada.invitationId,
    );
    expect((await checkIn(token_sealed)).status).toBe(404);
    expect(await openInvitationToken(ada.invitationId, token_sealed, { INVITATION_TOKEN_KEY: DEVELOPMENT_SALT })).toBeNull();
    expect(await openInvitationToken("another-id", token_sealed, { INVITATION_TOKEN_KEY: "" })).toBeNull();
    expect(await openInvitationToken(ada.invitationId, token_sealed, { INVITATION_TOKEN_KEY: "" })).toBe(ada.token);
  });

  it("an invitation made before tokens were sealed checks in no more: its token could be computed from its id", async () => {
    const [ada] = await invited(1);
    await service.query("UPDATE invitations SET token_sealed = NULL WHERE id = ?1", ada.invitationId);
    expect(await refusal(await checkIn(ada.token))).toEqual([404, LAUNCH_ERROR_CODE.invitationUnknown]);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "invited" });
  });
});

describe("disqualify and erase", () => {
  it("disqualifying an invited person revokes the invitation: the token never checks in", async () => {
    const [ada] = await invited(1);
    expect((await postJson(service, personActionEndpoint(ada.id, "disqualify"), { reason: "Fake account" })).status).toBe(200);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "revoked" });
    expect(await refusal(await checkIn(ada.token))).toEqual([410, LAUNCH_ERROR_CODE.invitationRevoked]);
  });

  it("erasing an invited person revokes the invitation and keeps no trace of them on it", async () => {
    const [ada] = await invited(1);
    expect((await postJson(service, personActionEndpoint(ada.id, "erase"), { reason: "Asked to be forgotten" })).status).toBe(200);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "revoked", person_id: null });
    expect(await refusal(await checkIn(ada.token))).toEqual([410, LAUNCH_ERROR_CODE.invitationRevoked]);
  });
});

describe("the cron", () => {
  let klaviyo: KlaviyoStandInClient;
  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
  });
  afterAll(() => klaviyo.close());

  it("expires an open invitation past its time: counted, and its token refused", async () => {
    const before = await (await service.fetch(LAUNCH_ENDPOINT)).json<LaunchAnswer>();
    const [ada] = await invited(1);
    // Every open invitation of the file's earlier tests expires too.
    const [{ open }] = await service.query<{ open: number }>("SELECT count(*) AS open FROM invitations WHERE state = 'invited'");
    await service.scheduled("*/5 * * * *", Date.now() + 8 * DAY_MS);
    expect(await invitationRow(ada.invitationId)).toMatchObject({ state: "expired" });
    const after = await (await service.fetch(LAUNCH_ENDPOINT)).json<LaunchAnswer>();
    expect(after.funnel.expired - before.funnel.expired).toBe(open);
    expect(after.funnel.invited - before.funnel.invited).toBe(1 - open);
    expect(await refusal(await checkIn(ada.token))).toEqual([410, LAUNCH_ERROR_CODE.invitationExpired]);
  });

  it("with launch.backfill, invites the next person in line in an expired one's place", async () => {
    const backfilling = launchService({ settings: { ...TEST_SETTINGS, launch: { ...TEST_SETTINGS.launch, backfill: true } } });
    const [first, second] = await signUpConfirmed(service, 2);
    await inviteNext(backfilling, 1);
    await backfilling.scheduled("*/5 * * * *", Date.now() + 8 * DAY_MS);
    const rows = await service.query<{ person_id: string; state: string }>(
      "SELECT person_id, state FROM invitations WHERE person_id IN (?1, ?2) ORDER BY invited_at",
      first.id,
      second.id,
    );
    expect(rows).toEqual([
      { person_id: first.id, state: "expired" },
      { person_id: second.id, state: "invited" },
    ]);
    const [entry] = await service.query<{ operator: string }>(
      "SELECT operator FROM audit_log WHERE action = 'invite_batch' ORDER BY id DESC LIMIT 1",
    );
    expect(entry.operator).toBe("cron");
    // The cron's entry is chained after the operators' like every other.
    const chain = await service.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id");
    expect(await verifyAuditChain(chain, AUDIT_VERIFIER)).toMatchObject({ ok: true, head: { size: chain.length } });
  });

  it("reminds those still invited once, launch.reminderDaysBefore before expiry, with its own unique_id", async () => {
    const sending = launchService({
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, LAUNCH_CHECKIN_SECRET: SECRET },
    });
    const [ada, ben] = await signUpConfirmed(service, 2);
    await inviteNext(sending, 2);
    await sending.deliver();
    const accepted = new URL(String((await klaviyo.records()).events.find((event) => event.email === ben.email)!.properties.invite_url));
    expect((await checkIn(accepted.searchParams.get("invite"), SECRET, sending)).status).toBe(200);
    const eventsBefore = (await klaviyo.records()).events.length;
    // Six days on, two days before expiry: the reminder; and the next tick sends none again.
    await sending.scheduled("*/5 * * * *", Date.now() + 5.5 * DAY_MS);
    await sending.deliver();
    await sending.scheduled("*/5 * * * *", Date.now() + 5.6 * DAY_MS);
    await sending.deliver();
    const reminders = (await klaviyo.records()).events.slice(eventsBefore);
    const [{ id }] = await service.query<{ id: string }>("SELECT invitation_id AS id FROM signups WHERE id = ?1", ada.id);
    expect(reminders).toEqual([
      expect.objectContaining({ metric: "Waitlist invitation reminder", email: ada.email, uniqueId: `${id}:reminder` }),
    ]);
  });

  it("the reminder carries the same working link as the invitation, and the status page shows it", async () => {
    const sending = launchService({
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, LAUNCH_CHECKIN_SECRET: SECRET },
    });
    const [ada] = await signUpConfirmed(service, 1);
    await inviteNext(sending, 1);
    await sending.deliver();
    const eventsBefore = (await klaviyo.records()).events.length;
    const invitation = (await klaviyo.records()).events.find((event) => event.email === ada.email)!;
    await sending.scheduled("*/5 * * * *", Date.now() + 5.5 * DAY_MS);
    await sending.deliver();
    // Other tests' open invitations are reminded too: hers is the one to her address.
    const reminder = (await klaviyo.records()).events.slice(eventsBefore).find((event) => event.email === ada.email)!;
    expect(reminder.metric).toBe("Waitlist invitation reminder");
    expect(reminder.properties.invite_url).toBe(invitation.properties.invite_url);
    const status = await statusOf(sending, ada);
    expect(typeof status === "object" && status.invitation?.inviteUrl).toBe(invitation.properties.invite_url);
    const token = new URL(String(reminder.properties.invite_url)).searchParams.get("invite");
    expect((await checkIn(token, SECRET, sending)).status).toBe(200);
  });

  it("invites one person from the console with a reason, and the cron leaves them be until expiry", async () => {
    const [, ben] = await signUpConfirmed(service, 2);
    const response = await postJson(service, personInviteEndpoint(ben.id), { reason: "Press" });
    expect((await response.json<InvitationAnswer>()).invitation.place).toBe(2);
    await service.scheduled("*/5 * * * *", Date.now() + DAY_MS);
    const [row] = await service.query<{ state: string }>(
      "SELECT i.state FROM signups AS p JOIN invitations AS i ON i.id = p.invitation_id WHERE p.id = ?1",
      ben.id,
    );
    expect(row.state).toBe("invited");
  });
});

describe("a production Worker", () => {
  it.each([
    ["LAUNCH_CHECKIN_SECRET", "the product could not check anyone in"],
    ["INVITATION_TOKEN_KEY", "every token would be sealed under the public development key"],
    ["AUDIT_SIGNING_KEY", "anyone could sign a rewritten audit log with the public development key"],
  ])("is not deployed without %s (%s), and takes no signup without it", async (secret) => {
    expect(requiredSecrets(null)).toContain(secret);
    const others = Object.fromEntries(Object.entries(PRODUCTION_SECRETS).filter(([name]) => name !== secret));
    const production = startWaitlistService({ vars: { ENVIRONMENT: "production", ...others }, settings: PRODUCTION_SETTINGS });
    const response = await production.fetch("/api/signups", {
      method: "POST",
      headers: { "content-type": "application/json", origin: production.origin },
      body: JSON.stringify({ email: "nobody@example.com", firstName: "No", lastName: "Body" }),
    });
    expect(response.status).toBe(503);
    expect(production.output()).toContain(secret);
  });
});
