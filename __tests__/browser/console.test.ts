/**
 * The operator's console against the real local runtime: the waitlist build served by a `wrangler dev` of this file's
 * own (its own D1), with Cloudflare Access played by a loopback stand-in (scripts/lib/access-stand-in.ts) whose tokens
 * the browser sends as Access's edge would. Refused without a valid token, in the content's words; with one, the
 * dashboard's table holds the counts of the stored rows; a disqualify through the dialog moves the referrer and the
 * leaderboard at once; the giveaway draw's screen shows the published rules and the Worker's refusal of a late commitment.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { startAccessStandIn, type AccessStandIn } from "../../scripts/lib/access-stand-in";
import { applyMigrations, d1Query, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";
import { consoleFormat } from "../../src/console/format";
import { localDay, timeZoneName, utcOffsetMinutesOf } from "../../shared/local-days";
import { expectNoAxeViolations } from "./support/axe";
import { consoleUrl } from "./support/console-page";
import { expect, test, waitForHydration, type GuardedContextOptions, type GuardedContext } from "./support/fixtures";
import { fixtureCampaign, waitlistContent } from "./support/fixture-content";
import { focusProblems, layoutProblems, SCREENS } from "./support/layout";
import { waitlistAssetsDir } from "./support/run-env";
import { demoLinksIn, nextClientIp } from "./support/waitlist-service";

const CONTENT = waitlistContent();
const copy = CONTENT.console;
/** The draw rules the fixture publishes. */
const FIXTURE_DRAW = CONTENT.draw;
const OFFSET_MINUTES = utcOffsetMinutesOf(CONTENT.launch.moment);
const format = consoleFormat(CONTENT.site.language, timeZoneName(OFFSET_MINUTES));
/** The custom source of each signup page of the build, and the column the dashboard names it by (the page's path). */
const SITE_SOURCE = CONTENT.provider.source ?? "";
const CAMPAIGN = fixtureCampaign();
const COLUMN_OF_SOURCE: Record<string, string> = { [SITE_SOURCE]: "/", [CAMPAIGN.content.campaign.source]: CAMPAIGN.pagePath };

let access: AccessStandIn;
let service: WranglerDev;
let stateDir: string;

/** A further guarded context (the test's `newGuardedContext` fixture). */
type NewContext = (options?: GuardedContextOptions) => Promise<GuardedContext>;

/** A seeded person: the status token and referral code of their welcome. */
interface Seeded {
  email: string;
  token: string;
  referralCode: string;
}

/** Sign up through the API as a visitor would, from a network of their own. */
async function signUp(
  email: string,
  firstName: string,
  lastName: string,
  extra: Record<string, string> = {},
  clientIp = nextClientIp(),
): Promise<Seeded> {
  const response = await fetch(`${service.origin}/api/signups`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": clientIp },
    body: JSON.stringify({ email, firstName, lastName, ...extra }),
  });
  expect(response.status).toBe(202);
  // The answer says nothing about anyone: the links come as a newcomer's e-mail would bring them, from demo delivery.
  const links = await demoLinksIn(email, stateDir, () => service.output());
  return {
    email,
    token: new URL(links.statusUrl).hash.replace(/^#t=/, ""),
    referralCode: new URL(links.referralUrl).searchParams.get("ref") ?? "",
  };
}

