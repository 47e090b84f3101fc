/**
 * What a visitor sees on /success/, /status/ and /leaderboard/, with and without JavaScript, on globalSetup's
 * third build with the service's answers routed by each test.
 */
import type { BrowserContext, Page, Request } from "@playwright/test";
import { CHUNK_LOAD_TIMEOUT_MS, SCRIPT_RETRY_BASE_DELAY_MS } from "../../src/build/scriptRetry";
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { axeViolations, formatViolations } from "./support/axe";
import { expect, test, waitForHydration } from "./support/fixtures";
import { waitlistContent } from "./support/fixture-content";
import { routeMetaPixel } from "./support/meta-pixel-stand-in";
import { SCREENS } from "./support/layout";

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

test.use({ site: "waitlist" });

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

/** The layout shifts recordLayoutShifts saw so far. */
async function layoutShifts(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { __layoutShifts: unknown[] }).__layoutShifts);
}

test.describe("/success/", () => {
  test("sends the visitor to their inbox for their place in line and link, and asks the service nothing about them", async ({
    page,
    blocked,
  }) => {
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) asked.push(request.url());
    });
    await page.goto("/success/");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: CONTENT.success.heading })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading })).toBeVisible();
    await expect(page.getByText(referrals.checkInbox.text)).toBeVisible();
    await expect(page.getByRole("link", { name: referrals.leaderboardLink })).toHaveAttribute("href", "/leaderboard/");
    const rules = page.getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` });
    await expect(rules).toHaveAttribute("href", giveaway.rulesUrl);
    // No standing of anyone: no place, no link to copy or share, no status link.
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await expect(page.getByRole("button", { name: referrals.copyButton })).toHaveCount(0);
    await expect(page.locator('a[href*="/status/"]')).toHaveCount(0);
    await page.waitForLoadState("networkidle");
    expect(asked).toEqual([]);
    expect(blocked).toEqual([]);
  });

  test("says the same to a visitor without JavaScript", async ({ newGuardedContext }) => {
    const { context: noScript } = await newGuardedContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto("/success/");
    const main = page.locator("main");
    await expect(main).toContainText(referrals.checkInbox.heading);
    await expect(main).toContainText(referrals.checkInbox.text);
    await expect(main).toContainText(giveaway.noPurchaseNecessary);
    await expect(main).toContainText(CONTENT.success.heading);
    await expect(main).not.toContainText(referrals.friendsJoined);
  });
});

test.describe("/status/", () => {
  test("reads the standing with the link's token as a bearer token, never in the address, and shows it", async ({ page }) => {
    const requests = await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await expect(page.getByRole("heading", { level: 1, name: status.heading })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    await expect(page.getByRole("textbox", { name: referrals.linkLabel })).toHaveValue(STANDING.referralUrl);
    expect(requests[0].headers().authorization).toBe(`Bearer ${TOKEN}`);
    expect(requests.map((request) => request.url())).not.toContainEqual(expect.stringContaining(TOKEN));
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  });

  test("shows the place in line, friends joined, entries and the link, and copies the link", async ({ context, page, blocked }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await waitForHydration(page);
    const card = page.getByRole("region", { name: HEADLINE });
    await expect(card.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    await expect(card.getByText(referrals.friendsJoined).locator("..")).toHaveText(/^2\s/, { useInnerText: true });
    await expect(card.getByText(referrals.giveawayEntries).locator("..")).toHaveText(/^3\s/, { useInnerText: true });
    const rules = card.getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` });
    await expect(rules).toHaveAttribute("href", giveaway.rulesUrl);

    await card.getByRole("button", { name: referrals.copyButton }).click();
    await expect(card.getByRole("button", { name: referrals.copied })).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { message: "the clipboard" }).toBe(STANDING.referralUrl);

    const x = card.getByRole("link", { name: `${referrals.shareLinks.x} ${links.newTabHint}` });
    await expect
      .poll(async () => new URL((await x.getAttribute("href")) ?? "").searchParams.get("text"), { message: "the X share link's text" })
      .toBe(referrals.shareMessage.replace("{link}", STANDING.referralUrl));
    expect(blocked).toEqual([]);
  });

  // At the default size the card runs past the fold; on these screens it is centred with the footer in view, so
  // anything the standing's answer added under the card would move both.
  for (const screen of SCREENS.filter(({ name }) => name === "768×1024" || name === "1920×1080")) {
    test.describe(`at ${screen.name}`, () => {
      test.use({ viewport: screen.viewport });

      test("fills the numbers and the link in where the dashes were: nothing on the page moves", async ({ context, page }) => {
        await recordLayoutShifts(context);
        await routeApi(page, "/api/status", 200, STANDING);
        await page.goto(`/status/#t=${TOKEN}`);
        await waitForHydration(page);
        await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
        await expect(page.getByRole("button", { name: status.drawPlace.check })).toBeVisible();
        await page.waitForLoadState("networkidle");
        await expect.poll(() => layoutShifts(page), { message: "the layout shifts the page recorded" }).toEqual([]);
      });
    });
  }

  test("moves the token out of the address bar once read, and a reload still shows the standing", async ({ page, waitlist }) => {
    const requests = await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    await expect(page).toHaveURL(`${waitlist.origin}/status/`);

    await page.reload();
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    await expect(page).toHaveURL(`${waitlist.origin}/status/`);
    expect(requests.map((request) => request.headers().authorization)).toEqual(requests.map(() => `Bearer ${TOKEN}`));
    expect(requests.length).toBeGreaterThanOrEqual(2);
  });

  test("never requests the ad pixel, even with consent given, while the same visit's other pages load it", async ({ context, page }) => {
    const meta = await routeMetaPixel(context);
    await context.addInitScript(([key]) => localStorage.setItem(key, "accepted"), [CONSENT_STORAGE_KEY]);
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("region", { name: CONTENT.consent.message })).toHaveCount(0);
    await expect
      .poll(() => page.evaluate(() => typeof (window as { fbq?: unknown }).fbq), { message: "window.fbq's type" })
      .toBe("undefined");
    expect(meta.metaRequests).toEqual([]);

    // The control: this build has a pixel, and the consent given loads it on a page that is not the status page.
    const leaderboardPage = await context.newPage();
    await routeApi(leaderboardPage, "/api/leaderboard", 200, { entries: [] });
    await leaderboardPage.goto("/leaderboard/");
    await expect
      .poll(() => meta.events, { message: "the pixel's events on /leaderboard/" })
      .toContainEqual({ pixelId: CONTENT.adPixel?.id, event: "PageView" });
  });

  test("says the link is not known when the service answers 401", async ({ page }) => {
    await routeApi(page, "/api/status", 401, { errors: [{ status: "401", code: "unauthorized" }] });
    await page.goto(`/status/#t=${TOKEN}`);
    await expect(page.getByText(status.unknownToken)).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toBeHidden();
  });
});

