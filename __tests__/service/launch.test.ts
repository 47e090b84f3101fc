/**
 * Launch day from the operator's side (docs/operators.md: Launch), against the Worker in workerd with `npm start`'s
 * local operator: who "invite the next N" takes and whom it skips and why, places closing up behind the invited, a
 * double press making one batch, one person invited and revoked, and each action's audit entry.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { BatchAnswer, InvitationAnswer, LaunchAnswer, LaunchPreview } from "../../shared/api/launch";
import type { StatusAnswer } from "../../shared/api/referrals";
import { type ChainedAuditRow, verifyAuditChain } from "../../shared/audit-chain";
import { personActionEndpoint } from "../../shared/console";
import {
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_ERROR_CODE,
  LAUNCH_PREVIEW_ENDPOINT,
  personInviteEndpoint,
  personRevokeEndpoint,
} from "../../shared/launch";
import { ServiceSettingsSchema } from "../../shared/service-settings";
import { type BatchRow, createBatch, runBatch } from "../../worker/src/launch/batches";
import { creditStatements, treeRows } from "../../worker/src/store/rank";
import { AUDIT_VERIFIER, errorsOf, LOCAL_ORIGIN, TEST_SETTINGS } from "./support/service";
import { launchService, lineOf, resetLine, signUpConfirmed, statusOf } from "./support/launch";

const service = launchService();

beforeEach(() => resetLine(service));

function post(path: string, body: unknown): Promise<Response> {
  return service.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: LOCAL_ORIGIN },
    body: JSON.stringify(body),
  });
}

async function preview(count: number): Promise<LaunchPreview> {
  const response = await service.fetch(`${LAUNCH_PREVIEW_ENDPOINT}?count=${count}`);
  expect(response.status).toBe(200);
  return response.json<LaunchPreview>();
}

async function inviteNext(count: number, reason = "Launch day, first wave"): Promise<BatchAnswer> {
  const { idempotencyKey } = await preview(count);
  const response = await post(LAUNCH_BATCHES_ENDPOINT, { count, reason, idempotencyKey });
  expect(response.status).toBe(201);
  return response.json<BatchAnswer>();
}

describe("invite the next N", () => {
  it("takes people by place in line and skips the disqualified, the unconfirmed, the flagged and the invited, counting each", async () => {
    const people = await signUpConfirmed(service, 8);
    // Place 2 disqualified, 3 unconfirmed, 4 flagged and not approved, 6 invited already (out of line by hand).
    await service.query("UPDATE signups SET disqualified_at = '2026-11-01T00:00:00.000Z' WHERE id = ?1", people[1].id);
    await service.query("UPDATE signups SET confirmed_at = NULL WHERE id = ?1", people[2].id);
    await service.query("UPDATE signups SET flags = 'same_ip_as_referrer' WHERE id = ?1", people[3].id);
    await service.query(
      `INSERT INTO invitations (id, person_id, token_hash, place, invited_at, expires_at)
       VALUES ('by-hand-' || ?1, ?1, 'hash-' || ?1, 6, '2026-11-01T00:00:00.000Z', '2026-11-08T00:00:00.000Z')`,
      people[5].id,
    );
    await service.query("UPDATE signups SET invitation_id = 'by-hand-' || id WHERE id = ?1", people[5].id);

    const seen = await preview(3);
    expect(seen).toMatchObject({
      count: 3,
      firstPlace: 1,
      lastPlace: 7,
      skipped: { disqualified: 1, unconfirmed: 1, flagged: 1, invited: 1 },
    });

    const { batch, audit } = await inviteNext(3);
    expect(batch).toMatchObject({ requested: 3, invited: 3, queued: 3, sent: 0, state: "sending" });
    expect(batch.skipped).toEqual({ disqualified: 1, unconfirmed: 1, flagged: 1, invited: 1 });
    expect(audit).toMatchObject({
      action: "invite_batch",
      reason: "Launch day, first wave",
      personId: null,
      after: { batch_id: batch.id, requested: 3 },
    });

    const invited = await service.query<{ person_id: string; place: number }>(
      "SELECT person_id, place FROM invitations WHERE batch_id = ?1 ORDER BY place",
      batch.id,
    );
    expect(invited).toEqual([
      { person_id: people[0].id, place: 1 },
      { person_id: people[4].id, place: 5 },
      { person_id: people[6].id, place: 7 },
    ]);
    expect(service.queued().filter((body) => (body as { kind?: string }).kind === "invitation")).toHaveLength(3);
  });

  it("closes up the line behind the invited: places among those still waiting stay 1…N", async () => {
    const people = await signUpConfirmed(service, 5);
    await inviteNext(2);
    expect(await lineOf(service, people)).toEqual([null, null, 1, 2, 3]);
    const answer = await statusOf(service, people[4]);
    expect(answer).toMatchObject({ position: 3, invitation: null });
  });

  it("tells an invited person on their status page: out of line, with the link to accept by the expiry", async () => {
    const [first] = await signUpConfirmed(service, 2);
    await inviteNext(2);
    const answer = (await statusOf(service, first)) as StatusAnswer;
    expect(answer.position).toBeNull();
    expect(answer.invitation).toMatchObject({ state: "invited", expiresAt: expect.any(String) });
    expect(new URL(answer.invitation!.inviteUrl!).pathname).toBe("/invite/");
  });

  it("makes one batch of a double press: the same idempotency key answers the batch it made", async () => {
    await signUpConfirmed(service, 4);
    const { idempotencyKey } = await preview(2);
    const body = { count: 2, reason: "Wave two", idempotencyKey };
    const [first, second] = await Promise.all([post(LAUNCH_BATCHES_ENDPOINT, body), post(LAUNCH_BATCHES_ENDPOINT, body)]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    const batches = await service.query<{ id: string }>("SELECT id FROM launch_batches WHERE idempotency_key = ?1", idempotencyKey);
    expect(batches).toHaveLength(1);
    const [{ n }] = await service.query<{ n: number }>("SELECT count(*) AS n FROM invitations WHERE batch_id = ?1", batches[0].id);
    expect(n).toBe(2);
    const [{ entries }] = await service.query<{ entries: number }>(
      "SELECT count(*) AS entries FROM audit_log WHERE action = 'invite_batch' AND reason = 'Wave two'",
    );
    expect(entries).toBe(1);
  });

  it("makes one batch when two operators press on the same preview, and a new preview names a new key", async () => {
    await signUpConfirmed(service, 4);
    const [one, two] = await Promise.all([preview(1), preview(1)]);
    expect(one.idempotencyKey).toBe(two.idempotencyKey);
    const first = await post(LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: "Operator one", idempotencyKey: one.idempotencyKey });
    const second = await post(LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: "Operator two", idempotencyKey: two.idempotencyKey });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect((await second.json<BatchAnswer>()).batch.reason).toBe("Operator one");
    expect((await preview(1)).idempotencyKey).not.toBe(one.idempotencyKey);
  });

  it("refuses a key reused for another count, and a batch without a reason", async () => {
    await signUpConfirmed(service, 2);
    const { idempotencyKey } = await preview(1);
    expect((await post(LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: "One", idempotencyKey })).status).toBe(201);
    const reused = await post(LAUNCH_BATCHES_ENDPOINT, { count: 2, reason: "Two", idempotencyKey });
    expect(reused.status).toBe(409);
    expect((await errorsOf(reused))[0].code).toBe(LAUNCH_ERROR_CODE.idempotencyKeyReused);
    const unreasoned = await post(LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: " ", idempotencyKey: "another" });
    expect(unreasoned.status).toBe(400);
    expect((await errorsOf(unreasoned))[0].code).toBe("reason_invalid");
  });

  it("invites fewer than asked when the line runs out, and reads the invited and the skipped only", async () => {
    const people = await signUpConfirmed(service, 3);
    const { batch } = await inviteNext(10);
    expect(batch).toMatchObject({ requested: 10, invited: 3 });
    expect(await lineOf(service, people)).toEqual([null, null, null]);
  });

  it("chooses a batch larger than one page, a page at a time, in order", async () => {
    const people = await signUpConfirmed(service, 130);
    const { batch } = await inviteNext(120);
    expect(batch.invited).toBe(120);
    const places = await service.query<{ place: number }>("SELECT place FROM invitations WHERE batch_id = ?1 ORDER BY place", batch.id);
    expect(places.map(({ place }) => place)).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    expect((await lineOf(service, people.slice(120))).slice(0, 3)).toEqual([1, 2, 3]);
  });
});

/**
 * Choose a batch of `count` straight through runBatch, with `meanwhile` run against D1 once, just before the first
 * page's batch of statements (after its people were read): what a referral or an operator does at that moment.
 */
