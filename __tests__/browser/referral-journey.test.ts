/**
 * The referral program end to end against the real service (globalSetup's third build), as a newcomer tries it on
 * `npm start`: the signup's answer and /success/ say nothing about anyone, so A's links come as a newcomer's do on a
 * local run, from the `demo_status_link` line demo delivery writes into wrangler's output in place of the welcome
 * e-mail; every link is on the service's own origin and is opened as it is. The fixture counts referrals after
 * confirmation, and the local run's demo delivery confirms each delivered signup, so B's signup moves A up without
 * Klaviyo. A then puts themselves on the leaderboard from their status page.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { waitlistContent } from "./support/fixture-content";
import { waitlistSite } from "./support/run-env";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { TURNSTILE_STAND_IN_LABEL } from "./support/turnstile-stand-in";
import { uniqueVisitor, type Visitor } from "./support/visitors";
import { demoLinksOf, nextClientIp } from "./support/waitlist-service";

const CONTENT = waitlistContent();
const { form } = CONTENT.home;
const { referrals, status, leaderboard } = CONTENT;
/** How long the status page may take to show B's referral (ms): demo delivery confirms B in the queue's next batch. */
const DELIVERY_TIMEOUT_MS = 30_000;
/** How long the leaderboard may take to show A (ms): a copy another test read stays cached for a minute (LEADERBOARD_CACHE_S in worker/src/referrals/leaderboard.ts). */
const BOARD_TIMEOUT_MS = 75_000;
/** How long one look at a reloaded page waits for a heading (ms) before the page is reloaded again. */
const ONE_LOOK_MS = 2_000;

test.use({ site: "waitlist" });

/** The card's headline for a place in line, as a visitor reads it (numbers written for `en`). */
const headline = (position: number) => referrals.position.replace("{position}", position.toLocaleString("en"));

/** Sign up on the page open in `page` and land on /success/, which sends the visitor to their inbox; the service's answer. */
async function signUpOnPage(page: Page, visitor: Visitor): Promise<unknown> {
  await expect(page.getByRole("form").getByRole("group", { name: TURNSTILE_STAND_IN_LABEL })).toBeVisible();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/signups");
  await fillSignupForm(page, visitor, form);
  await submitButton(page, form).click();
  const response = await answered;
  expect(response.status()).toBe(202);
  await expect(page).toHaveURL((url) => url.pathname === "/success/");
  await expect(page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading })).toBeVisible();
  return response.json();
}

/** The place in line the status page's card shows, once it shows one. */
async function positionShown(page: Page): Promise<number> {
  const heading = page.getByRole("heading", { level: 2, name: /\d/ });
  await expect(heading).toBeVisible();
  return Number((await heading.innerText()).replace(/\D/g, ""));
}

/** Expect the status page's referral card for a place in line to show these numbers (before their labels) and link. */
async function expectCard(page: Page, position: number, shown: { friends: string; entries: string; link: string }): Promise<void> {
  const card = page.getByRole("region", { name: headline(position) });
  await expect(card.getByRole("heading", { level: 2, name: headline(position) })).toBeVisible();
  const startsWith = (value: string) => new RegExp(`^${value}\\s`);
  await expect(card.getByText(referrals.friendsJoined).locator("..")).toHaveText(startsWith(shown.friends), { useInnerText: true });
  await expect(card.getByText(referrals.giveawayEntries).locator("..")).toHaveText(startsWith(shown.entries), { useInnerText: true });
  await expect(card.getByRole("textbox", { name: referrals.linkLabel })).toHaveValue(shown.link);
}

/** People who signed up before A (through the API, as other visitors would), so that A has places to win. */
async function signUpOthers(count: number): Promise<void> {
  const { origin } = waitlistSite();
  for (let i = 0; i < count; i += 1) {
    const visitor = uniqueVisitor("earlier");
    const response = await fetch(`${origin}/api/signups`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, "cf-connecting-ip": nextClientIp() },
      body: JSON.stringify(visitor),
    });
    expect(response.status).toBe(202);
  }
}