/**
 * The scripts a status page needs before it can read its link: the three the inline loader adds, then the page's own
 * chunk, which webpack loads. Gatsby renders nothing while one of them is missing.
 */
/** The status page's own chunk, with or without the retry's query string. */
const STATUS_CHUNK = /\/component---src-pages-status-tsx-[0-9a-f]+\.js/;

const STATUS_PAGE_SCRIPTS: [string, RegExp][] = [
  ["webpack's runtime", /\/webpack-runtime-[0-9a-f]+\.js$/],
  ["the framework", /\/framework-[0-9a-f]+\.js$/],
  ["the app", /\/app-[0-9a-f]+\.js$/],
  ["the status page's own chunk", STATUS_CHUNK],
];

test.describe("/status/ on a connection that drops a request", () => {
  for (const [script, pattern] of STATUS_PAGE_SCRIPTS) {
    test(`shows the standing when ${script} fails to load the first time`, async ({ page }) => {
      const attempts: string[] = [];
      await page.route(pattern, (route) => {
        attempts.push(route.request().url());
        return attempts.length === 1 ? route.abort("connectionreset") : route.continue();
      });
      await routeApi(page, "/api/status", 200, STANDING);
      await page.goto(`/status/#t=${TOKEN}`);
      await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
      expect(attempts.length, `requests for ${script}`).toBeGreaterThanOrEqual(2);
    });
  }

  test("shows the standing when the first request for the status page's own chunk gets no answer", async ({ page }) => {
    // The page gives a chunk CHUNK_LOAD_TIMEOUT_MS on its own clock, which the test moves on instead of waiting.
    await page.clock.install();
    const attempts: string[] = [];
    await page.route(STATUS_CHUNK, (route) => {
      attempts.push(route.request().url());
      // The first request stalls, as on a connection that stops answering: never continued, never aborted.
      return attempts.length === 1 ? undefined : route.continue();
    });
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await expect.poll(() => attempts.length, { message: "requests for the status page's own chunk" }).toBe(1);
    await page.clock.runFor(CHUNK_LOAD_TIMEOUT_MS + SCRIPT_RETRY_BASE_DELAY_MS);
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    expect(attempts.length, "requests for the status page's own chunk").toBeGreaterThanOrEqual(2);
  });

  test("shows the standing after a reload whose first request for the app fails", async ({ page }) => {
    await routeApi(page, "/api/status", 200, STANDING);
    await page.goto(`/status/#t=${TOKEN}`);
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    let dropped = false;
    await page.route(/\/app-[0-9a-f]+\.js$/, (route) => {
      if (dropped) return route.continue();
      dropped = true;
      return route.abort("connectionreset");
    });
    await page.reload();
    await expect(page.getByRole("heading", { level: 2, name: HEADLINE })).toBeVisible();
    expect(dropped, "the reload asked for the app again").toBe(true);
  });
});