async function chooseWhile(count: number, meanwhile: () => Promise<unknown>): Promise<BatchRow | null> {
  const db = service.env.DB;
  let pending: (() => Promise<unknown>) | null = meanwhile;
  const racing = new Proxy(db, {
    get(target, prop) {
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const run = pending;
          pending = null;
          if (run) await run();
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await createBatch(service.env, { id, idempotencyKey: id, at, operator: "test", reason: "A race", requested: count, origin: "operator" });
  return runBatch({ ...service.env, DB: racing }, ServiceSettingsSchema.parse(TEST_SETTINGS), id);
}

/** The rank tree's rows that count someone, as treeRows() builds them from the scores of everyone in line. */
async function treeOfLine(): Promise<{ stored: [number, number][]; rebuilt: [number, number][] }> {
  const stored = await service.query<{ node: number; count: number }>("SELECT node, count FROM rank_tree WHERE count <> 0 ORDER BY node");
  const scores = await service.query<{ score: number }>("SELECT score FROM signups WHERE score IS NOT NULL");
  return { stored: stored.map(({ node, count }) => [node, count]), rebuilt: treeRows(scores.map(({ score }) => score)) };
}

describe("a page chosen while the line changes", () => {
  it("a referral counted between reading a page and writing it: the page is read again and the tree stays exact", async () => {
    const people = await signUpConfirmed(service, 6);
    // people[5] was referred by people[1]; counting it moves people[1] to the head of the line, mid-page.
    await service.query("UPDATE signups SET referred_by = ?1 WHERE id = ?2", people[1].id, people[5].id);
    const batch = await chooseWhile(2, () =>
      service.env.DB.batch(
        creditStatements(service.env.DB, people[5].id, TEST_SETTINGS.referrals.placesPerReferral, new Date().toISOString()),
      ),
    );
    expect(batch).toMatchObject({ invited: 2, state: "sending" });
    const invited = await service.query<{ person_id: string; place: number }>(
      "SELECT person_id, place FROM invitations WHERE batch_id = ?1 ORDER BY place",
      batch!.id,
    );
    expect(invited).toEqual([
      { person_id: people[1].id, place: 1 },
      { person_id: people[0].id, place: 2 },
    ]);
    expect(await lineOf(service, people)).toEqual([null, null, 1, 2, 3, 4]);
    const { stored, rebuilt } = await treeOfLine();
    expect(stored).toEqual(rebuilt);
  });

  it("a person disqualified between reading a page and writing it is not invited", async () => {
    const people = await signUpConfirmed(service, 4);
    const batch = await chooseWhile(2, () =>
      service.query("UPDATE signups SET disqualified_at = '2026-11-01T00:00:00.000Z' WHERE id = ?1", people[0].id),
    );
    const invited = await service.query<{ person_id: string }>(
      "SELECT person_id FROM invitations WHERE batch_id = ?1 ORDER BY place",
      batch!.id,
    );
    expect(invited.map(({ person_id }) => person_id)).toEqual([people[1].id, people[2].id]);
    expect(batch!.skipped_disqualified).toBe(1);
    expect(await lineOf(service, people)).toEqual([1, null, null, 2]);
    const { stored, rebuilt } = await treeOfLine();
    expect(stored).toEqual(rebuilt);
  });
});

describe("one person", () => {
  it("invites one person from their page, with a reason and an audit entry, and revokes it", async () => {
    const [, second] = await signUpConfirmed(service, 2);
    const invited = await post(personInviteEndpoint(second.id), { reason: "Partner's friend" });
    expect(invited.status).toBe(200);
    const answer = await invited.json<InvitationAnswer>();
    expect(answer.invitation).toMatchObject({ state: "invited", place: 2, batchId: null, send: { state: "queued" } });
    expect(answer.audit).toMatchObject({ action: "invite", personId: second.id, reason: "Partner's friend" });

    const again = await post(personInviteEndpoint(second.id), { reason: "Twice" });
    expect(again.status).toBe(409);
    expect((await errorsOf(again))[0].code).toBe(LAUNCH_ERROR_CODE.invitationNotApplicable);

    const revoked = await post(personRevokeEndpoint(second.id), { reason: "Sent by mistake" });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<InvitationAnswer>()).invitation).toMatchObject({ state: "revoked" });
    expect((await post(personRevokeEndpoint(second.id), { reason: "Again" })).status).toBe(409);
  });

  it("refuses an invitation's reason that names its person, and writes nothing", async () => {
    const [person] = await signUpConfirmed(service, 1);
    const [{ n: before }] = await service.query<{ n: number }>("SELECT count(*) AS n FROM audit_log");
    for (const path of [personInviteEndpoint(person.id), personRevokeEndpoint(person.id)]) {
      const response = await post(path, { reason: "robin asked to be let in early" });
      expect(response.status).toBe(400);
      expect((await errorsOf(response))[0]).toMatchObject({ code: "reason_invalid", source: { pointer: "/reason" } });
    }
    expect(await service.query("SELECT count(*) AS n FROM audit_log")).toEqual([{ n: before }]);
    expect(await service.query("SELECT id FROM invitations WHERE person_id = ?1", person.id)).toEqual([]);
  });

  it("refuses to invite a disqualified person", async () => {
    const [person] = await signUpConfirmed(service, 1);
    await post(personActionEndpoint(person.id, "disqualify"), { reason: "Fake" });
    expect((await post(personInviteEndpoint(person.id), { reason: "Try" })).status).toBe(409);
  });
});

describe("the audit log", () => {
  it("chains every launch entry after the one before, two operators inviting at once included", async () => {
    const people = await signUpConfirmed(service, 3);
    await inviteNext(1);
    const both = await Promise.all([
      post(personInviteEndpoint(people[1].id), { reason: "Press contact" }),
      post(personInviteEndpoint(people[2].id), { reason: "Partner's friend" }),
    ]);
    expect(both.map((response) => response.status)).toEqual([200, 200]);
    expect((await post(personRevokeEndpoint(people[1].id), { reason: "Sent by mistake" })).status).toBe(200);
    const rows = await service.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id");
    expect(rows.slice(-4).map((row) => row.action)).toEqual(["invite_batch", "invite", "invite", "revoke_invitation"]);
    expect(await verifyAuditChain(rows, AUDIT_VERIFIER)).toMatchObject({ ok: true, head: { size: rows.length } });
  });
});

describe("the Launch screen", () => {
  it("counts people by state", async () => {
    const before = await (await service.fetch(LAUNCH_ENDPOINT)).json<LaunchAnswer>();
    const people = await signUpConfirmed(service, 3);
    await inviteNext(2);
    await post(personRevokeEndpoint(people[1].id), { reason: "Changed our mind" });
    const response = await service.fetch(LAUNCH_ENDPOINT);
    expect(response.status).toBe(200);
    const after = await response.json<LaunchAnswer>();
    expect(after.funnel.waiting).toBe(1);
    expect(after.funnel.invited - before.funnel.invited).toBe(1);
    expect(after.funnel.revoked - before.funnel.revoked).toBe(1);
    expect(after.batches[0]).toMatchObject({ requested: 2, invited: 2 });
  });
});
