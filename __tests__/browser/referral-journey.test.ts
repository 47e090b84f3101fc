/**
 * The referral program end to end against the real service (globalSetup's third build), as a newcomer tries it on
 * `npm start`: the signup's answer and /success/ say nothing about anyone, so A's links come as a newcomer's do on a
 * local run, from the `demo_status_link` line demo delivery writes into wrangler's output in place of the welcome
 * e-mail; every link is on the service's own origin and is opened as it is. The fixture counts referrals after
 * confirmation, and the local run's demo delivery confirms each delivered signup, so B's signup moves A up without
 * Klaviyo. A then puts themselves on the leaderboard from their status page.
 */
import type { BrowserContext, Page } from "playwright-core";
import { openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { waitlistContent } from "./support/fixture-content";
import { waitlistSite } from "./support/run-env";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { TURNSTILE_STAND_IN_LABEL } from "./support/turnstile-stand-in";
import { uniqueVisitor, type Visitor } from "./support/visitors";
import { demoLinksOf, newWaitlistContext, nextClientIp } from "./support/waitlist-service";

const CONTENT = waitlistContent();
const { form } = CONTENT.home;
const { referrals, status, leaderboard } = CONTENT;
/** How long the status page may take to show B's referral (ms): demo delivery confirms B in the queue's next batch. */
const DELIVERY_TIMEOUT_MS = 30_000;
/** How long the leaderboard may take to show A (ms): a copy another test read stays cached for a minute (LEADERBOARD_CACHE_S in worker/src/referrals/leaderboard.ts). */
const BOARD_TIMEOUT_MS = 75_000;
/** This test's own timeout (ms): both waits above at their longest, and the signups. */
const JOURNEY_TIMEOUT_MS = 180_000;
/** How long one look at a reloaded page waits for a heading (ms) before the page is reloaded again. */
const ONE_LOOK_MS = 2_000;

const browser = setUpChromium();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** The card's headline for a place in line, as a visitor reads it (numbers written for `en`). */
const headline = (position: number) => referrals.position.replace("{position}", position.toLocaleString("en"));

/** Sign up on the page open in `page` and land on /success/, which sends the visitor to their inbox; the service's answer. */
async function signUpOnPage(page: Page, visitor: Visitor): Promise<unknown> {
  await page.getByRole("form").getByRole("group", { name: TURNSTILE_STAND_IN_LABEL }).waitFor();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/signups");
  await fillSignupForm(page, visitor, form);
  await submitButton(page, form).click();
  const response = await answered;
  expect(response.status()).toBe(202);
  await page.waitForURL((url) => url.pathname === "/success/");
  await page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading }).waitFor();
  return response.json();
}

/** The place in line the status page's card shows, once it shows one. */
async function positionShown(page: Page): Promise<number> {
  const heading = page.getByRole("heading", { level: 2, name: /\d/ });
  await heading.waitFor();
  return Number((await heading.innerText()).replace(/\D/g, ""));
}

/** The numbers and link of the status page's referral card once it shows a place in line. */
async function cardOf(page: Page, position: number): Promise<{ friends: string; entries: string; link: string }> {
  const card = page.getByRole("region", { name: headline(position) });
  await card.getByRole("heading", { level: 2, name: headline(position) }).waitFor();
  const value = async (label: string) => (await card.getByText(label).locator("..").innerText()).split(/\s/)[0];
  return {
    friends: await value(referrals.friendsJoined),
    entries: await value(referrals.giveawayEntries),
    link: await card.getByRole("textbox", { name: referrals.linkLabel }).inputValue(),
  };
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

it(
  "A's links come in the local run's log; A's link brings B; once B's signup is delivered, A's status page shows it, and A joins the leaderboard",
  async () => {
    const places = CONTENT.referrals.placesPerReferral;
    const { origin } = waitlistSite();
    await signUpOthers(places + 2);

    // A signs up: /success/ sends them to their inbox, and the answer says nothing about them.
    // A first name the leaderboard prints in full: the unique ones (digits in their tag) are printed as their initial.
    const a: Visitor = { ...uniqueVisitor("referrer"), firstName: "Avery" };
    const aContext = (await newWaitlistContext(browser())).context;
    contexts.push(aContext);
    const aPage = await openHydrated(aContext, "/");
    expect(await signUpOnPage(aPage, a)).toEqual({ accepted: true });
    expect(await aPage.getByRole("textbox").count()).toBe(0);

    // A's inbox on a local run: the line demo delivery logs, with links on the service's own origin.
    const aLinks = await demoLinksOf(a.email);
    expect(new URL(aLinks.statusUrl).origin).toBe(origin);
    expect(new URL(aLinks.referralUrl).origin).toBe(origin);

    // A opens the status link as it is: their place, no friend yet, one entry, and the link to share.
    const statusPage = await aContext.newPage();
    await statusPage.goto(aLinks.statusUrl);
    await statusPage.getByRole("heading", { level: 1, name: status.heading }).waitFor();
    const aPosition = await positionShown(statusPage);
    expect(aPosition).toBeGreaterThan(places);
    const aCard = await cardOf(statusPage, aPosition);
    expect(aCard).toEqual({ friends: "0", entries: "1", link: aLinks.referralUrl });

    // B, in a browser of their own, opens A's link as it is and signs up.
    const b = uniqueVisitor("friend");
    const bContext = (await newWaitlistContext(browser())).context;
    contexts.push(bContext);
    const bPage = await openHydrated(bContext, aCard.link);
    const sent = bPage.waitForRequest((request) => new URL(request.url()).pathname === "/api/signups");
    await signUpOnPage(bPage, b);
    expect((await sent).postDataJSON()).toMatchObject({ ref: new URL(aCard.link).searchParams.get("ref") });

    // A's status page, reloaded: once demo delivery confirmed B, one more friend, placesPerReferral places better, one
    // more entry per friend.
    await eventually(async () => {
      await statusPage.reload();
      await statusPage.getByRole("heading", { level: 2, name: headline(aPosition - places) }).waitFor({ timeout: ONE_LOOK_MS });
    }, DELIVERY_TIMEOUT_MS);
    expect(await cardOf(statusPage, aPosition - places)).toEqual({
      friends: "1",
      entries: String(1 + CONTENT.referrals.entriesPerReferral),
      link: aCard.link,
    });

    // Nobody is on the leaderboard before choosing it: A chooses it on the status page.
    const choice = status.leaderboardChoice;
    await statusPage.getByText(choice.hiddenNote).waitFor();
    await statusPage.getByRole("button", { name: choice.show }).click();
    await statusPage.getByText(choice.shownNote).waitFor();
    expect(await statusPage.getByRole("button", { name: choice.hide }).isVisible()).toBe(true);

    // The leaderboard shows A as "First L." (this test alone chooses to be shown), never an address, within the minute
    // its cached copy lives.
    const board = await aContext.newPage();
    await board.goto("/leaderboard/");
    const table = board.getByRole("table", { name: leaderboard.heading });
    const name = `${a.firstName} ${a.lastName[0]}.`;
    await eventually(async () => {
      await board.reload();
      await table.getByRole("rowheader", { name }).waitFor({ timeout: ONE_LOOK_MS });
    }, BOARD_TIMEOUT_MS);
    const row = table.getByRole("row").filter({ has: board.getByRole("rowheader", { name }) });
    expect(await row.getByRole("cell").last().innerText()).toBe("1");
    expect(await table.innerText()).not.toContain("@");
  },
  JOURNEY_TIMEOUT_MS,
);
