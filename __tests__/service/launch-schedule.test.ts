/**
 * Launch day's operator controls beyond "invite the next N" (docs/operators.md: Launch), in workerd with `npm start`'s
 * local operator: the schedule run by the cron once a day until paused, a batch paused and resumed, the funnel by day,
 * a person's invitation on their page and sent again under the same unique_id, and the dashboard's invited and
 * accepted.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardAnswer } from "../../shared/api/console";
import type { BatchActionAnswer, InvitationAnswer, LaunchAnswer, PersonInvitationAnswer, ScheduleAnswer } from "../../shared/api/launch";
import { CONSOLE_DASHBOARD_ENDPOINT } from "../../shared/console";
import {
  BATCH_ERROR_CODE,
  batchActionEndpoint,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_SCHEDULE_ENDPOINT,
  personInvitationEndpoint,
  personInviteEndpoint,
  personResendEndpoint,
} from "../../shared/launch";
import { addDays, localDay } from "../../shared/local-days";
import { rebuildStatements } from "../../worker/src/store/rollups";
import { errorsOf, LOCAL_ORIGIN, TEST_SETTINGS, type WaitlistService } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import { inviteNext, launchService, lineOf, postJson, resetLine, signUpConfirmed } from "./support/launch";

const service = launchService();
const DAY_MS = 86_400_000;

beforeEach(() => resetLine(service));

function putSchedule(target: WaitlistService, body: unknown): Promise<Response> {
  return target.fetch(LAUNCH_SCHEDULE_ENDPOINT, {
    method: "PUT",
    headers: { "content-type": "application/json", origin: LOCAL_ORIGIN },
    body: JSON.stringify(body),
  });
}

async function launch(): Promise<LaunchAnswer> {
  const response = await service.fetch(LAUNCH_ENDPOINT);
  expect(response.status).toBe(200);
  return response.json<LaunchAnswer>();
}

/** The moment of HH:MM on the local day of `at` in the test settings' time zone (ms). */
function localMoment(at: number, timeOfDay: string): number {
  const offset = TEST_SETTINGS.utcOffsetMinutes;
  return Date.parse(`${localDay(at, offset)}T${timeOfDay}:00Z`) - offset * 60_000;
}

describe("the schedule", () => {
  it("invites up to N at the time of day, once that day however many ticks see it, then the next day again", async () => {
    const people = await signUpConfirmed(service, 5);
    const response = await putSchedule(service, { dailyCount: 2, timeOfDay: "09:00", paused: false, reason: "Two a day" });
    expect(response.status).toBe(200);
    const { schedule, audit } = await response.json<ScheduleAnswer>();
    expect(schedule).toMatchObject({ dailyCount: 2, timeOfDay: "09:00", paused: false, nextRunAt: expect.any(String) });
    expect(audit).toMatchObject({
      action: "launch_schedule",
      reason: "Two a day",
      after: { daily_count: 2, time_of_day: "09:00", paused: false },
    });

    // The next run is the first 09:00 after the schedule was set; before it nothing, at it two, after it no more.
    const first = Date.parse(schedule.nextRunAt!);
    expect(new Date(first).toISOString()).toBe(new Date(localMoment(first, "09:00")).toISOString());
    await service.scheduled("*/5 * * * *", first - 60_000);
    const invitedOf = async () =>
      (
        await service.query<{ n: number }>(
          `SELECT count(*) AS n FROM signups WHERE invitation_id IS NOT NULL AND id IN (${people.map(() => "?").join(", ")})`,
          ...people.map((person) => person.id),
        )
      )[0].n;
    expect(await invitedOf()).toBe(0);
    await service.scheduled("*/5 * * * *", first + 60_000);
    await service.scheduled("*/5 * * * *", first + 6 * 60_000);
    expect(await invitedOf()).toBe(2);
    const [entry] = await service.query<{ operator: string; after: string }>(
      "SELECT operator, after FROM audit_log WHERE action = 'invite_batch' ORDER BY id DESC LIMIT 1",
    );
    expect(entry.operator).toBe("schedule");
    expect(JSON.parse(entry.after)).toMatchObject({ requested: 2, schedule: true });

    await service.scheduled("*/5 * * * *", first + DAY_MS + 60_000);
    expect(await invitedOf()).toBe(4);
  });

  it("invites nobody while paused, and the pause is its own audit entry with the reason", async () => {
    await signUpConfirmed(service, 2);
    await putSchedule(service, { dailyCount: 1, timeOfDay: "09:00", paused: false, reason: "One a day" });
    const paused = await putSchedule(service, { dailyCount: 1, timeOfDay: "09:00", paused: true, reason: "Klaviyo flow broken" });
    const { schedule, audit } = await paused.json<ScheduleAnswer>();
    expect(schedule).toMatchObject({ paused: true, nextRunAt: null });
    expect(audit).toMatchObject({ reason: "Klaviyo flow broken", before: { paused: false }, after: { paused: true } });
    const [{ before }] = await service.query<{ before: number }>("SELECT count(*) AS before FROM launch_batches");
    await service.scheduled("*/5 * * * *", Date.now() + 2 * DAY_MS);
    const [{ after }] = await service.query<{ after: number }>("SELECT count(*) AS after FROM launch_batches");
    expect(after).toBe(before);
    expect((await launch()).schedule).toMatchObject({ paused: true, reason: "Klaviyo flow broken" });
  });

  it("a future day's schedule key cannot be taken ahead: the press is refused and that day's run invites", async () => {
    const people = await signUpConfirmed(service, 2);
    const response = await putSchedule(service, { dailyCount: 1, timeOfDay: "09:00", paused: false, reason: "One a day" });
    const first = Date.parse((await response.json<ScheduleAnswer>()).schedule.nextRunAt!);
    const day = localDay(first + 3 * DAY_MS, TEST_SETTINGS.utcOffsetMinutes);
    const ahead = await postJson(service, LAUNCH_BATCHES_ENDPOINT, { count: 1, reason: "Taken ahead", idempotencyKey: `schedule:${day}` });
    expect(ahead.status).toBe(400);
    expect((await errorsOf(ahead)).map((error) => error.source?.pointer)).toEqual(["/idempotencyKey"]);
    expect(await service.query("SELECT id FROM launch_batches WHERE idempotency_key = ?1", `schedule:${day}`)).toEqual([]);

    await service.scheduled("*/5 * * * *", first + 3 * DAY_MS + 60_000);
    const [batch] = await service.query<{ operator: string; invited: number }>(
      "SELECT operator, invited FROM launch_batches WHERE idempotency_key = ?1",
      `schedule:${day}`,
    );
    expect(batch).toMatchObject({ operator: "schedule", invited: 1 });
    expect((await lineOf(service, people)).filter((place) => place === null)).toHaveLength(1);
  });

  it.each([
    [{ dailyCount: 2, timeOfDay: "9am", paused: false, reason: "x" }, "/timeOfDay"],
    [{ dailyCount: 0, timeOfDay: "09:00", paused: false, reason: "x" }, "/dailyCount"],
    [{ dailyCount: 2, timeOfDay: "09:00", paused: false }, "/reason"],
  ])("refuses a schedule that is not one (%j): 400 pointing at the field", async (body, pointer) => {
    const response = await putSchedule(service, body);
    expect(response.status).toBe(400);
    expect((await errorsOf(response)).map((error) => error.source?.pointer)).toContain(pointer);
  });
});