test.describe("/leaderboard/", () => {
  test("shows the heading and intro, then the top referrers with shortened names", async ({ page }) => {
    await routeApi(page, "/api/leaderboard", 200, {
      entries: [
        { rank: 1, name: "Jordan S.", referrals: 1234 },
        { rank: 2, name: "Alex P.", referrals: 7 },
      ],
    });
    await page.goto("/leaderboard/");
    await expect(page.getByRole("heading", { level: 1, name: leaderboard.heading })).toBeVisible();
    await expect(page.getByText(leaderboard.intro)).toBeVisible();
    const table = page.getByRole("table", { name: leaderboard.heading });
    await expect(table.getByRole("rowheader", { name: "Jordan S." })).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText([
      leaderboard.columns.rank,
      leaderboard.columns.name,
      leaderboard.columns.referrals,
    ]);
    const rows = table.locator("tbody").getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).locator(":scope > *")).toHaveText(["1", "Jordan S.", "1,234"]);
    await expect(rows.nth(1).locator(":scope > *")).toHaveText(["2", "Alex P.", "7"]);
  });

  test("fills the rows in where the dashes were, however few there are: nothing on the page moves", async ({ context, page }) => {
    await recordLayoutShifts(context);
    await routeApi(page, "/api/leaderboard", 200, { entries: [{ rank: 1, name: "Jordan S.", referrals: 1234 }] });
    await page.goto("/leaderboard/");
    await waitForHydration(page);
    await expect(page.getByRole("rowheader", { name: "Jordan S." })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect.poll(() => layoutShifts(page), { message: "the layout shifts the page recorded" }).toEqual([]);
  });

  test("says nobody is on the board yet when it is empty", async ({ page }) => {
    await routeApi(page, "/api/leaderboard", 200, { entries: [] });
    await page.goto("/leaderboard/");
    await expect(page.getByText(leaderboard.empty)).toBeVisible();
  });
});

test.describe("accessibility (WCAG 2.2 AA, axe)", () => {
  test("/success/ with its inbox card, /status/ with the referral card filled in and /leaderboard/ have no violations", async ({
    page,
  }) => {
    await routeApi(page, "/api/status", 200, STANDING);
    await routeApi(page, "/api/leaderboard", 200, { entries: [{ rank: 1, name: "Jordan S.", referrals: 1234 }] });
    for (const [path, ready] of [
      ["/success/", page.getByRole("heading", { level: 2, name: referrals.checkInbox.heading })],
      [`/status/#t=${TOKEN}`, page.getByRole("heading", { level: 2, name: HEADLINE })],
      ["/leaderboard/", page.getByRole("rowheader", { name: "Jordan S." })],
    ] as const) {
      await page.goto(path);
      await waitForHydration(page);
      await expect(ready).toBeVisible();
      expect([path, formatViolations(await axeViolations(page))]).toEqual([path, "no accessibility violations"]);
    }
  });
});
