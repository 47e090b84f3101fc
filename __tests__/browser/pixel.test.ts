/**
 * The Meta pixel behind the consent banner, against the second fixture build (which has a pixel id): one
 * Lead per signup after Accept, none after Decline, nothing asked or loaded without a pixel id.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { legacyPixelContent } from "./support/fixture-content";
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { routeMetaPixel, type MetaPixelStandIn } from "./support/meta-pixel-stand-in";
import { signUpToSuccess } from "./support/signup-page";
import { uniqueVisitor } from "./support/visitors";

/** The content of the build with a pixel id. */
const WITH_PIXEL = legacyPixelContent();
const CONSENT = WITH_PIXEL.consent;
const PIXEL_ID = WITH_PIXEL.adPixel?.id;
/** How long to keep watching for a late, second event or request after the page settled (ms). */
const QUIET_MS = 2_000;

let meta: MetaPixelStandIn;

const banner = (page: Page) => page.getByRole("region", { name: CONSENT.message });
const leads = () => meta.events.filter((e) => e.event === "Lead");

/** Let the page settle, then wait a little longer so a late event would be seen. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}

test.describe("with a pixel id", () => {
  test.use({ site: "legacyPixel" });

  test.beforeEach(async ({ context }) => {
    meta = await routeMetaPixel(context);
  });

  test("accept on /, sign up, land on /success/: exactly one Lead reaches Meta", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: CONSENT.accept }).click();
    // fbevents.js has loaded and drained the queue: the PageView of / arrived.
    await expect.poll(() => meta.events, { message: "the pixel's events" }).toEqual([{ pixelId: PIXEL_ID, event: "PageView" }]);
    await expect(banner(page)).toHaveCount(0);

    await signUpToSuccess(page, uniqueVisitor("pixel-accept"), WITH_PIXEL.home.form);
    await expect.poll(leads, { message: "the Lead events" }).toEqual([{ pixelId: PIXEL_ID, event: "Lead" }]);
    await settle(page);
    expect(leads()).toHaveLength(1);
  });

  test("decline: no request to any Meta host, and no Lead, through a whole signup", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: CONSENT.decline }).click();
    await expect(banner(page)).toHaveCount(0);

    await signUpToSuccess(page, uniqueVisitor("pixel-decline"), WITH_PIXEL.home.form);
    await settle(page);
    expect(meta.metaRequests).toEqual([]);
    expect(meta.events).toEqual([]);
    await expect
      .poll(() => page.evaluate(() => typeof (window as { fbq?: unknown }).fbq), { message: "window.fbq's type" })
      .toBe("undefined");
  });

  test("a later direct visit to /success/ with consent remembered: one Lead", async ({ context }) => {
    const first = await gotoHydrated(await context.newPage(), "/");
    await first.getByRole("button", { name: CONSENT.accept }).click();
    await expect.poll(() => meta.events, { message: "the pixel's events" }).toHaveLength(1);
    await first.close();

    const page = await gotoHydrated(await context.newPage(), "/success/");
    await expect(banner(page)).toHaveCount(0);
    await expect.poll(leads, { message: "the Lead events" }).toHaveLength(1);
    await settle(page);
    expect(leads()).toEqual([{ pixelId: PIXEL_ID, event: "Lead" }]);
    expect(meta.events.filter((e) => e.event === "PageView")).toHaveLength(2);
  });
});

test.describe("the question in the page's first paint (with a pixel id)", () => {
  test.use({ site: "legacyPixel" });

  test.beforeEach(async ({ context }) => {
    meta = await routeMetaPixel(context);
  });

  /** The page as the server sent it and its inline scripts left it: none of the site's bundles runs. */
  async function openWithoutBundles(context: BrowserContext, path: string): Promise<Page> {
    await context.route(/\.js$/, (route) => route.abort("internetdisconnected"));
    const page = await context.newPage();
    await page.goto(path, { waitUntil: "load" });
    return page;
  }

  test("asks at the top of the page before any bundle has run, above the page's heading", async ({ context }) => {
    const page = await openWithoutBundles(context, "/");
    await expect(banner(page)).toBeVisible();
    const bannerBox = await banner(page).boundingBox();
    const headingBox = await page.getByRole("heading", { level: 1 }).boundingBox();
    expect(bannerBox && headingBox && bannerBox.y + bannerBox.height <= headingBox.y).toBe(true);
  });

  test("does not ask a visitor whose answer is remembered: hidden before any bundle has run", async ({ context }) => {
    await context.addInitScript(([key]) => window.localStorage.setItem(key, "declined"), [CONSENT_STORAGE_KEY] as const);
    const page = await openWithoutBundles(context, "/");
    await expect(page.getByText(CONSENT.message)).toBeHidden();
    await expect(page.getByText(CONSENT.message)).toHaveCount(1);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("does not ask without JavaScript, where no pixel can load", async ({ page }) => {
      await page.goto("/", { waitUntil: "load" });
      await expect(page.getByText(CONSENT.message)).toBeHidden();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    });
  });
});

test.describe("without a pixel id (the main fixture build)", () => {
  test.beforeEach(async ({ context }) => {
    meta = await routeMetaPixel(context);
  });

  test("shows no banner and sends no request to Meta, on / or on /success/ after a signup", async ({ page }) => {
    await gotoHydrated(page, "/");
    await settle(page);
    await expect(banner(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: CONSENT.accept })).toHaveCount(0);

    await signUpToSuccess(page, uniqueVisitor("no-pixel"));
    await settle(page);
    await expect(banner(page)).toHaveCount(0);
    expect(meta.metaRequests).toEqual([]);
    expect(meta.events).toEqual([]);
  });
});