/** A person's standing as their status page reads it (never cached). */
async function standing(person: Seeded): Promise<{ position: number; referrals: number }> {
  const response = await fetch(`${service.origin}/api/status`, { headers: { authorization: `Bearer ${person.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { position: number; referrals: number };
}

/** The network Ivy and her friend Iris share (a test address, 198.18.0.0/15, no other signup uses). */
const IVY_NETWORK = "198.19.254.7";

/** The operator Access signs in. */
const OPERATOR = "ops@pickfund.example";
/**
 * How long this file's own service may take to start and take the seeded signups through demo delivery, on a loaded
 * machine (ms): a service start and nine signups, more than one test's limit.
 */
const SEEDING_TIMEOUT_MS = 240_000;
/** How long demo delivery may take to confirm both sides of the seeded referrals (ms): the local queue's batches. */
const CONFIRMATION_TIMEOUT_MS = 30_000;

let rhea: Seeded;
let sam: Seeded;
let friend: Seeded;

test.beforeAll(async () => {
  test.setTimeout(SEEDING_TIMEOUT_MS);
  access = await startAccessStandIn();
  stateDir = await mkdtemp(path.join(tmpdir(), "console-browser-"));
  await applyMigrations(stateDir);
  service = await startWranglerDev({
    assetsDir: waitlistAssetsDir(),
    persistTo: stateDir,
    // As globalSetup's service (demo delivery, no Turnstile check), with Access in front of the console.
    vars: {
      KLAVIYO_PRIVATE_API_KEY: "",
      TURNSTILE_SECRET_KEY: "",
      IP_HASH_SALT: "",
      ACCESS_TEAM_DOMAIN: access.teamDomain,
      ACCESS_AUD: access.aud,
      // The operator signed in below may act; anyone else Access lets in is a viewer.
      CONSOLE_OPERATORS: OPERATOR,
    },
  });
  // Rhea brings two friends and Sam two, after her: with as many referrals, Rhea is ahead. Both show on the board.
  rhea = await signUp("rhea@example.test", "Rhea", "Ray");
  sam = await signUp("sam@example.test", "Sam", "Sol", { source: CAMPAIGN.content.campaign.source });
  friend = await signUp("fern@example.test", "Fern", "Fox", { ref: rhea.referralCode });
  await signUp("finn@example.test", "Finn", "Fry", { ref: rhea.referralCode, source: CAMPAIGN.content.campaign.source });
  await signUp("gail@example.test", "Gail", "Gee", { ref: sam.referralCode });
  await signUp("gus@example.test", "Gus", "Gray", { ref: sam.referralCode });
  await signUp("hal@example.test", "Hal", "Hay");
  // Ivy's friend Iris signs up from Ivy's own network: flagged for review (neither is on the board).
  const ivy = await signUp("ivy@example.test", "Ivy", "Ink", {}, IVY_NETWORK);
  await signUp("iris@example.test", "Iris", "Ink", { ref: ivy.referralCode }, IVY_NETWORK);
  for (const person of [rhea, sam]) {
    const shown = await fetch(`${service.origin}/api/status/leaderboard`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${person.token}`, origin: service.origin },
      body: JSON.stringify({ shown: true }),
    });
    expect(shown.status).toBe(200);
  }
  // Referrals count once demo delivery has confirmed both sides (a local run's stand-in for Klaviyo's confirmation).
  await expect
    .poll(async () => [(await standing(rhea)).referrals, (await standing(sam)).referrals], {
      message: "Rhea's and Sam's confirmed referrals",
      timeout: CONFIRMATION_TIMEOUT_MS,
    })
    .toEqual([2, 2]);
});

