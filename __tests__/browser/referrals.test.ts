/**
 * What a visitor sees on /success/, /status/ and /leaderboard/, with and without JavaScript, on globalSetup's
 * third build with the service's answers routed by each test.
 */
import type { BrowserContext, Page, Request } from "playwright-core";
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { axeViolations, formatViolations } from "./support/axe";
import { newGuardedContext, setUpChromium, waitForHydration } from "./support/browser";
import { eventually } from "./support/eventually";
import { waitlistContent } from "./support/fixture-content";
import { routeMetaPixel } from "./support/meta-pixel-stand-in";
import { waitlistSite } from "./support/run-env";

const CONTENT = waitlistContent();
const { referrals, status, leaderboard, giveaway, links } = CONTENT;

const TOKEN = "Vb3kq9ZxT1mN8pL2rS6wYa";
const STANDING = {
  referralCode: "K7QM2XPD",
  referralUrl: `${CONTENT.site.url}/?ref=K7QM2XPD`,
  position: 1234,
  referrals: 2,
  entries: 3,
  statusUrl: `${CONTENT.site.url}/status/#t=${TOKEN}`,
};
/** The card's headline as a visitor reads it (the place in line written for `en`). */
const HEADLINE = referrals.position.replace("{position}", "1,234");

const browser = setUpChromium();
let context: BrowserContext;
let blocked: string[];

beforeEach(async () => {
  ({ context, blocked } = await newGuardedContext(browser(), { baseURL: waitlistSite().origin }));
});
afterEach(async () => {
  await context?.close();
});

/** Answer `path` of the waitlist service with `status` and a JSON body, and record each request. */
async function routeApi(page: Page, path: string, statusCode: number, body: unknown): Promise<Request[]> {
  const requests: Request[] = [];
  await page.route(`**${path}`, async (route) => {
    requests.push(route.request());
    await route.fulfill({
      status: statusCode,
      contentType: "application/json",
      headers: { "cache-control": "no-store" },
      body: JSON.stringify(body),
    });
  });
  return requests;
}

/** Layout shifts the page has had, each with the elements that moved (a PerformanceObserver installed before load). */
async function recordLayoutShifts(target: BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const shifts: { value: number; nodes: string[] }[] = [];
    Object.assign(window, { __layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node }[] })[]) {
        const nodes = (entry.sources ?? []).map(({ node }) =>
          node instanceof Element ? node.outerHTML.slice(0, 80) : String(node?.textContent),
        );
        shifts.push({ value: entry.value, nodes });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

describe("/success/", () => {
  it("sends the visitor to their inbox for their place in line and link, and asks the service nothing about them", async () => {
    const page = await context.newPage();
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) asked.push(request.url());
    });
    await page.goto("/success/");
    await waitForHydration(page);
    await page.getByRole("heading", { level: 1, name: CONTENT.success.heading }).waitFor();
    await page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading }).waitFor();
    expect(await page.getByText(referrals.checkInbox.text).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: referrals.leaderboardLink }).getAttribute("href")).toBe("/leaderboard/");
    const rules = page.getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` });
    expect(await rules.getAttribute("href")).toBe(giveaway.rulesUrl);
    // No standing of anyone: no place, no link to copy or share, no status link.
    expect(await page.getByRole("textbox").count()).toBe(0);
    expect(await page.getByRole("button", { name: referrals.copyButton }).count()).toBe(0);
    expect(await page.locator('a[href*="/status/"]').count()).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(asked).toEqual([]);
    expect(blocked).toEqual([]);
  });

  it("says the same to a visitor without JavaScript", async () => {
    const noScript = await browser().newContext({ baseURL: waitlistSite().origin, javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      await page.goto("/success/");
      const seen = await page.locator("main").innerText();
      expect(seen).toContain(referrals.checkInbox.heading);
      expect(seen).toContain(referrals.checkInbox.text);
      expect(seen).toContain(giveaway.noPurchaseNecessary);
      expect(seen).toContain(CONTENT.success.heading);
      expect(seen).not.toContain(referrals.friendsJoined);
    } finally {
      await noScript.close();
    }
  });
});

describe("/status/", () => {
  it("reads the standing with the link's token as a bearer token, never in the address, and shows it", async () => {
    const page = await context.newPage();
    const requests = await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await page.getByRole("heading", { level: 1, name: status.heading }).waitFor();
    await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    expect(await page.getByRole("textbox", { name: referrals.linkLabel }).inputValue()).toBe(STANDING.referralUrl);
    expect(requests[0].headers().authorization).toBe(`Bearer ${TOKEN}`);
    expect(requests.map((request) => request.url())).not.toContainEqual(expect.stringContaining(TOKEN));
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
  });

  it("shows the place in line, friends joined, entries and the link, and copies the link", async () => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await waitForHydration(page);
    const card = page.getByRole("region", { name: HEADLINE });
    await card.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    expect(await card.getByText(referrals.friendsJoined).locator("..").innerText()).toMatch(/^2\s/);
    expect(await card.getByText(referrals.giveawayEntries).locator("..").innerText()).toMatch(/^3\s/);
    const rules = card.getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` });
    expect(await rules.getAttribute("href")).toBe(giveaway.rulesUrl);

    await card.getByRole("button", { name: referrals.copyButton }).click();
    await card.getByRole("button", { name: referrals.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(STANDING.referralUrl);

    const x = card.getByRole("link", { name: `${referrals.shareLinks.x} ${links.newTabHint}` });
    expect(new URL((await x.getAttribute("href")) ?? "").searchParams.get("text")).toBe(
      referrals.shareMessage.replace("{link}", STANDING.referralUrl),
    );
    expect(blocked).toEqual([]);
  });

  it("fills the numbers and the link in where the dashes were: nothing on the page moves", async () => {
    await recordLayoutShifts(context);
    const page = await context.newPage();
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await waitForHydration(page);
    await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    await page.waitForLoadState("networkidle");
    const shifts = await page.evaluate(
      () => (window as unknown as { __layoutShifts: { value: number; nodes: string[] }[] }).__layoutShifts,
    );
    expect(shifts).toEqual([]);
  });

  it("moves the token out of the address bar once read, and a reload still shows the standing", async () => {
    const page = await context.newPage();
    const requests = await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    expect(page.url()).toBe(`${waitlistSite().origin}/status/`);

    await page.reload();
    await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    expect(page.url()).toBe(`${waitlistSite().origin}/status/`);
    expect(requests.map((request) => request.headers().authorization)).toEqual(requests.map(() => `Bearer ${TOKEN}`));
    expect(requests.length).toBeGreaterThanOrEqual(2);
  });

  it("never requests the ad pixel, even with consent given, while the same visit's other pages load it", async () => {
    const meta = await routeMetaPixel(context);
    await context.addInitScript(([key]) => localStorage.setItem(key, "accepted"), [CONSENT_STORAGE_KEY]);
    const page = await context.newPage();
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("region", { name: CONTENT.consent.message }).count()).toBe(0);
    expect(await page.evaluate(() => typeof (window as { fbq?: unknown }).fbq)).toBe("undefined");
    expect(meta.metaRequests).toEqual([]);

    // The control: this build has a pixel, and the consent given loads it on a page that is not the status page.
    const leaderboardPage = await context.newPage();
    await routeApi(leaderboardPage, "/api/leaderboard", 200, { entries: [] });
    await leaderboardPage.goto("/leaderboard/");
    await eventually(() => expect(meta.events).toContainEqual({ pixelId: CONTENT.adPixel?.id, event: "PageView" }));
  });

  it("says the link is not known when the service answers 401", async () => {
    const page = await context.newPage();
    await routeApi(page, "/api/status", 401, { errors: [{ status: "401", code: "unauthorized" }] });
    await page.goto(`/status/#t=${TOKEN}`);
    await page.getByText(status.unknownToken).waitFor();
    expect(await page.getByRole("heading", { level: 2 }).isVisible()).toBe(false);
  });
});