describe("pausing a batch", () => {
  let klaviyo: KlaviyoStandInClient;
  let sending: WaitlistService;
  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    sending = launchService({ vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl } });
  });
  afterAll(() => klaviyo.close());

  it("holds its events while paused, sends each once resumed, and audits both with their reason", async () => {
    sending.discard();
    const people = await signUpConfirmed(service, 3);
    const { batch } = await inviteNext(sending, 3);
    const eventsBefore = (await klaviyo.records()).events.length;

    const pause = await postJson(sending, batchActionEndpoint(batch.id, "pause"), { reason: "Wrong template" });
    expect(pause.status).toBe(200);
    const paused = await pause.json<BatchActionAnswer>();
    expect(paused.batch.pausedAt).toEqual(expect.any(String));
    expect(paused.audit).toMatchObject({ action: "pause_batch", reason: "Wrong template" });
    expect((await postJson(sending, batchActionEndpoint(batch.id, "pause"), { reason: "Again" })).status).toBe(409);

    await sending.deliver();
    // Nor does the cron's sweep send them while paused.
    await sending.scheduled("*/5 * * * *", Date.now() + 2 * 3_600_000);
    await sending.deliver();
    expect((await klaviyo.records()).events.length).toBe(eventsBefore);
    expect((await launch()).batches.find((row) => row.id === batch.id)).toMatchObject({ queued: 3, sent: 0 });

    const resume = await postJson(sending, batchActionEndpoint(batch.id, "resume"), { reason: "Template fixed" });
    expect(resume.status).toBe(200);
    expect((await resume.json<BatchActionAnswer>()).audit).toMatchObject({ action: "resume_batch", reason: "Template fixed" });
    for (let round = 0; round < 5 && sending.queued().length > 0; round += 1) await sending.deliver();
    const events = (await klaviyo.records()).events.slice(eventsBefore);
    expect(events.map((event) => event.email).sort()).toEqual(people.map((person) => person.email).sort());
    expect(new Set(events.map((event) => event.uniqueId)).size).toBe(3);
    expect((await launch()).batches.find((row) => row.id === batch.id)).toMatchObject({
      queued: 0,
      sent: 3,
      state: "done",
      pausedAt: null,
    });
  });

  it("answers 404 batch_not_found for a batch that does not exist", async () => {
    const response = await postJson(service, batchActionEndpoint("no-such-batch", "pause"), { reason: "x" });
    expect(response.status).toBe(404);
    expect((await errorsOf(response))[0].code).toBe(BATCH_ERROR_CODE.batchNotFound);
  });

  it("sends a failed invitation again under the same unique_id, and refuses to send one Klaviyo took", async () => {
    sending.discard();
    const [ada] = await signUpConfirmed(service, 1);
    await klaviyo.refuse(ada.email);
    await postJson(sending, personInviteEndpoint(ada.id), { reason: "Press" });
    await sending.deliver();
    const failed = await (await sending.fetch(personInvitationEndpoint(ada.id))).json<PersonInvitationAnswer>();
    expect(failed.invitation?.send.state).toBe("failed");
    await klaviyo.reset();
    const eventsBefore = (await klaviyo.records()).events.length;

    const again = await postJson(sending, personResendEndpoint(ada.id), { reason: "Klaviyo fixed" });
    expect(again.status).toBe(200);
    expect((await again.json<InvitationAnswer>()).audit).toMatchObject({ action: "resend_invitation", reason: "Klaviyo fixed" });
    // A double press: the second finds it queued and queues it again; Klaviyo records one event by its unique_id.
    await postJson(sending, personResendEndpoint(ada.id), { reason: "Klaviyo fixed" });
    for (let round = 0; round < 5 && sending.queued().length > 0; round += 1) await sending.deliver();
    const sent = await (await sending.fetch(personInvitationEndpoint(ada.id))).json<PersonInvitationAnswer>();
    expect(sent.invitation?.send.state).toBe("sent");
    const ids = (await klaviyo.records()).events.slice(eventsBefore).map((event) => event.uniqueId);
    expect(new Set(ids)).toEqual(new Set([sent.invitation!.id]));

    const refused = await postJson(sending, personResendEndpoint(ada.id), { reason: "Once more" });
    expect(refused.status).toBe(409);
  });
});

