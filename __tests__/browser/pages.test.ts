/**
 * /success/, the 404 page and a clean console, in a real browser (product rules 3 and 4).
 */
import { collectConsole, problems } from "./support/console-collector";
import { expect, gotoHydrated, test, waitForHydration } from "./support/fixtures";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";

const DISCORD_INVITE = FIXTURE.links.discordInviteUrl;
const { notFound } = FIXTURE;

test.describe("/success/", () => {
  test("fires the ad pixel's 'Lead' event exactly once when a pixel is on the page", async ({ context, page }) => {
    await context.addInitScript(() => {
      const calls: unknown[][] = [];
      Object.assign(window, { __fbqCalls: calls, fbq: (...args: unknown[]) => calls.push(args) });
    });
    await gotoHydrated(page, "/success/");
    await expect(page.getByRole("heading", { name: FIXTURE.success.heading })).toBeVisible();
    await page.waitForLoadState("networkidle");
    const calls = await page.evaluate(() => (window as unknown as { __fbqCalls: unknown[][] }).__fbqCalls);
    expect(calls).toEqual([["track", "Lead"]]);
  });

  test("does nothing, and logs nothing, when there is no ad pixel", async ({ page }) => {
    const log = collectConsole(page);
    await page.goto("/success/");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await expect
      .poll(() => page.evaluate(() => typeof (window as { fbq?: unknown }).fbq), { message: "window.fbq's type" })
      .toBe("undefined");
    expect(problems(log)).toEqual([]);
  });

  test(`opens the fixture's Discord invite in a new tab from '${FIXTURE.success.button}', without access to this page`, async ({
    context,
    page,
    blocked,
  }) => {
    await gotoHydrated(page, "/success/");
    const link = page.getByRole("link", { name: new RegExp(escapeRegExp(FIXTURE.success.button)) });
    await expect(link).toHaveAttribute("href", DISCORD_INVITE);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /(^|\s)noopener(\s|$)/);
    await expect(link).toHaveAttribute("rel", /(^|\s)noreferrer(\s|$)/);

    const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
    // The guard aborts the request, so the invite is only attempted, never loaded.
    await expect.poll(() => blocked, { message: "requests the guard blocked" }).toContain(DISCORD_INVITE);
    await expect.poll(() => tab.evaluate(() => window.opener === null), { message: "the new tab's window.opener is null" }).toBe(true);
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });
});

test.describe("an unknown path", () => {
  test("answers 404 with the not-found page, logs the path and links home", async ({ page }) => {
    const log = collectConsole(page);
    const response = await page.goto("/no-such-page/");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);

    await expect(page.getByRole("heading", { name: notFound.heading })).toBeVisible();
    await expect(page.getByText(notFound.code, { exact: true })).toBeVisible();
    await expect
      .poll(() => log.filter((e) => e.type === "error").map((e) => e.text), { message: "the page's console errors" })
      .toContain(`${notFound.consoleMessage} /no-such-page/`);

    await page.getByRole("link", { name: notFound.homeLink }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
    await expect(page.getByRole("heading", { name: FIXTURE.home.title })).toBeVisible();
  });
});

test.describe("the console", () => {
  for (const path of ["/", "/success/"]) {
    test(`stays free of errors and warnings (hydration included) on ${path}`, async ({ page, blocked }) => {
      const log = collectConsole(page);
      await page.goto(path);
      await waitForHydration(page);
      await page.waitForLoadState("networkidle");
      expect(problems(log)).toEqual([]);
      expect(blocked).toEqual([]);
    });
  }
});
