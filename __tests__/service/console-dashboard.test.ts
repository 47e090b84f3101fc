/**
 * The operator's dashboard (GET /api/console/dashboard), against the Worker in workerd (the Workers pool): signups over
 * several days, sources and UTM values, confirmations, referrals counted and held, every delivery state and a dead
 * letter, all through the real routes and queue consumer (the clock set by the test), then changes as the console and
 * hand-typed SQL make them (an erase, a credit withdrawn, refused rows sent again). Every number the dashboard shows
 * equals a full count of the signups table; days are the site's; a stranger cannot grow the rollups without bound; a
 * load reads the rollups, not the list.
 */
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CONSOLE_DASHBOARD_ENDPOINT, CONSOLE_ERROR_CODE, personActionEndpoint } from "../../shared/console";
import { addDays, localDay } from "../../shared/local-days";
import type { ServiceSettings } from "../../shared/service-settings";
import { rebuildStatements, ROLLUP_TRIGGERS, UTM_VALUES_PER_DAY } from "../../worker/src/store/rollups";
import {
  DEAD_LETTER_QUEUE,
  errorsOf,
  postSignup,
  LOCAL_ORIGIN,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import type { DashboardAnswer } from "../../shared/api/console";

/** The site's time zone in these tests: −07:00, so a day starts at 07:00 UTC. */
const OFFSET_MINUTES = -420;
const SETTINGS: ServiceSettings = { ...TEST_SETTINGS, utcOffsetMinutes: OFFSET_MINUTES };

/** The operator the console's Access middleware lets through outside production. */
const OPERATOR_VARS = { CONSOLE_LOCAL_OPERATOR: "operator@example.com" };

/** Referred signups per code per hour before the next are held: low, so that a held referral is easy to make. */
const PER_CODE_PER_HOUR = 3;

/** The rows a dashboard load may read at most (issue's budget at a million signups; far above what these tests hold). */
const ROWS_READ_BUDGET = 10_000;

/** "Today" in these tests: a Wednesday noon, local. */
const TODAY = "2026-03-11";
const localNoon = (day: string) => Date.parse(`${day}T12:00:00-07:00`);

let demo: WaitlistService;
let live: WaitlistService;
let klaviyo: KlaviyoStandInClient;
let deadLetters = 0;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  const vars = { ...OPERATOR_VARS, REFERRALS_PER_CODE_PER_HOUR: String(PER_CODE_PER_HOUR), REFERRALS_PER_DOMAIN_PER_HOUR: "1000" };
  // Two Workers on the test file's one D1: one without a Klaviyo key (demo delivery, which confirms outside production),
  // one with the stand-in (delivered, refused, and confirmations checked with Klaviyo).
  demo = startWaitlistService({ settings: SETTINGS, vars, origin: LOCAL_ORIGIN });
  live = startWaitlistService({
    settings: SETTINGS,
    origin: LOCAL_ORIGIN,
    vars: { ...vars, KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
  });
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => klaviyo?.close());

let addressNumber = 0;
function newAddress(label: string): string {
  addressNumber += 1;
  return `${label}.${addressNumber}@example.com`;
}

/** What a test signup brings. */
interface SignupSpec {
  source?: string;
  utmSource?: string;
  utmCampaign?: string;
  ref?: string;
  email?: string;
}

/** Sign up through POST /api/signups at the clock's time; the new row's id and referral code. */
async function signUp(service: WaitlistService, spec: SignupSpec = {}): Promise<{ id: string; referralCode: string; email: string }> {
  const email = spec.email ?? newAddress("person");
  const properties: Record<string, string> = {};
  if (spec.utmSource) properties.utm_source = spec.utmSource;
  if (spec.utmCampaign) properties.utm_campaign = spec.utmCampaign;
  const response = await postSignup(service, {
    email,
    firstName: "Jordan",
    lastName: "Smith",
    ...(spec.source ? { source: spec.source } : {}),
    properties,
    ...(spec.ref ? { ref: spec.ref } : {}),
  });
  expect(response.status).toBe(202);
  const { id, referralCode } = await welcomeOf(service, email);
  return { id, referralCode, email };
}

/** Run the clock at `ms` (Date only: timers stay real, the queue and D1 keep their own). */
function clockAt(ms: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

/** The rows D1 read for an answer, from its Server-Timing header. */
function rowsReadOf(response: Response): number {
  const match = /d1-rows-read;desc="(\d+)"/.exec(response.headers.get("server-timing") ?? "");
  expect(match).not.toBeNull();
  return Number(match![1]);
}

/** GET the dashboard as the console page does. */
async function dashboard(
  service: WaitlistService,
  range: string,
): Promise<{ answer: DashboardAnswer; rowsRead: number; response: Response }> {
  const response = await service.fetch(`${CONSOLE_DASHBOARD_ENDPOINT}?range=${range}`);
  expect(response.status).toBe(200);
  return { answer: await response.clone().json<DashboardAnswer>(), rowsRead: rowsReadOf(response), response };
}

/** Every row of the table, as a full count needs it. */
interface FullRow {
  seq: number;
  created_at: string;
  source: string | null;
  properties: string;
  confirmed_at: string | null;
  referred_by: string | null;
  referral_counted_at: string | null;
  delivery_state: string;
}

/** The dashboard's numbers counted from every row of signups, days in the site's time zone. */
async function fullCount(service: WaitlistService, offsetMinutes: number, from: string | null, to: string) {
  const rows = await service.query<FullRow>(
    "SELECT seq, created_at, source, properties, confirmed_at, referred_by, referral_counted_at, delivery_state FROM signups ORDER BY seq",
  );
  const inRange = rows.filter((row) => {
    const day = localDay(row.created_at, offsetMinutes);
    return (from === null || day >= from) && day <= to;
  });
  const days: Record<string, Record<string, number>> = {};
  const utm = { utm_source: new Map<string, number>(), utm_campaign: new Map<string, number>() };
  const confirmed = { utm_source: new Map<string, number>(), utm_campaign: new Map<string, number>() };
  for (const row of inRange) {
    const day = localDay(row.created_at, offsetMinutes);
    const source = row.source ?? "";
    days[day] = { ...days[day], [source]: (days[day]?.[source] ?? 0) + 1 };
    const properties = JSON.parse(row.properties) as Record<string, string>;
    for (const kind of ["utm_source", "utm_campaign"] as const)
      if (properties[kind]) {
        utm[kind].set(properties[kind], (utm[kind].get(properties[kind]) ?? 0) + 1);
        confirmed[kind].set(properties[kind], (confirmed[kind].get(properties[kind]) ?? 0) + (row.confirmed_at === null ? 0 : 1));
      }
  }
  const count = (pick: (row: FullRow) => boolean) => inRange.filter(pick).length;
  const states = (state: string) => rows.filter((row) => row.delivery_state === state).length;
  return {
    days,
    utm,
    confirmed,
    funnel: {
      signedUp: inRange.length,
      confirmed: count((row) => row.confirmed_at !== null),
      referred: count((row) => row.referred_by !== null),
      referralCounted: count((row) => row.referral_counted_at !== null),
    },
    delivery: {
      pending: states("pending"),
      delivered: states("delivered"),
      refused: states("refused"),
      demo: states("demo"),
      oldestPendingAt: rows.find((row) => row.delivery_state === "pending")?.created_at ?? null,
    },
  };
}

/** The dashboard's days as { day: { source: signups } }, days without signups left out. */
function daysOf(answer: DashboardAnswer): Record<string, Record<string, number>> {
  return Object.fromEntries(answer.days.filter((day) => Object.keys(day.signups).length > 0).map((day) => [day.date, day.signups]));
}

/** Every number of a dashboard answer against a full count of the rows it covers. */
async function expectEqualsFullCount(service: WaitlistService, range: "7d" | "30d" | "all", offsetMinutes = OFFSET_MINUTES) {
  const { answer, rowsRead } = await dashboard(service, range);
  const today = localDay(Date.now(), offsetMinutes);
  const from = range === "all" ? null : addDays(today, range === "7d" ? -6 : -29);
  const truth = await fullCount(service, offsetMinutes, from, today);

  expect(daysOf(answer)).toEqual(truth.days);
  expect(answer.days.map((day) => day.date)).toEqual(
    [...Array(answer.days.length).keys()].map((index) => addDays(answer.days[0].date, index)),
  );
  expect(answer.days.at(-1)?.date).toBe(today);
  if (from !== null) expect(answer.days[0].date).toBe(from);
  else expect(answer.days[0].date).toBe(Object.keys(truth.days).sort()[0]);
  const invitations = await service.query<{ invited_at: string; accepted_at: string | null }>(
    "SELECT invited_at, accepted_at FROM invitations",
  );
  const inDays = (at: string | null) =>
    at !== null && (from === null || localDay(at, offsetMinutes) >= from) && localDay(at, offsetMinutes) <= today;
  expect(answer.funnel).toEqual({
    ...truth.funnel,
    viralCoefficient: truth.funnel.signedUp === 0 ? 0 : truth.funnel.referralCounted / truth.funnel.signedUp,
    invited: invitations.filter((row) => inDays(row.invited_at)).length,
    accepted: invitations.filter((row) => inDays(row.accepted_at)).length,
  });
  for (const [kind, listed] of [
    ["utm_source", answer.utmSources],
    ["utm_campaign", answer.utmCampaigns],
  ] as const) {
    // The values with the most confirmed signups, then the most signups.
    const expected = [...truth.utm[kind]]
      .map(([value, signups]) => ({ value, signups, confirmed: truth.confirmed[kind].get(value) ?? 0 }))
      .sort((a, b) => b.confirmed - a.confirmed || b.signups - a.signups || (a.value < b.value ? -1 : 1))
      .slice(0, 10)
      .map(({ value, signups }) => ({ value, signups }));
    expect(listed).toEqual(expected);
    const all = [...truth.utm[kind].values()].reduce((sum, signups) => sum + signups, 0);
    const other = all - expected.reduce((sum, value) => sum + value.signups, 0);
    expect(kind === "utm_source" ? answer.utmSourcesOther : answer.utmCampaignsOther).toBe(other);
  }
  // Deletion jobs owed: refused by Klaviyo, or owed over a day and not refused.
  const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  const owed = await service.query<{ refused_status: number | null; created_at: string }>(
    "SELECT refused_status, created_at FROM erasures",
  );
  expect(answer.delivery).toEqual({
    ...truth.delivery,
    deadLettered: deadLetters,
    erasuresRefused: owed.filter((row) => row.refused_status !== null).length,
    erasuresOverdue: owed.filter((row) => row.refused_status === null && row.created_at < dayAgo).length,
  });

  const referrers = await service.query<{ id: string; referrals: number; flags: string | null; disqualified_at: string | null }>(
    "SELECT id, referrals, flags, disqualified_at FROM signups WHERE referrals > 0 ORDER BY referrals DESC, seq LIMIT 10",
  );
  expect(answer.topReferrers.map(({ id, referrals, flags, disqualified }) => ({ id, referrals, flags, disqualified }))).toEqual(
    referrers.map((row) => ({
      id: row.id,
      referrals: row.referrals,
      flags: row.flags ? row.flags.split(" ") : [],
      disqualified: row.disqualified_at !== null,
    })),
  );
  expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_BUDGET);
  return answer;
}

describe("the dashboard's numbers", () => {
  it("equal a full count of the signups: days by source, UTM values, the funnel, delivery health, top referrers", async () => {
    // Ten days of signups from the three signup pages, with UTM values, referrals (one held for review), each
    // delivery state and a confirmation checked with Klaviyo.
    await klaviyo.setList(TEST_SETTINGS.listId);
    const sources = TEST_SETTINGS.signupPages.map((page) => page.source);
    let referrer: { id: string; referralCode: string } | null = null;
    for (let back = 9; back >= 0; back -= 1) {
      clockAt(localNoon(addDays(TODAY, -back)));
      for (let i = 0; i < (back % 3) + 1; i += 1) {
        const person = await signUp(demo, {
          source: sources[(back + i) % sources.length],
          utmSource: ["newsletter", "twitter", "facebook"][i % 3],
          utmCampaign: back % 2 === 0 ? "spring" : undefined,
        });
        referrer ??= person;
      }
      if (back === 3)
        // More friends within the hour than PER_CODE_PER_HOUR: the last one's referral is held, not counted.
        for (let i = 0; i <= PER_CODE_PER_HOUR; i += 1) await signUp(demo, { ref: referrer!.referralCode, utmSource: "friend" });
    }
    clockAt(localNoon(TODAY));
    await demo.deliver(); // demo delivery: demo, and confirmed outside production
    const delivered = await signUp(live, { source: "Spring campaign", utmSource: "newsletter" });
    const refusedEmail = newAddress("refused");
    await klaviyo.refuse(refusedEmail);
    await signUp(live, { email: refusedEmail, utmSource: "newsletter" });
    await live.deliver(); // delivered; refused and dead-lettered, the dead letter consumed
    deadLetters += 1;
    expect(live.queued(DEAD_LETTER_QUEUE)).toEqual([]);
    await klaviyo.addToList(TEST_SETTINGS.listId, delivered.email);
    live.enqueue("waitlist-delivery", { signupId: delivered.id, kind: "confirm" });
    await live.deliver(); // the confirmation, checked with Klaviyo
    await signUp(live, { source: "Print flyer" }); // stays pending

    const answer = await expectEqualsFullCount(demo, "all");
    // The seeding made each kind of number it checks, so none of them is equal by being zero.
    expect(answer.funnel.referred).toBeGreaterThan(answer.funnel.referralCounted);
    expect(answer.funnel.referralCounted).toBeGreaterThan(0);
    expect(answer.funnel.confirmed).toBeGreaterThan(0);
    expect(answer.delivery).toMatchObject({ delivered: 1, refused: 1, pending: 1, deadLettered: 1 });
    expect(answer.days).toHaveLength(10);
    expect(answer.topReferrers[0]).toMatchObject({ id: referrer!.id, referrals: PER_CODE_PER_HOUR });
    expect(answer.sources.map((source) => source.path)).toEqual(TEST_SETTINGS.signupPages.map((page) => page.path));
    expect(answer.timeZone).toBe("Etc/GMT+7");
    await expectEqualsFullCount(demo, "7d");
    await expectEqualsFullCount(demo, "30d");
  });

  it("still equal a full count after an erase, a credit withdrawn and refused signups sent again", async () => {
    clockAt(localNoon(TODAY));
    const [top] = await demo.query<{ id: string }>("SELECT id FROM signups WHERE referrals > 0 ORDER BY referrals DESC LIMIT 1");
    const [friend] = await demo.query<{ id: string }>(
      "SELECT id FROM signups WHERE referral_counted_at IS NOT NULL ORDER BY seq DESC LIMIT 1",
    );
    // As the console does them: a friend's credit withdrawn (disqualify), the referrer erased, refused rows sent again.
    await demo.query(
      "UPDATE signups SET referral_counted_at = NULL, disqualified_at = ?2 WHERE id = ?1",
      friend.id,
      new Date().toISOString(),
    );
    await demo.query("UPDATE signups SET referrals = referrals - 1 WHERE id = ?1", top.id);
    await demo.query("DELETE FROM signups WHERE id = ?1", top.id);
    await demo.query("UPDATE signups SET delivery_state = 'pending', delivery_due_at = NULL WHERE delivery_state = 'refused'");

    const answer = await expectEqualsFullCount(demo, "all");
    expect(answer.topReferrers.map((person) => person.id)).not.toContain(top.id);
    // The people they referred stay, no longer "came through a link" (the foreign key cleared referred_by).
    expect(await demo.query("SELECT id FROM signups WHERE referred_by = ?1", top.id)).toEqual([]);
    expect(await demo.query("SELECT id FROM signups WHERE id = ?1", friend.id)).toHaveLength(1);
    expect(answer.delivery).toMatchObject({ refused: 0, pending: 2 });
    await expectEqualsFullCount(demo, "7d");
  });

  it("count days in the site's time zone: a signup just before local midnight lands on its local day", async () => {
    const day = addDays(TODAY, -1);
    clockAt(Date.parse(`${day}T23:59:30-07:00`)); // 06:59:30 UTC the next day
    const late = await signUp(demo, { source: "Print flyer" });
    clockAt(Date.parse(`${TODAY}T00:00:30-07:00`));
    const early = await signUp(demo, { source: "Print flyer" });
    const [lateRow, earlyRow] = await demo.query<{ created_at: string }>(
      "SELECT created_at FROM signups WHERE id IN (?1, ?2) ORDER BY seq",
      late.id,
      early.id,
    );
    expect(lateRow.created_at.slice(0, 10)).toBe(TODAY); // its UTC date is already the next day
    expect(earlyRow.created_at.slice(0, 10)).toBe(TODAY);

    clockAt(localNoon(TODAY));
    const before = await fullCount(demo, OFFSET_MINUTES, null, TODAY);
    const { answer } = await dashboard(demo, "7d");
    const signupsOn = (date: string) => answer.days.find((entry) => entry.date === date)?.signups["Print flyer"];
    expect(signupsOn(day)).toBe(before.days[day]["Print flyer"]);
    expect(signupsOn(TODAY)).toBe(before.days[TODAY]["Print flyer"]);
    await expectEqualsFullCount(demo, "7d");
  });

  it("follow the build's time zone when it changes: the days are cut again from the rows", async () => {
    clockAt(localNoon(TODAY));
    const india = startWaitlistService({ settings: { ...SETTINGS, utcOffsetMinutes: 330 }, vars: OPERATOR_VARS, origin: LOCAL_ORIGIN });
    const answer = await expectEqualsFullCount(india, "all", 330);
    expect(answer.timeZone).toBe("+05:30");
    expect(india.output()).toContain('"event":"rollups_rezoned"');
    // And back: the next load in the site's own zone cuts them again.
    await expectEqualsFullCount(demo, "all");
  });

  it("are read from the rollups: a load reads the rows of its days, not the list", async () => {
    clockAt(localNoon(TODAY));
    const [{ n: dayRows }] = await demo.query<{ n: number }>("SELECT count(*) AS n FROM rollup_days WHERE day >= ?1", addDays(TODAY, -6));
    const [{ n: utmRows }] = await demo.query<{ n: number }>(
      "SELECT count(*) AS n FROM rollup_utm WHERE day >= ?1 AND day <> ''",
      addDays(TODAY, -6),
    );
    const before = (await dashboard(demo, "7d")).rowsRead;
    // settings 1 + days + each UTM row twice (its entry in rollup_utm_top and its lookup) + the 7 days × 2 kinds the
    // UTM query walks + a total per kind and day + 5 counters + the oldest pending 1 + top referrers ≤ 10, and for each
    // query at most one row past the end of its range or an index entry beside its row
    expect(before).toBeLessThanOrEqual(2 * (1 + dayRows + 2 * utmRows + 7 * 2 + 7 * 2 + 5 + 1 + 10));
    // Fifty more signups on days already counted, values already seen: the same rows, the same reads.
    for (let i = 0; i < 50; i += 1) await signUp(demo, { source: "Waitlist", utmSource: "newsletter" });
    expect((await dashboard(demo, "7d")).rowsRead).toBe(before);
  });

  it("the rollups after an erase: the erased person's values are gone", async () => {
    clockAt(localNoon(addDays(TODAY, -2)));
    const erased = await signUp(demo, { utmSource: "erased-source", utmCampaign: "erased-campaign", source: "Print flyer" });
    const [{ n: before }] = await demo.query<{ n: number }>("SELECT count(*) AS n FROM rollup_utm WHERE value LIKE 'erased-%'");
    expect(before).toBe(4); // two kinds, its day and all time
    const response = await demo.fetch(personActionEndpoint(erased.id, "erase"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "Privacy request" }),
    });
    expect(response.status).toBe(200);

    expect(await demo.query("SELECT * FROM rollup_utm WHERE value LIKE 'erased-%'")).toEqual([]);
    // No rollup row counts nobody.
    expect(await demo.query("SELECT * FROM rollup_utm WHERE signups <= 0")).toEqual([]);
    expect(await demo.query("SELECT * FROM rollup_utm_totals WHERE signups <= 0")).toEqual([]);
    expect(await demo.query("SELECT * FROM rollup_days WHERE signups <= 0")).toEqual([]);
    clockAt(localNoon(TODAY));
    const { answer } = await dashboard(demo, "all");
    expect([...answer.utmSources, ...answer.utmCampaigns].map((value) => value.value)).not.toContain("erased-source");
    await expectEqualsFullCount(demo, "7d");
  });
});

