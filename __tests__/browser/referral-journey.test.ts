/**
 * The referral program end to end against the real service (globalSetup's third build). The fixture counts
 * referrals after confirmation, so the test plays Klaviyo's flow webhook for B before A's standing moves.
 */
import type { BrowserContext, Page } from "playwright-core";
import { openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { waitlistContent } from "./support/fixture-content";
import { waitlistSite, WAITLIST_WEBHOOK_SECRET } from "./support/run-env";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { TURNSTILE_STAND_IN_LABEL } from "./support/turnstile-stand-in";
import { uniqueVisitor, type Visitor } from "./support/visitors";
import { newWaitlistContext, nextClientIp } from "./support/waitlist-service";

const CONTENT = waitlistContent();
const { form } = CONTENT.home;
const { referrals, status, leaderboard } = CONTENT;

const browser = setUpChromium();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** The card's headline for a place in line, as a visitor reads it (numbers written for `en`). */
const headline = (position: number) => referrals.position.replace("{position}", position.toLocaleString("en"));

/** A link the service wrote (on the content's site address), opened on the test's origin: the same path, query and fragment. */
function onTestOrigin(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Sign up on the page open in `page` and land on /success/; the service's answer. */
async function signUpOnPage(page: Page, visitor: Visitor): Promise<Record<string, unknown>> {
  await page.getByRole("form").getByRole("group", { name: TURNSTILE_STAND_IN_LABEL }).waitFor();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/signups");
  await fillSignupForm(page, visitor, form);
  await submitButton(page, form).click();
  const response = await answered;
  expect(response.status()).toBe(202);
  await page.waitForURL((url) => url.pathname === "/success/");
  return (await response.json()) as Record<string, unknown>;
}

/** The numbers and link of the referral card on the page (/success/ or /status/) once it shows a place in line. */
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

/** Klaviyo's flow webhook for a confirmed address, as the README sets it up. */
function confirmAsKlaviyo(email: string, secret: string | null = WAITLIST_WEBHOOK_SECRET): Promise<Response> {
  return fetch(`${waitlistSite().origin}/api/hooks/klaviyo/confirmed`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(secret === null ? {} : { authorization: `Bearer ${secret}` }) },
    body: JSON.stringify({ email }),
  });
}

it("A's link brings B; once Klaviyo confirms B, A's status page and the leaderboard show it", async () => {
  const places = CONTENT.referrals.placesPerReferral;
  await signUpOthers(places + 2);

  // A signs up and sees their place and link on /success/.
  const a = uniqueVisitor("referrer");
  const aContext = (await newWaitlistContext(browser())).context;
  contexts.push(aContext);
  const aPage = await openHydrated(aContext, "/");
  const aAnswer = await signUpOnPage(aPage, a);
  const aPosition = aAnswer.position as number;
  expect(aPosition).toBeGreaterThan(places);
  const aCard = await cardOf(aPage, aPosition);
  expect(aCard).toEqual({ friends: "0", entries: "1", link: aAnswer.referralUrl });

  // B, in a browser of their own, opens A's link and signs up.
  const b = uniqueVisitor("friend");
  const bContext = (await newWaitlistContext(browser())).context;
  contexts.push(bContext);
  const bPage = await openHydrated(bContext, onTestOrigin(aCard.link));
  const sent = bPage.waitForRequest((request) => new URL(request.url()).pathname === "/api/signups");
  await signUpOnPage(bPage, b);
  expect((await sent).postDataJSON()).toMatchObject({ ref: new URL(aCard.link).searchParams.get("ref") });

  // Not counted before B confirms: A's status page still shows no friend.
  const statusPath = onTestOrigin(aAnswer.statusUrl as string);
  const before = await aContext.newPage();
  await before.goto(statusPath);
  await before.getByRole("heading", { level: 1, name: status.heading }).waitFor();
  expect(await cardOf(before, aPosition)).toMatchObject({ friends: "0", entries: "1" });

  // Klaviyo's flow: a webhook without the secret is refused; with it, B is confirmed.
  expect((await confirmAsKlaviyo(b.email, null)).status).toBe(401);
  const confirmed = await confirmAsKlaviyo(b.email);
  expect(await confirmed.json()).toEqual({ matched: true, referralCounted: true });

  // A's status page: one more friend, placesPerReferral places better, one more entry per friend.
  const after = await aContext.newPage();
  await after.goto(statusPath);
  expect(await cardOf(after, aPosition - places)).toEqual({
    friends: "1",
    entries: String(1 + CONTENT.referrals.entriesPerReferral),
    link: aCard.link,
  });

  // The leaderboard shows A as "First L.", never an address.
  const board = await aContext.newPage();
  await board.goto("/leaderboard/");
  const table = board.getByRole("table", { name: leaderboard.heading });
  const name = `${a.firstName} ${a.lastName[0]}.`;
  await eventually(async () => expect(await table.getByRole("rowheader", { name }).isVisible()).toBe(true));
  const row = table.getByRole("row").filter({ has: board.getByRole("rowheader", { name }) });
  expect(await row.getByRole("cell").last().innerText()).toBe("1");
  expect(await table.innerText()).not.toContain("@");
});
