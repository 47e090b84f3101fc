/**
 * Launch day against the real local runtime: the waitlist build served by a `wrangler dev` of this file's own (its own
 * D1), sending to a Klaviyo stand-in (scripts/lib/klaviyo-stand-in.ts), with Cloudflare Access played by a loopback
 * stand-in as in console.test.ts. The operator invites the next 3 from the console's Launch screen; the stand-in
 * receives exactly 3 invitation events with distinct unique_ids; an invited person's status page shows the invitation;
 * the stand-in /invite/ page accepts it once and refuses it the second time; the Launch screen's funnel counts it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { startAccessStandIn, type AccessStandIn } from "../../scripts/lib/access-stand-in";
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import { applyMigrations, d1Query, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";
import { DEFAULT_LAUNCH } from "../../shared/service-settings";
import { theme } from "../../src/styles/theme";
import { expect, test, waitForHydration, type GuardedContextOptions, type GuardedContext } from "./support/fixtures";
import { waitlistContent } from "./support/fixture-content";
import { consoleUrl } from "./support/console-page";
import { parseColor } from "./support/focus";
import { waitlistAssetsDir } from "./support/run-env";
import { nextClientIp } from "./support/waitlist-service";

const CONTENT = waitlistContent();
const copy = CONTENT.console;
/** The operator Access signs in. */
const OPERATOR = "launch-ops@pickfund.example";
/** How long this file's service may take to start and deliver the seeded signups to the stand-in (ms). */
const SEEDING_TIMEOUT_MS = 240_000;
/** How long the local queue may take to send the invitations' events (ms). */
const SENDING_TIMEOUT_MS = 60_000;

let access: AccessStandIn;
let klaviyo: KlaviyoStandIn;
let service: WranglerDev;
let stateDir: string;

/** The people in line, in order, each with the status link their signup's delivery gave Klaviyo. */
const people: { email: string; statusUrl: string }[] = [];

type NewContext = (options?: GuardedContextOptions) => Promise<GuardedContext>;

test.beforeAll(async () => {
  test.setTimeout(SEEDING_TIMEOUT_MS);
  access = await startAccessStandIn();
  klaviyo = await startKlaviyoStandIn();
  klaviyo.setList(CONTENT.provider.listId ?? "", { optInProcess: "single_opt_in" });
  stateDir = await mkdtemp(path.join(tmpdir(), "launch-browser-"));
  await applyMigrations(stateDir);
  service = await startWranglerDev({
    assetsDir: waitlistAssetsDir(),
    persistTo: stateDir,
    vars: {
      KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey,
      KLAVIYO_API_URL: klaviyo.apiUrl,
      TURNSTILE_SECRET_KEY: "",
      IP_HASH_SALT: "",
      ACCESS_TEAM_DOMAIN: access.teamDomain,
      ACCESS_AUD: access.aud,
      // The Access identity below may act (everyone else Access lets in is a viewer).
      CONSOLE_OPERATORS: OPERATOR,
    },
  });
  for (const name of ["Ada", "Ben", "Cai", "Dee"]) {
    const email = `${name.toLowerCase()}-launch@example.test`;
    const response = await fetch(`${service.origin}/api/signups`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": nextClientIp() },
      body: JSON.stringify({ email, firstName: name, lastName: "Line" }),
    });
    expect(response.status).toBe(202);
    people.push({ email, statusUrl: "" });
  }
  // Each signup's delivery hands Klaviyo the person's status link (the e-mail's); then they confirm, as Klaviyo's
  // double opt-in would tell the service.
  await expect
    .poll(() => people.filter((person) => statusLinkOf(person.email) !== null).length, {
      message: "every signup delivered to the Klaviyo stand-in with its status link",
      timeout: SEEDING_TIMEOUT_MS / 2,
    })
    .toBe(people.length);
  for (const person of people) person.statusUrl = statusLinkOf(person.email)!;
  await d1Query(stateDir, "UPDATE signups SET confirmed_at = created_at WHERE confirmed_at IS NULL");
});

test.afterAll(async () => {
  await service?.stop();
  await access?.close();
  await klaviyo?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** The status link the person's delivery gave Klaviyo (`waitlist_status_url`), or null before it. */
function statusLinkOf(email: string): string | null {
  const url = klaviyo.profileImports.find((entry) => entry.email === email && entry.properties?.waitlist_status_url)?.properties
    ?.waitlist_status_url;
  return typeof url === "string" ? url : null;
}

/** The invitation events the stand-in took so far. */
function invitationEvents() {
  return klaviyo.events.filter((event) => event.metric === DEFAULT_LAUNCH.invitationMetric);
}

/** The console's Launch screen, opened by the operator Access signed in. */
async function openLaunchScreen(newContext: NewContext): Promise<Page> {
  const { context } = await newContext({ extraHTTPHeaders: { "cf-access-jwt-assertion": await access.sign({ email: OPERATOR }) } });
  const page = await context.newPage();
  await page.goto(consoleUrl(service.origin, "#launch"));
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 2, name: copy.launch.heading })).toBeVisible();
  return page;
}

