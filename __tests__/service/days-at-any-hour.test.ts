/**
 * The site's days at the hours that once broke them, against the Worker in workerd with the clock set by each test:
 * just after midnight UTC while the site's day is still yesterday, the last minute and the first of a local day, and
 * a daylight-saving change in the place the launch moment was written for. The Launch screen's funnel by day, the
 * dashboard's days and a count of the rows by their local day agree at each, on a D1 that starts as a new one does
 * (its rollups cut at UTC).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardAnswer } from "../../shared/api/console";
import type { BatchAnswer, LaunchAnswer, LaunchPreview } from "../../shared/api/launch";
import { CONSOLE_DASHBOARD_ENDPOINT } from "../../shared/console";
import { LAUNCH_BATCHES_ENDPOINT, LAUNCH_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT } from "../../shared/launch";
import { localDay } from "../../shared/local-days";
import { rebuildStatements } from "../../worker/src/store/rollups";
import { TEST_SETTINGS, type WaitlistService } from "./support/service";
import { launchService, postJson, signUpConfirmed } from "./support/launch";

/** A service whose build puts the site at `utcOffsetMinutes`. */
const serviceAt = (utcOffsetMinutes: number) => launchService({ settings: { ...TEST_SETTINGS, utcOffsetMinutes } });

const PACIFIC_STANDARD = serviceAt(-480);
const PACIFIC_DAYLIGHT = serviceAt(-420);

/** Run the clock at `at` (an ISO 8601 date-time; Date only: timers stay real). */
function clockAt(at: string): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse(at));
}