describe("a stranger", () => {
  it("25 junk UTM values and a real one: google still shows on the dashboard", async () => {
    // A day of its own, the 7-day range ending on it holding nothing else.
    const day = addDays(TODAY, -12);
    clockAt(localNoon(day));
    // The junk arrives first, on the Worker with Klaviyo: delivered, never confirmed.
    for (let i = 0; i < 25; i += 1) await signUp(live, { utmSource: `junk-${i}` });
    // Then people who came by google and confirmed (demo delivery confirms them).
    for (let i = 0; i < 3; i += 1) await signUp(demo, { utmSource: "google" });
    await demo.deliver();

    const { answer } = await dashboard(demo, "7d");
    expect(answer.utmSources[0]).toEqual({ value: "google", signups: 3 });
    expect(answer.utmSources).toHaveLength(10);
    // The 9 junk values listed after it have one signup each; the other 16 are "other".
    expect(answer.utmSourcesOther).toBe(25 - 9);
    clockAt(localNoon(TODAY));
    expect((await dashboard(demo, "30d")).answer.utmSources.map((value) => value.value)).toContain("google");
    expect((await dashboard(demo, "all")).answer.utmSources.map((value) => value.value)).toContain("google");
  });

  it("makes up values in vain: a load reads as many rows for 110 values of a day as for 12", async () => {
    const day = addDays(TODAY, -20);
    clockAt(localNoon(day));
    for (let i = 0; i < 12; i += 1) await signUp(demo, { utmSource: `flood-${i}`, utmCampaign: `flood-${i}` });
    const before = await dashboard(demo, "7d");
    for (let i = 12; i < 110; i += 1) await signUp(demo, { utmSource: `flood-${i}`, utmCampaign: `flood-${i}` });
    const after = await dashboard(demo, "7d");
    expect(after.rowsRead).toBe(before.rowsRead);
    // Every signup is still counted: in a listed value or in "other".
    const listed = after.answer.utmSources.reduce((sum, value) => sum + value.signups, 0);
    expect(listed + after.answer.utmSourcesOther).toBe(110);
    expect(after.answer.utmSources).toHaveLength(UTM_VALUES_PER_DAY);
  });

  it("gets 400 parameter_invalid for a range the dashboard does not have", async () => {
    for (const range of ["365d", "", "7D", "all&range=7d"]) {
      const response = await demo.fetch(`${CONSOLE_DASHBOARD_ENDPOINT}?range=${encodeURIComponent(range)}`);
      expect(response.status).toBe(400);
      expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.parameterInvalid);
    }
  });
});