test.afterAll(async () => {
  await service?.stop();
  await access?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** The console opened by a browser whose requests carry `token` as Access's header (none: no header). */
async function openConsole(
  newContext: NewContext,
  token: string | null,
  hash = "",
  viewport?: { width: number; height: number },
  deviceScaleFactor?: number,
): Promise<Page> {
  const { context } = await newContext({
    baseURL: service.origin,
    extraHTTPHeaders: token === null ? {} : { "cf-access-jwt-assertion": token },
    ...(viewport ? { viewport, deviceScaleFactor } : {}),
  });
  const page = await context.newPage();
  await page.goto(consoleUrl(service.origin, hash));
  await waitForHydration(page);
  return page;
}

/**
 * The console opened by the operator Access signed in, past its session check (its menu shows).
 * @throws when the menu does not come, with what the page and the service said instead
 */
async function openSignedIn(
  newContext: NewContext,
  hash = "",
  viewport?: { width: number; height: number },
  deviceScaleFactor?: number,
): Promise<Page> {
  const page = await openConsole(newContext, await access.sign({ email: OPERATOR }), hash, viewport, deviceScaleFactor);
  try {
    await expect(page.getByRole("navigation", { name: copy.navigation.label }), "the console signs the operator in").toBeVisible();
  } catch (error) {
    // This file's own service: its output is not the one the suite's failure report attaches.
    await test
      .info()
      .attach("console-service.log", { body: service.output().split("\n").slice(-80).join("\n"), contentType: "text/plain" });
    throw error;
  }
  return page;
}

test.describe("without a valid Access token", () => {
  const tokens: [string, () => Promise<string | null>, string][] = [
    ["no token", () => Promise.resolve(null), copy.errors.accessTokenMissing],
    ["a token signed by another key", () => access.sign({ key: "other" }), copy.errors.accessTokenInvalid],
    ["an expired token", () => access.sign({ exp: Math.floor(Date.now() / 1000) - 60 }), copy.errors.accessTokenInvalid],
    ["a token for another application", () => access.sign({ aud: "another-application" }), copy.errors.accessDenied],
  ];
  for (const [name, token, message] of tokens) {
    test(`with ${name} the page shows the content's words and nothing of the list`, async ({ newGuardedContext }) => {
      const page = await openConsole(newGuardedContext, await token());
      await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
      await expect(page.getByRole("navigation", { name: copy.navigation.label })).toHaveCount(0);
      await expect(page.locator("body")).not.toContainText("rhea@example.test");
    });
  }
});

test.describe("signed in through Access", () => {
  test("shows who is signed in, and a dashboard whose table holds the counts of the stored rows", async ({ newGuardedContext }) => {
    const page = await openSignedIn(newGuardedContext);
    await expect(page.getByText(copy.signedInAs.replace("{operator}", OPERATOR))).toBeVisible();
    const table = page.getByRole("table", { name: copy.dashboard.signups.caption });
    await expect(table).toBeVisible();
    await expect(page.getByRole("img", { name: copy.dashboard.signups.chartLabel })).toHaveCount(1);

    // The stored rows, counted by local day and by the column of their source.
    const rows = await d1Query<{ created_at: string; source: string | null }>(stateDir, "SELECT created_at, source FROM signups");
    const expected = new Map<string, Map<string, number>>();
    for (const row of rows) {
      const day = format.day(localDay(row.created_at, OFFSET_MINUTES));
      const column = COLUMN_OF_SOURCE[row.source ?? ""];
      const counts = expected.get(day) ?? new Map<string, number>();
      counts.set(column, (counts.get(column) ?? 0) + 1);
      expected.set(day, counts);
    }

    const cells = await table
      .locator("tr")
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("th, td"), (cell) => cell.textContent ?? "")));
    const [header, ...body] = cells;
    const columns = header.slice(1, -1);
    expect(columns.sort()).toEqual(expect.arrayContaining(["/", CAMPAIGN.pagePath]));
    const shown = new Map<string, Map<string, number>>();
    for (const [day, ...counts] of body) {
      const byColumn = new Map<string, number>();
      header.slice(1, -1).forEach((column, index) => {
        const count = Number(counts[index].replace(/\D/g, ""));
        if (count > 0) byColumn.set(column, count);
      });
      expect(Number(counts[counts.length - 1].replace(/\D/g, ""))).toBe([...byColumn.values()].reduce((sum, count) => sum + count, 0));
      if (byColumn.size > 0) shown.set(day, byColumn);
    }
    expect(shown).toEqual(expected);

    // The funnel's first step is every row (all were stored within the range).
    const funnel = page.getByRole("table", { name: copy.dashboard.funnel.caption });
    await expect(
      funnel
        .getByRole("row", { name: new RegExp(`^${copy.dashboard.funnel.signedUp}`) })
        .locator("td")
        .first(),
    ).toHaveText(format.count(rows.length));
  });

  test("disqualifies a referred friend through the dialog, and the referrer's place and the leaderboard move at once", async ({
    newGuardedContext,
  }) => {
    const before = await standing(rhea);
    const page = await openSignedIn(newGuardedContext, `#search/${encodeURIComponent(friend.email)}`);
    await page.getByRole("table", { name: copy.search.caption }).getByRole("link", { name: "Fern Fox" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Fern Fox" })).toBeVisible();
    await page.getByRole("button", { name: copy.actions.disqualify }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
    await expect(dialog.getByText(copy.dialog.reasonRequired)).toBeVisible();
    await dialog.getByRole("textbox", { name: copy.dialog.reasonLabel }).fill("Same household as the referrer, by her own account");
    await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
    await expect(page.getByRole("button", { name: copy.actions.requalify })).toBeVisible();

    const after = await standing(rhea);
    expect(after.referrals).toBe(before.referrals - 1);
    expect(after.position).toBeGreaterThan(before.position);
    // The board's first read in this file's service: Sam, now with more referrals, is ahead of Rhea.
    const board = (await (await fetch(`${service.origin}/api/leaderboard`)).json()) as { entries: { name: string; referrals: number }[] };
    expect(board.entries.map(({ name, referrals }) => [name, referrals])).toEqual([
      ["Sam S.", 2],
      ["Rhea R.", 1],
    ]);
    const audit = await d1Query<{ action: string; reason: string }>(
      stateDir,
      "SELECT action, reason FROM audit_log WHERE action = 'disqualify'",
    );
    expect(audit).toEqual([{ action: "disqualify", reason: "Same household as the referrer, by her own account" }]);
  });
});

// The layout test's checks (support/layout.ts) on the console with data, which the layout test's own build cannot show.
for (const screen of SCREENS) {
  test.describe(`at ${screen.name}`, () => {
    test("the dashboard and a person's page: nothing covered or too small, no sideways scroll, focus never hidden, no axe violation", async ({
      newGuardedContext,
    }) => {
      const page = await openSignedIn(newGuardedContext, "", screen.viewport, screen.deviceScaleFactor);
      await expect(page.getByRole("table", { name: copy.dashboard.signups.caption })).toBeVisible();
      const problems = [...(await layoutProblems(page)), ...(await focusProblems(page))].map((problem) => `dashboard: ${problem}`);
      await expectNoAxeViolations(page, `the console's dashboard at ${screen.name}`);

      await page.goto(consoleUrl(service.origin, `#search/${encodeURIComponent(sam.email)}`));
      await page.getByRole("table", { name: copy.search.caption }).getByRole("link", { name: "Sam Sol" }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Sam Sol" })).toBeVisible();
      problems.push(...[...(await layoutProblems(page)), ...(await focusProblems(page))].map((problem) => `person: ${problem}`));
      await page.getByRole("button", { name: copy.actions.erase }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoAxeViolations(page, `the console's erase dialog at ${screen.name}`);
      expect(problems).toEqual([]);
    });
  });
}

test.describe("the review queue", () => {
  test("lists the flagged friend with the flag in the content's words, and approves her in place", async ({ newGuardedContext }) => {
    const page = await openSignedIn(newGuardedContext, "#review");
    const queue = page.getByRole("table", { name: copy.review.caption });
    const iris = queue.getByRole("row").filter({ has: page.getByRole("link", { name: "Iris Ink" }) });
    await expect(iris).toBeVisible();
    await expect(iris.getByText(copy.flags.sameIpAsReferrer.name)).toBeVisible();
    await iris.getByRole("button", { name: copy.actions.approve }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: copy.dialog.reasonLabel }).fill("Sisters sharing a flat");
    await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
    await expect(iris).toHaveCount(0);
    const [row] = await d1Query<{ reviewed: number }>(
      stateDir,
      "SELECT reviewed_at IS NOT NULL AS reviewed FROM signups WHERE email = 'iris@example.test'",
    );
    expect(row.reviewed, "Iris's row marked reviewed in D1").toBe(1);
  });
});

test.describe("an erase", () => {
  test("asks for a reason and a tick in plain words, then the person is gone from D1 at once", async ({ newGuardedContext }) => {
    const page = await openSignedIn(newGuardedContext, `#search/${encodeURIComponent("hal@example.test")}`);
    await page.getByRole("table", { name: copy.search.caption }).getByRole("link", { name: "Hal Hay" }).click();
    await page.getByRole("button", { name: copy.actions.erase }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText(copy.dialog.eraseWarning)).toBeVisible();
    await dialog.getByRole("textbox", { name: copy.dialog.reasonLabel }).fill("Asked to be forgotten by e-mail");
    await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
    await expect(dialog.getByText(copy.dialog.eraseConfirmRequired)).toBeVisible();
    expect(await d1Query<{ n: number }>(stateDir, "SELECT count(*) AS n FROM signups WHERE email = 'hal@example.test'")).toEqual([
      { n: 1 },
    ]);
    await dialog.getByRole("checkbox", { name: copy.dialog.eraseConfirm }).check();
    await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
    await expect(page.getByText(copy.dialog.erased, { exact: true }).first()).toBeVisible();
    expect(await d1Query<{ n: number }>(stateDir, "SELECT count(*) AS n FROM signups WHERE email = 'hal@example.test'")).toEqual([
      { n: 0 },
    ]);
  });
});

test.describe("the giveaway draw", () => {
  test("shows the published rules and refuses a commitment once their round is out, writing nothing", async ({ newGuardedContext }) => {
    // The fixture's rules name a round long published (the golden draw's), so the Worker refuses by its own clock.
    const page = await openSignedIn(newGuardedContext, "#draw");
    await expect(page.getByText(FIXTURE_DRAW.id, { exact: true })).toBeVisible();
    const submit = page.getByRole("button", { name: copy.draw.submit });
    await expect(submit).toBeDisabled();
    await page.getByRole("checkbox", { name: copy.draw.confirm }).check();
    await submit.click();
    await expect(page.getByRole("alert").filter({ hasText: copy.draw.refusals.roundPublished })).toBeVisible();
    expect(await d1Query<{ n: number }>(stateDir, "SELECT count(*) AS n FROM draws")).toEqual([{ n: 0 }]);
  });
});