/** Nobody signed up or invited, and the rollups cut at UTC, as in a D1 just migrated. */
beforeEach(async () => {
  const db = PACIFIC_STANDARD.env.DB;
  await db.batch([
    db.prepare("UPDATE signups SET invitation_id = NULL"),
    db.prepare("DELETE FROM invitations"),
    db.prepare("DELETE FROM launch_batches"),
    db.prepare("DELETE FROM signups"),
    db.prepare("DELETE FROM rank_tree"),
    db.prepare("UPDATE rollup_settings SET utc_offset_minutes = 0"),
    ...rebuildStatements(db),
  ]);
  PACIFIC_STANDARD.discard();
  PACIFIC_DAYLIGHT.discard();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Invite the next `count` from the console, as the Launch screen does (preview, then the batch). */
async function inviteNext(service: WaitlistService, count: number): Promise<void> {
  const previewed = await service.fetch(`${LAUNCH_PREVIEW_ENDPOINT}?count=${count}`);
  expect(previewed.status).toBe(200);
  const { idempotencyKey } = await previewed.json<LaunchPreview>();
  const made = await postJson(service, LAUNCH_BATCHES_ENDPOINT, { count, reason: "Launch day, first wave", idempotencyKey });
  expect(made.status).toBe(201);
  expect((await made.json<BatchAnswer>()).batch.invited).toBe(count);
}

async function launchAnswer(service: WaitlistService): Promise<LaunchAnswer> {
  const response = await service.fetch(LAUNCH_ENDPOINT);
  expect(response.status).toBe(200);
  return response.json<LaunchAnswer>();
}

async function dashboardAnswer(service: WaitlistService, range: "7d" | "30d" | "all"): Promise<DashboardAnswer> {
  const response = await service.fetch(`${CONSOLE_DASHBOARD_ENDPOINT}?range=${range}`);
  expect(response.status).toBe(200);
  return response.json<DashboardAnswer>();
}

/** The Launch screen's days that count anything, as { date: { joined, invited } }. */
function launchDaysOf(answer: LaunchAnswer): Record<string, { joined: number; invited: number }> {
  return Object.fromEntries(
    answer.days.filter((day) => day.waiting + day.invited > 0).map((day) => [day.date, { joined: day.waiting, invited: day.invited }]),
  );
}

/** The dashboard's days with signups, as { date: signups }. */
function dashboardDaysOf(answer: DashboardAnswer): Record<string, number> {
  return Object.fromEntries(
    answer.days
      .map((day) => [day.date, Object.values(day.signups).reduce((sum, count) => sum + count, 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

/** The rows themselves, each signup and invitation on its local day at `utcOffsetMinutes`: what every screen must show. */
async function rowsByDay(service: WaitlistService, utcOffsetMinutes: number): Promise<Record<string, { joined: number; invited: number }>> {
  const signups = await service.query<{ created_at: string }>("SELECT created_at FROM signups");
  const invitations = await service.query<{ invited_at: string }>("SELECT invited_at FROM invitations");
  const days: Record<string, { joined: number; invited: number }> = {};
  const count = (at: string, what: "joined" | "invited") => {
    const day = (days[localDay(at, utcOffsetMinutes)] ??= { joined: 0, invited: 0 });
    day[what] += 1;
  };
  signups.forEach((row) => count(row.created_at, "joined"));
  invitations.forEach((row) => count(row.invited_at, "invited"));
  return days;
}

describe("just after midnight UTC, while the site's day is still yesterday", () => {
  it.each([
    ["−08:00", PACIFIC_STANDARD, -480],
    ["−07:00", PACIFIC_DAYLIGHT, -420],
  ] as const)("at 00:30 UTC with the site at %s, today's signups and invitations count on the site's today", async (_, service, offset) => {
    clockAt("2026-11-29T00:30:00Z");
    await signUpConfirmed(service, 3);
    await inviteNext(service, 2);

    // The Launch screen opened first, as an operator on launch day does: before the dashboard was ever read.
    const launch = await launchAnswer(service);
    expect(launch.days.at(-1)).toMatchObject({ date: "2026-11-28", waiting: 3, invited: 2 });
    expect(launchDaysOf(launch)).toEqual({ "2026-11-28": { joined: 3, invited: 2 } });
    expect(launchDaysOf(launch)).toEqual(await rowsByDay(service, offset));

    const dashboard = await dashboardAnswer(service, "7d");
    expect(dashboard.days.at(-1)?.date).toBe("2026-11-28");
    expect(dashboardDaysOf(dashboard)).toEqual({ "2026-11-28": 3 });
    expect(dashboard.funnel).toMatchObject({ signedUp: 3, invited: 2 });
  });
});

describe("the last minute of a local day and the first of the next", () => {
  it("counts 23:59 on its day and 00:00 on the next, on the Launch screen and the dashboard alike", async () => {
    const service = PACIFIC_STANDARD;
    clockAt("2026-11-28T23:59:00-08:00");
    await signUpConfirmed(service, 2);
    await inviteNext(service, 1);
    const beforeMidnight = await launchAnswer(service);
    expect(beforeMidnight.days.at(-1)).toMatchObject({ date: "2026-11-28", waiting: 2, invited: 1 });

    clockAt("2026-11-29T00:00:00-08:00");
    await signUpConfirmed(service, 1);
    await inviteNext(service, 1);
    const launch = await launchAnswer(service);
    expect(launch.days.at(-1)).toMatchObject({ date: "2026-11-29", waiting: 1, invited: 1 });
    expect(launchDaysOf(launch)).toEqual({ "2026-11-28": { joined: 2, invited: 1 }, "2026-11-29": { joined: 1, invited: 1 } });
    expect(launchDaysOf(launch)).toEqual(await rowsByDay(service, -480));

    const dashboard = await dashboardAnswer(service, "7d");
    expect(dashboardDaysOf(dashboard)).toEqual({ "2026-11-28": 2, "2026-11-29": 1 });
    expect(dashboard.funnel).toMatchObject({ signedUp: 3, invited: 2 });
  });
});

describe("a daylight-saving change where the launch moment was written", () => {
  it("keeps the moment's offset across the change: every day 24 hours, none doubled or lost, every screen agreeing", async () => {
    // The site at −07:00 (a summer moment in Los Angeles); the clocks there go back at 02:00 on 1 November 2026.
    const service = PACIFIC_DAYLIGHT;
    const start = Date.parse("2026-10-31T07:00:00Z"); // 00:00 on 31 October at −07:00
    for (let hour = 0; hour < 72; hour += 6) {
      clockAt(new Date(start + hour * 3_600_000).toISOString());
      await signUpConfirmed(service, 1);
    }
    // 01:30 on 1 November, the hour Los Angeles lives twice: one moment, one day.
    clockAt("2026-11-01T08:30:00Z");
    await inviteNext(service, 2);
    clockAt("2026-11-01T09:30:00Z");
    await inviteNext(service, 1);

    clockAt("2026-11-02T23:59:00-07:00");
    const launch = await launchAnswer(service);
    const expected = {
      "2026-10-31": { joined: 4, invited: 0 },
      "2026-11-01": { joined: 4, invited: 3 },
      "2026-11-02": { joined: 4, invited: 0 },
    };
    expect(launchDaysOf(launch)).toEqual(expected);
    expect(launchDaysOf(launch)).toEqual(await rowsByDay(service, -420));
    const dates = launch.days.map((day) => day.date);
    expect(new Set(dates).size).toBe(dates.length);
    expect(dates.at(-1)).toBe("2026-11-02");

    const dashboard = await dashboardAnswer(service, "7d");
    expect(dashboardDaysOf(dashboard)).toEqual({ "2026-10-31": 4, "2026-11-01": 4, "2026-11-02": 4 });
    expect(dashboard.timeZone).toBe("Etc/GMT+7");
  });
});