describe("dead letters", () => {
  it("are counted once per message the dead-letter queue hands over", async () => {
    const before = (await dashboard(demo, "7d")).answer.delivery.deadLettered;
    demo.enqueue(DEAD_LETTER_QUEUE, { signupId: "no-such-signup" });
    demo.enqueue(DEAD_LETTER_QUEUE, { signupId: "another", kind: "profile" });
    await demo.deliver();
    deadLetters += 2;
    expect((await dashboard(demo, "7d")).answer.delivery.deadLettered).toBe(before + 2);
  });
});

describe("the migration's backfill and the rebuild", () => {
  /** The rollups, in a stable order (every row counts someone: the triggers delete a row whose count falls to 0). */
  async function rollups(service: WaitlistService): Promise<unknown[]> {
    return [
      ...(await service.query("SELECT * FROM rollup_days ORDER BY day, source")),
      ...(await service.query("SELECT * FROM rollup_utm ORDER BY day, kind, value")),
      ...(await service.query("SELECT * FROM rollup_utm_totals ORDER BY day, kind")),
      ...(await service.query("SELECT * FROM rollup_counters ORDER BY name")),
      ...(await service.query("SELECT * FROM rollup_launch_days ORDER BY day, state")),
    ];
  }

  it("run on the triggers the store names, each its own statement of the migrations", async () => {
    const triggers = await demo.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rollups%'");
    expect(triggers.map((trigger) => trigger.name).sort()).toEqual([...ROLLUP_TRIGGERS].sort());
    const creates = env.TEST_MIGRATIONS.flatMap((entry) => entry.queries).filter((query) => query.includes("CREATE TRIGGER rollups"));
    for (const name of ROLLUP_TRIGGERS) expect(creates.some((query) => query.includes(`CREATE TRIGGER ${name} `))).toBe(true);
  });

  it("count from the rows exactly what the triggers counted, one signup at a time", async () => {
    const kept = await rollups(demo);
    expect(kept.length).toBeGreaterThan(20);

    // An existing database as migrations 0010 and 0013 meet it: their own counts, taken from the rows.
    // Their statements that count (comments left out): rollup_days' and the delivery states' (0010), rollup_utm's and
    // its totals' (0013).
    const statements = (prefix: string, pattern: RegExp) =>
      env.TEST_MIGRATIONS.find((entry) => entry.name.startsWith(prefix))!
        .queries.map((query) => query.replace(/^\s*--.*$/gm, "").trim())
        .filter((query) => pattern.test(query));
    const backfill = [
      ...statements("0010_", /^INSERT INTO rollup_days \(day|^INSERT INTO rollup_counters \(name, count\)\s+SELECT/),
      ...statements("0013_", /^INSERT INTO rollup_utm(_totals)? \(day/),
      ...statements("0018_", /^INSERT INTO rollup_launch_days \(day/),
    ];
    expect(backfill).toHaveLength(5);
    await demo.query("DELETE FROM rollup_launch_days");
    await demo.query("DELETE FROM rollup_days");
    await demo.query("DELETE FROM rollup_utm");
    await demo.query("DELETE FROM rollup_utm_totals");
    await demo.query("DELETE FROM rollup_counters WHERE name LIKE 'delivery%'");
    for (const query of backfill) await demo.query(query);
    expect(await rollups(demo)).toEqual(kept);

    await env.DB.batch(rebuildStatements(env.DB));
    expect(await rollups(demo)).toEqual(kept);
  });
});