/** The funnel table's count for a launch state. */
function funnelCount(page: Page, state: keyof typeof copy.launch.states) {
  return page
    .getByRole("table", { name: copy.launch.funnelCaption })
    .getByRole("row", { name: new RegExp(`^${copy.launch.states[state]}`) })
    .locator("td");
}

test("the operator invites the next 3; each gets one event, accepts once on /invite/, and the funnel counts it", async ({
  newGuardedContext,
}) => {
  test.setTimeout(SEEDING_TIMEOUT_MS);
  const page = await openLaunchScreen(newGuardedContext);
  await expect(funnelCount(page, "waiting")).toHaveText("4");

  // Invite the next 3: the preview first, then the press with a reason.
  await page.getByRole("spinbutton", { name: copy.launch.countLabel }).fill("3");
  await page.getByRole("button", { name: copy.launch.previewButton }).click();
  const preview = page.getByRole("status").filter({ hasText: /^3 people, places 1 to 3\./ });
  await expect(preview).toBeVisible();
  // A preview is a statement, drawn on the console's raised surface: not in a failure's red.
  await expect(preview).toHaveCSS("background-color", `rgb(${parseColor(theme.colors.surfaceRaised).join(", ")})`);
  // The actions come before the history below them, which grows a row a day.
  const inviteHeading = await page.getByRole("heading", { name: copy.launch.inviteHeading }).boundingBox();
  const byDayHeading = await page.getByRole("heading", { name: copy.launch.days.heading }).boundingBox();
  expect(inviteHeading!.y).toBeLessThan(byDayHeading!.y);
  await page.getByRole("button", { name: copy.launch.invite.replace("{count}", "3") }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: copy.dialog.reasonLabel }).fill("Launch day, first wave");
  await dialog.getByRole("button", { name: copy.dialog.confirm }).click();
  await expect(dialog).toHaveCount(0);
  await expect(funnelCount(page, "invited")).toHaveText("3");
  await expect(funnelCount(page, "waiting")).toHaveText("1");

  // Exactly 3 events, one per person invited, each with its own unique_id; none for the fourth.
  await expect.poll(() => invitationEvents().length, { timeout: SENDING_TIMEOUT_MS }).toBe(3);
  const events = invitationEvents();
  expect(events.map((event) => event.email).sort()).toEqual(
    people
      .slice(0, 3)
      .map((person) => person.email)
      .sort(),
  );
  expect(new Set(events.map((event) => event.uniqueId)).size).toBe(3);
  const batch = page.getByRole("table", { name: copy.launch.batchesCaption });
  await page.reload();
  await waitForHydration(page);
  await expect(batch.getByRole("row").nth(1)).toContainText(OPERATOR);

  // Ada's status page shows her invitation and its button, which leads to the /invite/ page of her link.
  const ada = people[0];
  const adaEvent = events.find((event) => event.email === ada.email)!;
  const status = await (await newGuardedContext({ baseURL: service.origin })).context.newPage();
  await status.goto(ada.statusUrl);
  await waitForHydration(status);
  await expect(status.getByText(CONTENT.status.invitation.invited.split("{date}")[0])).toBeVisible();
  const accept = status.getByRole("link", { name: CONTENT.status.invitation.accept });
  await expect(accept).toHaveAttribute("href", String((adaEvent.properties as { invite_url: string }).invite_url));

  // Accepted once; the same link refused the second time.
  await accept.click();
  await waitForHydration(status);
  await status.getByRole("button", { name: CONTENT.invite.accept }).click();
  await expect(status.getByText(CONTENT.invite.accepted.replace("{firstName}", "Ada"))).toBeVisible();
  await status.goto(String((adaEvent.properties as { invite_url: string }).invite_url));
  await waitForHydration(status);
  await status.getByRole("button", { name: CONTENT.invite.accept }).click();
  await expect(status.getByText(CONTENT.invite.used)).toBeVisible();
  const [row] = await d1Query<{ state: string }>(
    stateDir,
    `SELECT i.state FROM invitations AS i JOIN signups AS p ON p.invitation_id = i.id WHERE p.email = '${ada.email}'`,
  );
  expect(row.state).toBe("accepted");

  // The funnel counts her, now and by day.
  await page.reload();
  await waitForHydration(page);
  await expect(funnelCount(page, "accepted")).toHaveText("1");
  await expect(funnelCount(page, "invited")).toHaveText("2");
  const byDay = page.getByRole("table", { name: copy.launch.days.caption });
  await expect(byDay.getByRole("row").last()).toHaveText(/4\s*3\s*1\s*0\s*0$/);
  expect(invitationEvents()).toHaveLength(3);
});