describe("/leaderboard/", () => {
  it("shows the heading and intro, then the top referrers with shortened names", async () => {
    const page = await context.newPage();
    await routeApi(page, "/api/leaderboard", 200, {
      entries: [
        { rank: 1, name: "Jordan S.", referrals: 1234 },
        { rank: 2, name: "Alex P.", referrals: 7 },
      ],
    });
    await page.goto("/leaderboard/");
    await page.getByRole("heading", { level: 1, name: leaderboard.heading }).waitFor();
    expect(await page.getByText(leaderboard.intro).isVisible()).toBe(true);
    const table = page.getByRole("table", { name: leaderboard.heading });
    await table.getByRole("rowheader", { name: "Jordan S." }).waitFor();
    expect(await table.getByRole("columnheader").allTextContents()).toEqual([
      leaderboard.columns.rank,
      leaderboard.columns.name,
      leaderboard.columns.referrals,
    ]);
    const rows = await table
      .locator("tbody")
      .getByRole("row")
      .evaluateAll((elements) => elements.map((row) => Array.from(row.children, (cell) => cell.textContent)));
    expect(rows).toEqual([
      ["1", "Jordan S.", "1,234"],
      ["2", "Alex P.", "7"],
    ]);
  });

  it("fills the rows in where the dashes were, however few there are: nothing on the page moves", async () => {
    await recordLayoutShifts(context);
    const page = await context.newPage();
    await routeApi(page, "/api/leaderboard", 200, { entries: [{ rank: 1, name: "Jordan S.", referrals: 1234 }] });
    await page.goto("/leaderboard/");
    await waitForHydration(page);
    await page.getByRole("rowheader", { name: "Jordan S." }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { __layoutShifts: unknown[] }).__layoutShifts)).toEqual([]);
  });

  it("says nobody is on the board yet when it is empty", async () => {
    const page = await context.newPage();
    await routeApi(page, "/api/leaderboard", 200, { entries: [] });
    await page.goto("/leaderboard/");
    await eventually(async () => expect(await page.getByText(leaderboard.empty).isVisible()).toBe(true));
  });
});

describe("accessibility (WCAG 2.2 AA, axe)", () => {
  it("/success/ with its inbox card, /status/ with the referral card filled in and /leaderboard/ have no violations", async () => {
    const page = await context.newPage();
    await routeApi(page, "/api/status", 200, STANDING);
    await routeApi(page, "/api/leaderboard", 200, { entries: [{ rank: 1, name: "Jordan S.", referrals: 1234 }] });
    for (const [path, ready] of [
      ["/success/", () => page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading }).waitFor()],
      [`/status/#t=${TOKEN}`, () => page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor()],
      ["/leaderboard/", () => page.getByRole("rowheader", { name: "Jordan S." }).waitFor()],
    ] as const) {
      await page.goto(path);
      await waitForHydration(page);
      await ready();
      expect([path, formatViolations(await axeViolations(page))]).toEqual([path, "no accessibility violations"]);
    }
  });
});