test("A's links come in the local run's log; A's link brings B; once B's signup is delivered, A's status page shows it, and A joins the leaderboard", async ({
  context: aContext,
  page: aPage,
  newGuardedContext,
}) => {
  // Two signups, a delivery and up to a minute of the leaderboard's cache: more than a test usually takes.
  test.slow();
  const places = CONTENT.referrals.placesPerReferral;
  const { origin } = waitlistSite();
  await signUpOthers(places + 2);

  // A signs up: /success/ sends them to their inbox, and the answer says nothing about them.
  // A first name the leaderboard prints in full: the unique ones (digits in their tag) are printed as their initial.
  const a: Visitor = { ...uniqueVisitor("referrer"), firstName: "Avery" };
  await gotoHydrated(aPage, "/");
  const answer = await signUpOnPage(aPage, a);
  expect(answer, "what the signup answer says about the visitor").toEqual({ accepted: true });
  await expect(aPage.getByRole("textbox")).toHaveCount(0);

  // A's inbox on a local run: the line demo delivery logs, with links on the service's own origin.
  const aLinks = await demoLinksOf(a.email);
  expect(new URL(aLinks.statusUrl).origin).toBe(origin);
  expect(new URL(aLinks.referralUrl).origin).toBe(origin);

  // A opens the status link as it is: their place, no friend yet, one entry, and the link to share.
  const statusPage = await aContext.newPage();
  await statusPage.goto(aLinks.statusUrl);
  await expect(statusPage.getByRole("heading", { level: 1, name: status.heading })).toBeVisible();
  const aPosition = await positionShown(statusPage);
  expect(aPosition).toBeGreaterThan(places);
  await expectCard(statusPage, aPosition, { friends: "0", entries: "1", link: aLinks.referralUrl });
  const aCard = { link: aLinks.referralUrl };

  // B, in a browser of their own, opens A's link as it is and signs up.
  const b = uniqueVisitor("friend");
  const { context: bContext } = await newGuardedContext();
  const bPage = await gotoHydrated(await bContext.newPage(), aCard.link);
  const sent = bPage.waitForRequest((request) => new URL(request.url()).pathname === "/api/signups");
  await signUpOnPage(bPage, b);
  expect((await sent).postDataJSON()).toMatchObject({ ref: new URL(aCard.link).searchParams.get("ref") });

  // A's status page, reloaded: once demo delivery confirmed B, one more friend, placesPerReferral places better, one
  // more entry per friend.
  await expect(async () => {
    await statusPage.reload();
    await expect(statusPage.getByRole("heading", { level: 2, name: headline(aPosition - places) })).toBeVisible({ timeout: ONE_LOOK_MS });
  }).toPass({ timeout: DELIVERY_TIMEOUT_MS });
  await expectCard(statusPage, aPosition - places, {
    friends: "1",
    entries: String(1 + CONTENT.referrals.entriesPerReferral),
    link: aCard.link,
  });

  // Nobody is on the leaderboard before choosing it: A chooses it on the status page.
  const choice = status.leaderboardChoice;
  await expect(statusPage.getByText(choice.hiddenNote)).toBeVisible();
  await statusPage.getByRole("button", { name: choice.show }).click();
  await expect(statusPage.getByText(choice.shownNote)).toBeVisible();
  await expect(statusPage.getByRole("button", { name: choice.hide })).toBeVisible();

  // The leaderboard shows A as "First L." (this test alone chooses to be shown), never an address, within the minute
  // its cached copy lives.
  const board = await aContext.newPage();
  await board.goto("/leaderboard/");
  const table = board.getByRole("table", { name: leaderboard.heading });
  const name = `${a.firstName} ${a.lastName[0]}.`;
  await expect(async () => {
    await board.reload();
    await expect(table.getByRole("rowheader", { name })).toBeVisible({ timeout: ONE_LOOK_MS });
  }).toPass({ timeout: BOARD_TIMEOUT_MS });
  const row = table.getByRole("row").filter({ has: board.getByRole("rowheader", { name }) });
  await expect(row.getByRole("cell").last()).toHaveText("1", { useInnerText: true });
  await expect(table).not.toContainText("@", { useInnerText: true });
});
