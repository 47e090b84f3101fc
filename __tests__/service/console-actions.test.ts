/**
 * The operator's console at work (docs/operators.md: Actions), against the Worker in workerd with `npm start`'s
 * local operator: finding a person by any spelling of their address, disqualifying and requalifying, approving a held
 * referral, sending a refused signup again, erasing a person and asking Klaviyo to delete them, and the audit log each
 * action writes in the same batch.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_ERROR_CODE,
  CONSOLE_PAGE_SIZE,
  PERSON_REFERRED_SHOWN,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_REVIEW_ENDPOINT,
  type PersonAction,
  personActionEndpoint,
  personEndpoint,
  personExportEndpoint,
  REASON_MAX_LENGTH,
} from "../../shared/console";
import { DRAW_STATE_ENDPOINT } from "../../shared/giveaway/commit";
import { LAUNCH_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT } from "../../shared/launch";
import {
  errorsOf,
  freshBoardNames,
  LOCAL_ORIGIN,
  nextClientIp,
  postSignup,
  startWaitlistService,
  type WaitlistService,
  welcomeOf,
} from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import type {
  ActionAnswer,
  AuditAnswer,
  DashboardAnswer,
  PeopleAnswer,
  PersonAnswer,
  PersonExport,
  ReviewAnswer,
} from "../../shared/api/console";

const OPERATOR = "local-operator@localhost";

let service: WaitlistService;
let addressNumber = 0;

beforeAll(() => {
  service = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR } });
});

interface Person {
  id: string;
  email: string;
  referralCode: string;
  token: string;
}

/** Sign someone up through the API (a fresh address unless given). */
async function signUp(
  target: WaitlistService,
  { email, ref, ip, firstName = "Dana" }: { email?: string; ref?: string; ip?: string; firstName?: string } = {},
): Promise<Person> {
  addressNumber += 1;
  const address = email ?? `console.${addressNumber}.${Date.now()}@example.com`;
  const response = await postSignup(target, { email: address, firstName, lastName: "Quinn", ref }, ip ? { ip } : {});
  expect(response.status).toBe(202);
  // The answer says nothing about them: their code and status link are what their welcome e-mail will carry.
  const { id, referralCode, statusToken } = await welcomeOf(target, address);
  return { id, email: address, referralCode, token: statusToken };
}

async function person(id: string, target = service): Promise<PersonAnswer> {
  const response = await target.fetch(personEndpoint(id));
  expect(response.status).toBe(200);
  return response.json<PersonAnswer>();
}

function act(action: PersonAction, id: string, body: unknown, target = service): Promise<Response> {
  return target.fetch(personActionEndpoint(id, action), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function done(action: PersonAction, id: string, reason: string, target = service): Promise<ActionAnswer> {
  const response = await act(action, id, { reason }, target);
  expect(response.status).toBe(200);
  return response.json<ActionAnswer>();
}

async function showOnBoard(who: Person): Promise<void> {
  const response = await service.fetch("/api/status/leaderboard", {
    method: "PUT",
    headers: { origin: service.origin, "content-type": "application/json", authorization: `Bearer ${who.token}` },
    body: JSON.stringify({ shown: true }),
  });
  expect(response.status).toBe(200);
}

/** POST the export of a person's data with a reason (and any further headers). */
function exportOf(id: string, reason: string, headers: Record<string, string> = {}): Promise<Response> {
  return service.fetch(personExportEndpoint(id), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ reason }),
  });
}

async function auditCount(target = service): Promise<number> {
  const [{ n }] = await target.query<{ n: number }>("SELECT count(*) AS n FROM audit_log");
  return n;
}

