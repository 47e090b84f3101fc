/**
 * /success/, the 404 page and a clean console, in a real browser (product rules 3 and 4).
 */
import type { BrowserContext } from "playwright-core";
import { newGuardedContext, openHydrated, waitForHydration, setUpChromium } from "./support/browser";
import { collectConsole, problems } from "./support/console-collector";
import { eventually } from "./support/eventually";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";

const DISCORD_INVITE = FIXTURE.links.discordInviteUrl;
const { notFound } = FIXTURE;

const browser = setUpChromium();
let context: BrowserContext;
let blocked: string[];

beforeEach(async () => {
  ({ context, blocked } = await newGuardedContext(browser()));
});
afterEach(async () => {
  await context?.close();
});

describe("/success/", () => {
  it("fires the ad pixel's 'Lead' event exactly once when a pixel is on the page", async () => {
    await context.addInitScript(() => {
      const calls: unknown[][] = [];
      Object.assign(window, { __fbqCalls: calls, fbq: (...args: unknown[]) => calls.push(args) });
    });
    const page = await openHydrated(context, "/success/");
    await page.getByRole("heading", { name: FIXTURE.success.heading }).waitFor();
    await page.waitForLoadState("networkidle");
    const calls = await page.evaluate(() => (window as unknown as { __fbqCalls: unknown[][] }).__fbqCalls);
    expect(calls).toEqual([["track", "Lead"]]);
  });

  it("does nothing, and logs nothing, when there is no ad pixel", async () => {
    const page = await context.newPage();
    const log = collectConsole(page);
    await page.goto("/success/");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => typeof (window as { fbq?: unknown }).fbq)).toBe("undefined");
    expect(problems(log)).toEqual([]);
  });

  it(`opens the fixture's Discord invite in a new tab from '${FIXTURE.success.button}', without access to this page`, async () => {
    const page = await openHydrated(context, "/success/");
    const link = page.getByRole("link", { name: new RegExp(escapeRegExp(FIXTURE.success.button)) });
    expect(await link.getAttribute("href")).toBe(DISCORD_INVITE);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect((await link.getAttribute("rel"))?.split(/\s+/)).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));

    const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
    // The guard aborts the request, so the invite is only attempted, never loaded.
    await eventually(() => expect(blocked).toContain(DISCORD_INVITE));
    expect(await tab.evaluate(() => window.opener === null)).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/success/");
  });
});

describe("an unknown path", () => {
  it("answers 404 with the not-found page, logs the path and links home", async () => {
    const page = await context.newPage();
    const log = collectConsole(page);
    const response = await page.goto("/no-such-page/");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);

    await page.getByRole("heading", { name: notFound.heading }).waitFor();
    expect(await page.getByText(notFound.code, { exact: true }).isVisible()).toBe(true);
    await eventually(() =>
      expect(log.filter((e) => e.type === "error").map((e) => e.text)).toContain(`${notFound.consoleMessage} /no-such-page/`),
    );

    await page.getByRole("link", { name: notFound.homeLink }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { name: FIXTURE.home.title }).waitFor();
  });
});

describe("the console", () => {
  it.each(["/", "/success/"])("stays free of errors and warnings (hydration included) on %s", async (path) => {
    const page = await context.newPage();
    const log = collectConsole(page);
    await page.goto(path);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    expect(problems(log)).toEqual([]);
    expect(blocked).toEqual([]);
  });
});