describe("the funnel by day", () => {
  /** "Now" for these tests: the last minute of a day in the site's time zone (UTC in the test settings). */
  const NOW = "2026-03-11T23:59:00Z";
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(NOW));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts today's joined, invited, accepted and revoked in the site's time zone, the last 30 days in order", async () => {
    const before = (await launch()).days.at(-1)!;
    const people = await signUpConfirmed(service, 3);
    await inviteNext(service, 2);
    await postJson(service, `${personInviteEndpoint(people[0].id).replace(/invite$/, "revoke")}`, { reason: "Mistake" });
    const answer = await launch();
    expect(answer.days).toHaveLength(30);
    const today = "2026-03-11";
    expect(localDay(NOW, TEST_SETTINGS.utcOffsetMinutes)).toBe(today);
    expect(answer.days[0].date).toBe(addDays(today, -29));
    const last = answer.days.at(-1)!;
    expect(last.date).toBe(today);
    expect(last.waiting - before.waiting).toBe(3);
    expect(last.invited - before.invited).toBe(2);
    expect(last.revoked - before.revoked).toBe(1);
    // The triggers' counts are what a rebuild counts from the invitations.
    const kept = await service.query("SELECT * FROM rollup_launch_days ORDER BY day, state");
    await service.env.DB.batch(rebuildStatements(service.env.DB));
    expect(await service.query("SELECT * FROM rollup_launch_days ORDER BY day, state")).toEqual(kept);
  });

  it("reads the same rows however many people join: the Launch screen's Server-Timing does not grow with the list", async () => {
    const rowsRead = async () => {
      const response = await service.fetch(LAUNCH_ENDPOINT);
      return Number(/d1-rows-read;desc="(\d+)"/.exec(response.headers.get("server-timing") ?? "")?.[1]);
    };
    await signUpConfirmed(service, 2);
    const before = await rowsRead();
    expect(before).toBeGreaterThan(0);
    // Ten more today, from the same source: the same rollup rows, the same reads.
    await signUpConfirmed(service, 10);
    expect(await rowsRead()).toBe(before);
  });

  it("gives the dashboard's funnel invited and accepted", async () => {
    const before = await (await service.fetch(`${CONSOLE_DASHBOARD_ENDPOINT}?range=7d`)).json<DashboardAnswer>();
    // A count no other test of this file asks for: the schedule's batches, made "tomorrow", are the newest, and a
    // preview's key names the newest batch and the count.
    await signUpConfirmed(service, 4);
    await inviteNext(service, 4);
    const after = await (await service.fetch(`${CONSOLE_DASHBOARD_ENDPOINT}?range=7d`)).json<DashboardAnswer>();
    expect(after.funnel.invited - before.funnel.invited).toBe(4);
    expect(after.funnel.accepted).toBe(before.funnel.accepted);
  });
});