describe("finding a person", () => {
  it("finds a person by any spelling of their address, or by their referral code", async () => {
    const ada = await signUp(service, { email: `ada.lopez.${Date.now()}@gmail.com` });
    const [local, domain] = ada.email.split("@");
    for (const spelling of [ada.email.toUpperCase(), `${local.replaceAll(".", "")}+waitlist@googlemail.com`, ` ${local}@${domain}. `]) {
      const response = await service.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?q=${encodeURIComponent(spelling)}`);
      expect(response.status).toBe(200);
      expect((await response.json<PeopleAnswer>()).people.map((found) => found.id)).toEqual([ada.id]);
    }
    const byCode = await service.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?q=${ada.referralCode}`);
    expect((await byCode.json<PeopleAnswer>()).people).toMatchObject([{ id: ada.id, email: ada.email, referralCode: ada.referralCode }]);
    const nobody = await service.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?q=nobody.here@example.com`);
    expect((await nobody.json<PeopleAnswer>()).people).toEqual([]);
  });

  it.each([["q="], ["q=%3Cscript%3E"], ["q=a@b.example&q=c@d.example"], ["email=a@b.example"]])(
    "a search it cannot take (%s) is refused",
    async (query) => {
      const response = await service.fetch(`${CONSOLE_PEOPLE_ENDPOINT}?${query}`);
      expect(response.status).toBe(400);
      expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.parameterInvalid);
    },
  );

  it("shows a person's page within a hundred rows read, and 404 for no one", async () => {
    const referrer = await signUp(service);
    const friend = await signUp(service, { ref: referrer.referralCode });
    const response = await service.fetch(personEndpoint(referrer.id));
    const rowsRead = Number(/desc="(\d+)"/.exec(response.headers.get("server-timing") ?? "")?.[1]);
    expect(rowsRead).toBeLessThanOrEqual(100);
    const page = await response.json<PersonAnswer>();
    expect(page).toMatchObject({ id: referrer.id, referrals: 1, entries: 2, referredTotal: 1, delivery: { state: "pending" } });
    expect(page.referred).toMatchObject([{ id: friend.id, counted: true }]);
    expect((await person(friend.id)).referredBy).toEqual({ id: referrer.id, referralCode: referrer.referralCode });

    // A referrer with far more friends than a page: the count comes with their row, not from counting every friend.
    for (let friendNumber = 1; friendNumber <= 3 * CONSOLE_PAGE_SIZE; friendNumber += 1) {
      await service.query(
        "INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at, referred_by) VALUES (?1, ?2, ?3, ?3, 'Friend', 'Quinn', ?4, ?5)",
        `friend-${referrer.id}-${friendNumber}`,
        1_000_000 + friendNumber,
        `friend.${friendNumber}.${referrer.id}@example.com`,
        new Date().toISOString(),
        referrer.id,
      );
    }
    const crowded = await service.fetch(personEndpoint(referrer.id));
    expect(Number(/desc="(\d+)"/.exec(crowded.headers.get("server-timing") ?? "")?.[1])).toBeLessThanOrEqual(100);
    const crowdedPage = await crowded.json<PersonAnswer>();
    expect({ total: crowdedPage.referredTotal, shown: crowdedPage.referred.length }).toEqual({
      total: 1 + 3 * CONSOLE_PAGE_SIZE,
      shown: PERSON_REFERRED_SHOWN,
    });

    const missing = await service.fetch(personEndpoint("no-such-person"));
    expect(missing.status).toBe(404);
    expect((await errorsOf(missing))[0].code).toBe(CONSOLE_ERROR_CODE.personNotFound);
  });
});

describe("disqualify and requalify", () => {
  it("disqualify changes the leaderboard and the referrer's place, and requalify restores them", async () => {
    // People ahead, so that a referral moves the referrer up.
    for (let i = 0; i < 3; i += 1) await signUp(service);
    const referrer = await signUp(service, { firstName: "Riley" });
    await showOnBoard(referrer);
    const placeAlone = (await person(referrer.id)).position!;
    const friend = await signUp(service, { ref: referrer.referralCode });
    const credited = await person(referrer.id);
    expect(credited.referrals).toBe(1);
    expect(credited.position).toBeLessThan(placeAlone);
    expect(await freshBoardNames(service)).toContain("Riley Q.");

    const { person: disqualified, audit } = await done("disqualify", friend.id, "Same household as the referrer");
    expect(disqualified?.disqualifiedAt).not.toBeNull();
    expect(audit).toMatchObject({
      operator: OPERATOR,
      action: "disqualify",
      personId: friend.id,
      reason: "Same household as the referrer",
    });
    const withdrawn = await person(referrer.id);
    expect(withdrawn).toMatchObject({ referrals: 0, position: placeAlone });
    expect(await freshBoardNames(service)).not.toContain("Riley Q.");

    await done("requalify", friend.id, "Checked: different people");
    expect(await person(referrer.id)).toMatchObject({ referrals: 1, position: credited.position });
    expect(await freshBoardNames(service)).toContain("Riley Q.");

    // A disqualified referrer leaves the board though their referral still counts.
    await done("disqualify", referrer.id, "Bought referrals");
    expect(await freshBoardNames(service)).not.toContain("Riley Q.");
    expect((await person(referrer.id)).referrals).toBe(1);
  });

  it("a disqualified referrer's friend adds no credit: stored as referred, not counted", async () => {
    for (let i = 0; i < 3; i += 1) await signUp(service);
    const cheat = await signUp(service, { firstName: "Casey" });
    const placeAlone = (await person(cheat.id)).position!;
    await done("disqualify", cheat.id, "Bought referrals");

    const friend = await signUp(service, { ref: cheat.referralCode });
    expect(await person(cheat.id)).toMatchObject({ referrals: 0, position: placeAlone });
    const status = await service.fetch("/api/status", {
      headers: { authorization: `Bearer ${cheat.token}`, "sec-fetch-site": "same-origin" },
    });
    expect(await status.json()).toMatchObject({ referrals: 0, entries: 1 });
    expect(await service.query("SELECT referred_by, referral_counted_at FROM signups WHERE id = ?1", friend.id)).toEqual([
      { referred_by: cheat.id, referral_counted_at: null },
    ]);

    // Requalifying the referrer does not count the friend who came while they were disqualified.
    await done("requalify", cheat.id, "Checked: a mistake");
    expect((await person(cheat.id)).referrals).toBe(0);
  });

  it("an action that does not apply is refused and writes nothing", async () => {
    const someone = await signUp(service);
    const before = await auditCount();
    const response = await act("requalify", someone.id, { reason: "Never disqualified" });
    expect(response.status).toBe(409);
    expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.actionNotApplicable);
    const missing = await act("disqualify", "no-such-person", { reason: "Nobody" });
    expect(missing.status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it.each([
    ["no reason", {}],
    ["an empty reason", { reason: "   " }],
    ["a reason with a line break", { reason: "first line\nsecond line" }],
    ["a reason too long", { reason: "x".repeat(REASON_MAX_LENGTH + 1) }],
    ["a reason that is not text", { reason: 42 }],
  ])("an action without a reason is refused and writes nothing: %s", async (_case, body) => {
    const someone = await signUp(service);
    const before = await auditCount();
    const response = await act("disqualify", someone.id, body);
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0]).toMatchObject({ code: CONSOLE_ERROR_CODE.reasonInvalid, source: { pointer: "/reason" } });
    expect(await auditCount()).toBe(before);
    expect((await person(someone.id)).disqualifiedAt).toBeNull();
  });

  it("a page elsewhere cannot make an operator's browser act", async () => {
    const someone = await signUp(service);
    const response = await service.fetch(personActionEndpoint(someone.id, "disqualify"), {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ reason: "Forged" }),
    });
    expect(response.status).toBe(403);
    const form = await service.fetch(personActionEndpoint(someone.id, "disqualify"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "reason=Forged",
    });
    expect(form.status).toBe(415);
    expect((await person(someone.id)).disqualifiedAt).toBeNull();
  });
});

describe("review", () => {
  it("lists a held referral for review, and approving it counts it", async () => {
    const strict = startWaitlistService({
      origin: LOCAL_ORIGIN,
      vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR, REFERRALS_PER_CODE_PER_HOUR: "1" },
    });
    const referrer = await signUp(strict);
    await signUp(strict, { ref: referrer.referralCode });
    const held = await signUp(strict, { ref: referrer.referralCode });
    expect((await person(held.id, strict)).referralHold).toBe("code_limit");
    expect((await person(referrer.id, strict)).referrals).toBe(1);

    const queue = await (await strict.fetch(CONSOLE_REVIEW_ENDPOINT)).json<ReviewAnswer>();
    expect(queue.people.map((entry) => entry.id)).toContain(held.id);

    const { person: approved } = await done("approve", held.id, "Known customer", strict);
    expect(approved).toMatchObject({ referralHold: null });
    expect(approved?.reviewedAt).not.toBeNull();
    expect((await person(referrer.id, strict)).referrals).toBe(2);
    const after = await (await strict.fetch(CONSOLE_REVIEW_ENDPOINT)).json<ReviewAnswer>();
    expect(after.people.map((entry) => entry.id)).not.toContain(held.id);
  });

  it("lists a flagged referral oldest first", async () => {
    const ip = nextClientIp();
    const referrer = await signUp(service, { ip });
    const flagged = await signUp(service, { ref: referrer.referralCode, ip });
    const queue = await (await service.fetch(CONSOLE_REVIEW_ENDPOINT)).json<ReviewAnswer>();
    const entry = queue.people.find((entry) => entry.id === flagged.id);
    expect(entry?.flags).toContain("same_ip_as_referrer");
    const times = queue.people.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort());
    const bad = await service.fetch(`${CONSOLE_REVIEW_ENDPOINT}?before=yesterday`);
    expect(bad.status).toBe(400);
  });
});

describe("erase", () => {
  let klaviyo: KlaviyoStandInClient;
  let delivered: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    delivered = startWaitlistService({
      origin: LOCAL_ORIGIN,
      vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR, KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
    });
    return () => klaviyo.close();
  });

  it("erase in the middle of the line keeps places gapless, and the erased person's status link answers 401", async () => {
    const line: Person[] = [];
    for (let i = 0; i < 5; i += 1) line.push(await signUp(service));
    const middle = line[2];
    // A friend of the erased person stays, without a referrer.
    const friend = await signUp(service, { ref: middle.referralCode });

    const { person: gone, audit } = await done("erase", middle.id, "Privacy request by e-mail");
    expect(gone).toBeNull();
    expect(audit).toMatchObject({ action: "erase", personId: middle.id });

    const inLine = await service.query<{ id: string }>("SELECT id FROM signups WHERE score IS NOT NULL");
    const places = await Promise.all(inLine.map(async ({ id }) => (await person(id)).position));
    expect(places.sort((a, b) => a! - b!)).toEqual(inLine.map((_row, index) => index + 1));
    expect((await service.fetch(personEndpoint(middle.id))).status).toBe(404);
    expect(await service.query("SELECT id FROM signups WHERE id = ?1", middle.id)).toEqual([]);
    expect((await person(friend.id)).referredBy).toBeNull();

    const status = await service.fetch("/api/status", { headers: { authorization: `Bearer ${middle.token}` } });
    expect(status.status).toBe(401);
    // Without a Klaviyo key nothing ever reached Klaviyo: the owed deletion is dropped, and the address with it.
    await service.deliver();
    expect(await service.query("SELECT id FROM erasures WHERE id = ?1", middle.id)).toEqual([]);
    expect(service.output()).toContain(`{"event":"erasure_demo","id":"${middle.id}"}`);
  });

  it("the Klaviyo stand-in receives the deletion job, also after answering 500 for a while", async () => {
    const someone = await signUp(delivered);
    await delivered.deliver();
    expect((await person(someone.id, delivered)).delivery.state).toBe("delivered");

    await klaviyo.failFor({ requests: 2 });
    await done("erase", someone.id, "Privacy request", delivered);
    expect(delivered.queued()).toContainEqual({ signupId: someone.id, kind: "erase" });
    for (let round = 0; round < 5 && delivered.queued().length > 0; round += 1) await delivered.deliver();
    const deletions = (await klaviyo.records()).deletions.filter((deletion) => deletion.email === someone.email);
    expect(deletions).toHaveLength(1);
    expect(delivered.output()).toContain(`"event":"erasure_retry","id":"${someone.id}"`);
    // The address is gone from D1 once Klaviyo accepted the job.
    expect(await delivered.query("SELECT id FROM erasures WHERE id = ?1", someone.id)).toEqual([]);
    expect((await klaviyo.records()).problems).toEqual([]);
  });

  it("an erase racing a welcome still in flight to Klaviyo leaves Klaviyo no profile", async () => {
    const someone = await signUp(delivered);
    // The welcome's profile-import leaves, and is still on its way when the operator erases the person.
    await klaviyo.hold("create_or_update_profile");
    const welcome = delivered.deliver();
    await expect.poll(async () => (await klaviyo.records()).held, { timeout: 10_000 }).toBe(1);
    await done("erase", someone.id, "Privacy request", delivered);
    // A second consumer sends the deletion job first: Klaviyo deletes nothing yet, then the import lands.
    await delivered.deliver({ alongside: true });
    expect((await klaviyo.records()).deletions.map((deletion) => deletion.email)).toContain(someone.email);
    await klaviyo.release();
    await welcome;
    expect((await klaviyo.records()).profiles).toContain(someone.email);

    // The consumer saw the person gone after its write: the deletion is owed again, and sent.
    expect(delivered.queued()).toContainEqual({ signupId: someone.id, kind: "erase" });
    await delivered.deliver();
    const records = await klaviyo.records();
    expect(records.profiles).not.toContain(someone.email);
    expect(records.deletions.filter((deletion) => deletion.email === someone.email)).toHaveLength(2);
    expect(await delivered.query("SELECT id FROM erasures WHERE id = ?1", someone.id)).toEqual([]);
    expect(delivered.output()).toContain(`{"event":"erasure_owed_again","id":"${someone.id}"}`);
  });

  it("a deletion job finishing after the deletion was owed again leaves the newer debt", async () => {
    const someone = await signUp(delivered);
    await delivered.deliver();
    await done("erase", someone.id, "Privacy request", delivered);
    // Owed again (a write landed after the erase) while the first job is on its way to Klaviyo.
    await klaviyo.hold("request_profile_deletion");
    const first = delivered.deliver();
    await expect.poll(async () => (await klaviyo.records()).held, { timeout: 10_000 }).toBe(1);
    await delivered.query("UPDATE erasures SET created_at = ?2 WHERE id = ?1", someone.id, new Date().toISOString());
    await klaviyo.release();
    await first;
    expect(await delivered.query("SELECT id FROM erasures WHERE id = ?1", someone.id)).toEqual([{ id: someone.id }]);
  });

  it("a Klaviyo deletion refused for the key's scope (403) or the address (400) is kept, audited and shown, not retried at once", async () => {
    const dashboard = async () =>
      (await (await delivered.fetch(CONSOLE_DASHBOARD_ENDPOINT)).json<DashboardAnswer>()).delivery.erasuresRefused;
    const refusedBefore = await dashboard();
    const [unscoped, refusedAddress] = [await signUp(delivered), await signUp(delivered)];
    await delivered.deliver();
    // A custom key with every scope the service uses but Data Privacy's.
    await klaviyo.limitScopes(["lists:read", "lists:write", "profiles:read", "profiles:write", "subscriptions:write", "events:write"]);
    await done("erase", unscoped.id, "Privacy request", delivered);
    let rounds = await delivered.deliver();
    await klaviyo.reset();
    await klaviyo.refuse(refusedAddress.email);
    await done("erase", refusedAddress.id, "Privacy request", delivered);
    rounds = [...rounds, ...(await delivered.deliver())];
    // Acked, not retried and not dead-lettered: the queue would spin on a key without the scope.
    expect(rounds.flatMap((round) => round.decisions).every((decision) => decision.ack)).toBe(true);
    expect(delivered.queued()).toEqual([]);
    const rows = await delivered.query<{ id: string; refused_status: number }>(
      "SELECT id, refused_status FROM erasures WHERE id IN (?1, ?2) ORDER BY refused_status DESC",
      unscoped.id,
      refusedAddress.id,
    );
    expect(rows).toEqual([
      { id: unscoped.id, refused_status: 403 },
      { id: refusedAddress.id, refused_status: 400 },
    ]);
    for (const [who, status] of [
      [unscoped, 403],
      [refusedAddress, 400],
    ] as const) {
      const entries = await delivered.query<{ action: string; after: string; reason: string }>(
        "SELECT action, after, reason FROM audit_log WHERE person_id = ?1 AND action = 'erasure_refused'",
        who.id,
      );
      expect(entries).toHaveLength(1);
      expect(JSON.parse(entries[0].after)).toEqual({ klaviyo_status: status });
      expect(entries[0].reason).not.toContain(who.email);
    }
    expect(await dashboard()).toBe(refusedBefore + 2);

    // A week on, the sweep asks again; Klaviyo takes it now, and that is an audit entry too.
    await klaviyo.reset();
    await delivered.scheduled("*/5 * * * *", Date.now() + 8 * 24 * 60 * 60 * 1000);
    await delivered.deliver();
    expect(await delivered.query("SELECT id FROM erasures WHERE id = ?1", unscoped.id)).toEqual([]);
    const done_ = await delivered.query<{ after: string }>(
      "SELECT after FROM audit_log WHERE person_id = ?1 AND action = 'erasure_done'",
      unscoped.id,
    );
    expect(done_.map((entry) => JSON.parse(entry.after) as unknown)).toEqual([{ klaviyo_status: 202 }]);
  });

  it("an erased referrer's code is removed from their friends' Klaviyo profiles through the queue", async () => {
    const referrer = await signUp(delivered);
    const friend = await signUp(delivered, { ref: referrer.referralCode });
    await delivered.deliver();
    const imported = (await klaviyo.records()).profileImports.filter((profile) => profile.email === friend.email);
    expect(imported.at(-1)?.properties).toMatchObject({ referred_by: referrer.referralCode });

    await done("erase", referrer.id, "Privacy request", delivered);
    await delivered.deliver();
    await delivered.scheduled("*/5 * * * *", Date.now() + 60_000);
    await delivered.deliver();
    const update = (await klaviyo.records()).profileImports.filter((profile) => profile.email === friend.email).at(-1);
    expect(update?.unset).toEqual(["referred_by"]);
    expect(JSON.stringify(update?.properties)).not.toContain(referrer.referralCode);
  });

  it("a deletion job whose message was lost is sent by the cron sweep", async () => {
    const someone = await signUp(delivered);
    await delivered.deliver();
    await done("erase", someone.id, "Privacy request", delivered);
    // The message is lost: taken off the recorded queue without being handled.
    delivered.queued().length = 0;
    await delivered.query("UPDATE erasures SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?1", someone.id);
    await delivered.scheduled("*/5 * * * *");
    await delivered.deliver();
    expect((await klaviyo.records()).deletions.map((deletion) => deletion.email)).toContain(someone.email);
  });

  it("the audit entry names no address", async () => {
    const someone = await signUp(service, { firstName: "Zelda" });
    await done("disqualify", someone.id, "Fake referrals");
    await done("erase", someone.id, "Privacy request");
    const { entries } = await (await service.fetch(CONSOLE_AUDIT_ENDPOINT)).json<AuditAnswer>();
    const theirs = entries.filter((entry) => entry.personId === someone.id);
    expect(theirs.map((entry) => entry.action)).toEqual(["erase", "disqualify"]);
    const stored = await service.query("SELECT * FROM audit_log WHERE person_id = ?1", someone.id);
    for (const text of [JSON.stringify(theirs), JSON.stringify(stored)]) {
      expect(text).not.toContain(someone.email);
      expect(text).not.toContain("Zelda");
      expect(text).not.toContain("Quinn");
    }
  });
});

describe("a reason that would outlive an erase", () => {
  it("an erase whose reason names the person is refused, and so is one holding an address", async () => {
    const someone = await signUp(service, { firstName: "Zoë" });
    const before = await auditCount();
    for (const reason of [
      "Zoe Quinn asked to be removed",
      "quinn asked by e-mail",
      "Request from zoe.q@example.org",
      "Asked at someone@example",
    ]) {
      const response = await act("erase", someone.id, { reason });
      expect(response.status, reason).toBe(400);
      expect(await errorsOf(response)).toMatchObject([{ code: CONSOLE_ERROR_CODE.reasonInvalid, source: { pointer: "/reason" } }]);
    }
    expect(await auditCount()).toBe(before);
    expect((await person(someone.id)).id).toBe(someone.id);
    // A word that only holds a name inside it is not the name.
    await done("erase", someone.id, "Privacy request by the subject, ticket 4471 (Quinnipiac office)");
  });

  it.each([
    ["an obfuscated address", () => "Asked from ana.b(at)example(dot)org"],
    ["an address with at and dot spelled out", () => "Asked from ana at example dot org"],
    ["a phone number", () => "Called us from +1 (555) 123-4567"],
    ["a run of 7 digits", () => "Customer 5551234 asked"],
    ["a right-to-left override", () => "Asked \u202Edevomer eb ot"],
    ["the person's referral code", (code: string) => `Owner of ${code.toLowerCase()} asked to be removed`],
  ])("a reason holding %s is refused for every action, and nothing is written", async (_, reasonFor) => {
    const someone = await signUp(service, { firstName: "Zoë" });
    const before = await auditCount();
    const reason = reasonFor(someone.referralCode);
    for (const action of ["disqualify", "erase"] as const) {
      const response = await act(action, someone.id, { reason });
      expect(response.status, `${action}: ${reason}`).toBe(400);
      expect(await errorsOf(response)).toMatchObject([{ code: CONSOLE_ERROR_CODE.reasonInvalid, source: { pointer: "/reason" } }]);
    }
    expect(await auditCount()).toBe(before);
    expect((await person(someone.id)).disqualifiedAt).toBeNull();
  });

  it("takes a date written as ISO 8601, and another person's referral code", async () => {
    const someone = await signUp(service, { firstName: "Zoë" });
    const other = await signUp(service);
    await done("disqualify", someone.id, `Asked on 2026-11-29 after inviting with ${other.referralCode}`);
  });
});

describe("the audit log", () => {
  it("pages newest first, without a gap or a repeat", async () => {
    const someone = await signUp(service);
    for (let i = 0; i < CONSOLE_PAGE_SIZE + 5; i += 1) expect((await exportOf(someone.id, "Paging check")).status).toBe(200);
    const seen: number[] = [];
    let next: string | null = null;
    do {
      const page: AuditAnswer = await (
        await service.fetch(`${CONSOLE_AUDIT_ENDPOINT}${next ? `?before=${next}` : ""}`)
      ).json<AuditAnswer>();
      expect(page.entries.length).toBeLessThanOrEqual(CONSOLE_PAGE_SIZE);
      seen.push(...page.entries.map((entry) => entry.id));
      next = page.next;
    } while (next !== null);
    const stored = await service.query<{ id: number }>("SELECT id FROM audit_log ORDER BY id DESC");
    expect(seen).toEqual(stored.map((row) => row.id));
    expect(seen.length).toBeGreaterThan(CONSOLE_PAGE_SIZE);
  });
});

describe("send again and export", () => {
  it("sends a refused signup again at once", async () => {
    const klaviyo = await startKlaviyoStandIn();
    try {
      const target = startWaitlistService({
        origin: LOCAL_ORIGIN,
        vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR, KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
      });
      const someone = await signUp(target);
      await klaviyo.refuse(someone.email);
      await target.deliver();
      expect((await person(someone.id, target)).delivery.state).toBe("refused");

      await klaviyo.reset();
      const { person: again } = await done("send-again", someone.id, "List id fixed", target);
      expect(again?.delivery).toMatchObject({ state: "pending", error: null });
      expect(target.queued()).toContainEqual({ signupId: someone.id });
      await target.deliver();
      expect((await person(someone.id, target)).delivery.state).toBe("delivered");
      const imported = (await klaviyo.records()).profileImports.find((profile) => profile.email === someone.email);
      expect(String(imported?.properties?.waitlist_status_url)).toContain("#t=");
    } finally {
      await klaviyo.close();
    }
  });

  it("exports the person's own fields and what was done to them, the export's own entry among them", async () => {
    const friend = await signUp(service);
    const someone = await signUp(service, { ref: friend.referralCode });
    await done("disqualify", someone.id, "Same network as their referrer");
    const response = await exportOf(someone.id, "Subject access request");
    expect(response.status).toBe(200);
    const exported = await response.json<PersonExport>();
    expect(exported.person).toMatchObject({ id: someone.id, email: someone.email, referral_code: someone.referralCode });
    expect(exported.person.referrer_code).toBe(friend.referralCode);
    // Their draw ticket, the secret seed of their pseudonym, is theirs to see.
    expect(exported.person.draw_ticket).toMatch(/^[0-9a-f]{32}$/);
    // Keys and marks about other people's networks stay home: none of these columns, whatever they hold.
    for (const column of [
      "ip_hash",
      "status_token",
      "status_token_hash",
      "pending_status_token_hash",
      "email_key",
      "flags",
      "referral_hold",
      "referred_by",
    ])
      expect(exported.person).not.toHaveProperty(column);
    // What was done and when; not the operators' words, which may name others.
    expect(exported.audit).toEqual([
      { id: expect.any(Number) as number, at: expect.any(String) as string, action: "export_person" },
      { id: expect.any(Number) as number, at: expect.any(String) as string, action: "disqualify" },
    ]);
    expect(JSON.stringify(exported)).not.toContain(friend.email);
  });

  it("a cross-site export is refused and writes nothing", async () => {
    const someone = await signUp(service);
    const before = await auditCount();
    const attempts: Record<string, string>[] = [
      { origin: "https://attacker.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of attempts) {
      const response = await exportOf(someone.id, "Subject access request", headers);
      expect(response.status).toBe(403);
      expect((await errorsOf(response))[0].code).toBe("origin_not_allowed");
    }
    expect(await auditCount()).toBe(before);
  });

  it("refuses an export without a reason, or by GET", async () => {
    const someone = await signUp(service);
    const before = await auditCount();
    const blank = await exportOf(someone.id, " ");
    expect(blank.status).toBe(400);
    expect((await errorsOf(blank))[0].code).toBe(CONSOLE_ERROR_CODE.reasonInvalid);
    expect((await service.fetch(personExportEndpoint(someone.id))).status).toBe(405);
    expect(await auditCount()).toBe(before);
  });

  it("refuses every console read a page of another site asks for", async () => {
    const someone = await signUp(service);
    for (const path of [
      personEndpoint(someone.id),
      `${CONSOLE_PEOPLE_ENDPOINT}?q=${someone.referralCode}`,
      CONSOLE_AUDIT_ENDPOINT,
      CONSOLE_REVIEW_ENDPOINT,
      LAUNCH_ENDPOINT,
      `${LAUNCH_PREVIEW_ENDPOINT}?count=1`,
      DRAW_STATE_ENDPOINT,
    ]) {
      const response = await service.fetch(path, { headers: { "sec-fetch-site": "cross-site" } });
      expect(response.status).toBe(403);
      expect((await errorsOf(response))[0].code).toBe("origin_not_allowed");
      expect((await service.fetch(path, { headers: { "sec-fetch-site": "same-origin" } })).status).toBe(200);
    }
  });
});
