/**
 * The operator's console behind Cloudflare Access (docs/operators.md: Who gets in): every `/api/console/*` request
 * brings a JWT Access signed, verified against the team's published keys, for the console's own application. Each
 * test is named after the attack it stops; "reads nothing" is D1's own count (`Server-Timing` appears only once a
 * request read D1).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  CONSOLE_ERROR_CODE,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
  personActionEndpoint,
  personEndpoint,
  personExportEndpoint,
} from "../../shared/console";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, DRAW_STATE_ENDPOINT } from "../../shared/giveaway/commit";
import {
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
  personInviteEndpoint,
  personRevokeEndpoint,
} from "../../shared/launch";
import {
  errorsOf,
  LOCAL_ORIGIN,
  postSignup,
  PRODUCTION_SECRETS,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";
import { startAccessStandIn, type AccessStandInClient } from "./support/stand-ins";
import type { PeopleAnswer, PersonAnswer, SessionAnswer } from "../../shared/api/console";

let access: AccessStandInClient;
let service: WaitlistService;
let referralCode: string;

beforeAll(async () => {
  access = await startAccessStandIn();
  service = startWaitlistService({ vars: { ACCESS_TEAM_DOMAIN: access.teamDomain, ACCESS_AUD: access.aud } });
  const email = `gate.${Date.now()}@example.com`;
  expect((await postSignup(service, { email, firstName: "Ada", lastName: "Lee" })).status).toBe(202);
  ({ referralCode } = await welcomeOf(service, email));
  return () => access.close();
});

/** A search for the stored person, with these headers (an Access token or none). */
function search(target: WaitlistService, headers: Record<string, string> = {}): Promise<Response> {
  return target.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?q=${referralCode}`, { headers });
}

const withToken = (token: string) => ({ "cf-access-jwt-assertion": token });

/** The answer's error code, after checking that the request read nothing from D1. */
async function refusedWithoutReading(response: Response): Promise<[number, string]> {
  expect(response.headers.get("server-timing")).toBeNull();
  return [response.status, (await errorsOf(response))[0].code];
}

describe("the console's gate", () => {
  it("lets a valid token in and names its operator", async () => {
    const found = await search(service, withToken(await access.sign({ email: "ops@example.com" })));
    expect(found.status).toBe(200);
    // The control for every "reads nothing" below: an answer that read D1 says so.
    expect(found.headers.get("server-timing")).toMatch(/d1-rows-read/);
    expect((await found.json<{ people: { referralCode: string }[] }>()).people.map((person) => person.referralCode)).toEqual([
      referralCode,
    ]);

    const session = await service.fetch(CONSOLE_SESSION_ENDPOINT, { headers: withToken(await access.sign({ email: "ops@example.com" })) });
    expect(await session.json<SessionAnswer>()).toEqual({ operator: "ops@example.com", local: false, role: "viewer" });
    const serviceToken = await access.sign({ email: null, commonName: "client-id.access" });
    const scripted = await service.fetch(CONSOLE_SESSION_ENDPOINT, { headers: withToken(serviceToken) });
    expect(await scripted.json<SessionAnswer>()).toEqual({ operator: "client-id.access", local: false, role: "viewer" });
  });

  it("a request without an Access token reads nothing", async () => {
    expect(await refusedWithoutReading(await search(service))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenMissing]);
  });

  it("a token signed by another key is refused", async () => {
    const forged = await access.sign({ key: "other" });
    expect(await refusedWithoutReading(await search(service, withToken(forged)))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenInvalid]);
  });

  it("a token for another Access application is refused", async () => {
    const elsewhere = await access.sign({ aud: "another-application-aud-tag" });
    expect(await refusedWithoutReading(await search(service, withToken(elsewhere)))).toEqual([403, CONSOLE_ERROR_CODE.accessDenied]);
  });

  it("an expired token is refused", async () => {
    const expired = await access.sign({ exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await refusedWithoutReading(await search(service, withToken(expired)))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenInvalid]);
  });

  it("a token issued by another team is refused", async () => {
    const otherTeam = await access.sign({ iss: "https://another-team.cloudflareaccess.com" });
    expect(await refusedWithoutReading(await search(service, withToken(otherTeam)))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenInvalid]);
  });

  it("a token that is not a JWT is refused", async () => {
    expect(await refusedWithoutReading(await search(service, withToken("not.a.jwt")))).toEqual([
      401,
      CONSOLE_ERROR_CODE.accessTokenInvalid,
    ]);
  });

  it("a token without an operator's identity is refused", async () => {
    const anonymous = await access.sign({ email: null });
    expect(await refusedWithoutReading(await search(service, withToken(anonymous)))).toEqual([403, CONSOLE_ERROR_CODE.accessDenied]);
  });
});

describe("in production", () => {
  it("production without Access settings fails closed", async () => {
    const production = startWaitlistService({ vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS } });
    const token = await access.sign();
    expect(await refusedWithoutReading(await search(production, withToken(token)))).toEqual([503, CONSOLE_ERROR_CODE.notConfigured]);
    const halfConfigured = startWaitlistService({
      vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS, ACCESS_TEAM_DOMAIN: access.teamDomain },
    });
    expect(await refusedWithoutReading(await search(halfConfigured, withToken(token)))).toEqual([503, CONSOLE_ERROR_CODE.notConfigured]);
  });

  it("the local operator cannot sign in in production", async () => {
    // On a loopback host, as on npm start: production alone keeps the local operator out.
    const production = startWaitlistService({
      origin: LOCAL_ORIGIN,
      settings: { ...TEST_SETTINGS, turnstileSiteKey: "1x00000000000000000000AA" },
      vars: {
        ENVIRONMENT: "production",
        ...PRODUCTION_SECRETS,
        // https, as production requires (the stand-in's is http); no request here brings a token to check.
        ACCESS_TEAM_DOMAIN: "https://team.cloudflareaccess.example",
        ACCESS_AUD: access.aud,
        CONSOLE_LOCAL_OPERATOR: "local-operator@localhost",
      },
    });
    expect(await refusedWithoutReading(await search(production))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenMissing]);
    // The setting itself keeps a production Worker from taking signups, and the log names it.
    const signup = await postSignup(production, { email: `prod.${Date.now()}@example.com`, firstName: "Ada", lastName: "Lee" });
    expect(signup.status).toBe(503);
    expect(production.output()).toContain("CONSOLE_LOCAL_OPERATOR");
  });
});

describe("roles", () => {
  let roles: WaitlistService;
  let personId: string;

  beforeAll(async () => {
    roles = startWaitlistService({
      vars: {
        ACCESS_TEAM_DOMAIN: access.teamDomain,
        ACCESS_AUD: access.aud,
        CONSOLE_OPERATORS: "boss@example.com, ci-client.access",
        CONSOLE_OPERATOR_GROUP: "waitlist-operators",
      },
    });
    const email = `roles.${Date.now()}@example.com`;
    expect((await postSignup(roles, { email, firstName: "Ida", lastName: "Moss" })).status).toBe(202);
    personId = (await welcomeOf(roles, email)).id;
  });

  const post = (path: string, token: string, body: unknown) =>
    roles.fetch(path, {
      method: "POST",
      headers: { ...withToken(token), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const auditCount = async () => (await roles.query<{ n: number }>("SELECT count(*) AS n FROM audit_log"))[0].n;

  it("a viewer's erase is refused, and so are their export, invitations and the draw; they still see the person, launch and draw", async () => {
    const viewer = await access.sign({ email: "viewer@example.com", groups: ["waitlist-viewers"] });
    const session = await roles.fetch(CONSOLE_SESSION_ENDPOINT, { headers: withToken(viewer) });
    expect(await session.json<SessionAnswer>()).toMatchObject({ operator: "viewer@example.com", role: "viewer" });
    for (const path of [personEndpoint(personId), LAUNCH_ENDPOINT, `${LAUNCH_PREVIEW_ENDPOINT}?count=1`, DRAW_STATE_ENDPOINT])
      expect((await roles.fetch(path, { headers: withToken(viewer) })).status).toBe(200);

    const before = await auditCount();
    for (const [path, body] of [
      [personActionEndpoint(personId, "erase"), { reason: "Privacy request" }],
      [personExportEndpoint(personId), { reason: "Access request" }],
      [personInviteEndpoint(personId), { reason: "Press contact" }],
      [personRevokeEndpoint(personId), { reason: "Sent by mistake" }],
      [LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: "First wave", idempotencyKey: "viewer-wave" }],
      [DRAW_COMMIT_ENDPOINT, { draw: "launch", winners: 1, cutoff: "2026-01-01T00:00:00.000Z" }],
      [DRAW_RUN_ENDPOINT, {}],
    ] as const) {
      const response = await post(path, viewer, body);
      expect(response.status).toBe(403);
      expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.operatorRoleRequired);
    }
    expect(await auditCount()).toBe(before);
    expect(await roles.query("SELECT id FROM signups WHERE id = ?1", personId)).toHaveLength(1);
    expect(await roles.query("SELECT id FROM invitations UNION ALL SELECT id FROM launch_batches UNION ALL SELECT id FROM draws")).toEqual(
      [],
    );
  });

  it("a viewer reads every address masked, an operator whole, and each read of a person is audited under who read it", async () => {
    const [{ email }] = await roles.query<{ email: string }>("SELECT email FROM signups WHERE id = ?1", personId);
    const viewer = await access.sign({ email: "viewer@example.com", groups: ["waitlist-viewers"] });
    const boss = await access.sign({ email: "boss@example.com" });
    const read = async (token: string) => (await roles.fetch(personEndpoint(personId), { headers: withToken(token) })).json<PersonAnswer>();
    const found = async (token: string) =>
      (await roles.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?q=${encodeURIComponent(email)}`, { headers: withToken(token) })).json<PeopleAnswer>();

    const masked = `${email[0]}•••@example.com`;
    expect((await read(viewer)).email).toBe(masked);
    expect((await found(viewer)).people.map((person) => person.email)).toEqual([masked]);
    expect((await read(boss)).email).toBe(email);
    expect((await found(boss)).people.map((person) => person.email)).toEqual([email]);

    const reads = await roles.query<{ operator: string; person_id: string }>(
      "SELECT operator, person_id FROM audit_log WHERE action = 'person_viewed' ORDER BY id DESC LIMIT 2",
    );
    expect(reads).toEqual([
      { operator: "boss@example.com", person_id: personId },
      { operator: "viewer@example.com", person_id: personId },
    ]);
    // A guessed id leaves no entry.
    const before = await auditCount();
    expect((await roles.fetch(personEndpoint("no-such-person"), { headers: withToken(viewer) })).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it("gives the operator role to the listed identities, in any case, and to the named Access group", async () => {
    for (const claims of [
      { email: "Boss@Example.com" },
      { email: null, commonName: "ci-client.access" },
      { email: "ana@example.com", groups: ["waitlist-operators"] },
    ]) {
      const session = await roles.fetch(CONSOLE_SESSION_ENDPOINT, { headers: withToken(await access.sign(claims)) });
      expect((await session.json<SessionAnswer>()).role).toBe("operator");
    }
    const boss = await access.sign({ email: "boss@example.com" });
    expect((await post(personActionEndpoint(personId, "disqualify"), boss, { reason: "Bought referrals" })).status).toBe(200);
  });

  it("with no operator configured, nobody Access lets in can act", async () => {
    const unconfigured = startWaitlistService({ vars: { ACCESS_TEAM_DOMAIN: access.teamDomain, ACCESS_AUD: access.aud } });
    const session = await unconfigured.fetch(CONSOLE_SESSION_ENDPOINT, {
      headers: withToken(await access.sign({ groups: ["waitlist-operators"] })),
    });
    expect((await session.json<SessionAnswer>()).role).toBe("viewer");
  });
});

describe("on npm start", () => {
  it("signs the local operator in without a token, and says it is the local one", async () => {
    const local = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { CONSOLE_LOCAL_OPERATOR: "local-operator@localhost" } });
    const session = await local.fetch(CONSOLE_SESSION_ENDPOINT);
    expect(session.status).toBe(200);
    expect(await session.json<SessionAnswer>()).toEqual({ operator: "local-operator@localhost", local: true, role: "operator" });
  });

  it("a token that comes anyway is still checked", async () => {
    const local = startWaitlistService({
      vars: { CONSOLE_LOCAL_OPERATOR: "local-operator@localhost", ACCESS_TEAM_DOMAIN: access.teamDomain, ACCESS_AUD: access.aud },
    });
    const forged = await access.sign({ key: "other" });
    expect(await refusedWithoutReading(await search(local, withToken(forged)))).toEqual([401, CONSOLE_ERROR_CODE.accessTokenInvalid]);
  });
});
