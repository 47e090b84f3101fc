/**
 * The Meta pixel behind the consent banner, against the second fixture build (which has a pixel id): one
 * Lead per signup after Accept, none after Decline, nothing asked or loaded without a pixel id.
 */
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { legacyPixelContent } from "./support/fixture-content";
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { routeMetaPixel, type MetaPixelStandIn } from "./support/meta-pixel-stand-in";
import { legacyPixelSiteOrigin } from "./support/run-env";
import { signUpToSuccess } from "./support/signup-page";
import { uniqueVisitor } from "./support/visitors";

/** The content of the build with a pixel id. */
const WITH_PIXEL = legacyPixelContent();
const CONSENT = WITH_PIXEL.consent;
const PIXEL_ID = WITH_PIXEL.adPixel?.id;
/** How long to keep watching for a late, second event or request after the page settled (ms). */
const QUIET_MS = 2_000;

const browser = setUpChromium();
let context: BrowserContext;
let meta: MetaPixelStandIn;

afterEach(async () => {
  await context?.close();
});

const banner = (page: Page) => page.getByRole("region", { name: CONSENT.message });
const leads = () => meta.events.filter((e) => e.event === "Lead");

/** Let the page settle, then wait a little longer so a late event would be seen. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}

describe("with a pixel id", () => {
  beforeEach(async () => {
    ({ context } = await newGuardedContext(browser(), { baseURL: legacyPixelSiteOrigin() }));
    meta = await routeMetaPixel(context);
  });

  it("accept on /, sign up, land on /success/: exactly one Lead reaches Meta", async () => {
    const page = await openHydrated(context, "/");
    await page.getByRole("button", { name: CONSENT.accept }).click();
    // fbevents.js has loaded and drained the queue: the PageView of / arrived.
    await eventually(() => expect(meta.events).toEqual([{ pixelId: PIXEL_ID, event: "PageView" }]));
    expect(await banner(page).count()).toBe(0);

    await signUpToSuccess(page, uniqueVisitor("pixel-accept"), WITH_PIXEL.home.form);
    await eventually(() => expect(leads()).toEqual([{ pixelId: PIXEL_ID, event: "Lead" }]));
    await settle(page);
    expect(leads()).toHaveLength(1);
  });

  it("decline: no request to any Meta host, and no Lead, through a whole signup", async () => {
    const page = await openHydrated(context, "/");
    await page.getByRole("button", { name: CONSENT.decline }).click();
    expect(await banner(page).count()).toBe(0);

    await signUpToSuccess(page, uniqueVisitor("pixel-decline"), WITH_PIXEL.home.form);
    await settle(page);
    expect(meta.metaRequests).toEqual([]);
    expect(meta.events).toEqual([]);
    expect(await page.evaluate(() => typeof (window as { fbq?: unknown }).fbq)).toBe("undefined");
  });

  it("a later direct visit to /success/ with consent remembered: one Lead", async () => {
    const first = await openHydrated(context, "/");
    await first.getByRole("button", { name: CONSENT.accept }).click();
    await eventually(() => expect(meta.events).toHaveLength(1));
    await first.close();

    const page = await openHydrated(context, "/success/");
    expect(await banner(page).count()).toBe(0);
    await eventually(() => expect(leads()).toHaveLength(1));
    await settle(page);
    expect(leads()).toEqual([{ pixelId: PIXEL_ID, event: "Lead" }]);
    expect(meta.events.filter((e) => e.event === "PageView")).toHaveLength(2);
  });
});

describe("the question in the page's first paint (with a pixel id)", () => {
  beforeEach(async () => {
    ({ context } = await newGuardedContext(browser(), { baseURL: legacyPixelSiteOrigin() }));
    meta = await routeMetaPixel(context);
  });

  /** The page as the server sent it and its inline scripts left it: none of the site's bundles runs. */
  async function openWithoutBundles(path: string): Promise<Page> {
    await context.route(/\.js$/, (route) => route.abort("internetdisconnected"));
    const page = await context.newPage();
    await page.goto(path, { waitUntil: "load" });
    return page;
  }

  it("asks at the top of the page before any bundle has run, above the page's heading", async () => {
    const page = await openWithoutBundles("/");
    await expect(banner(page).isVisible()).resolves.toBe(true);
    const bannerBox = await banner(page).boundingBox();
    const headingBox = await page.getByRole("heading", { level: 1 }).boundingBox();
    expect(bannerBox && headingBox && bannerBox.y + bannerBox.height <= headingBox.y).toBe(true);
  });

  it("does not ask a visitor whose answer is remembered: hidden before any bundle has run", async () => {
    await context.addInitScript(([key]) => window.localStorage.setItem(key, "declined"), [CONSENT_STORAGE_KEY] as const);
    const page = await openWithoutBundles("/");
    await expect(page.getByText(CONSENT.message).isVisible()).resolves.toBe(false);
    await expect(page.getByText(CONSENT.message).count()).resolves.toBe(1);
  });

  it("does not ask without JavaScript, where no pixel can load", async () => {
    await context.close();
    ({ context } = await newGuardedContext(browser(), { baseURL: legacyPixelSiteOrigin(), javaScriptEnabled: false }));
    const page = await context.newPage();
    await page.goto("/", { waitUntil: "load" });
    await expect(page.getByText(CONSENT.message).isVisible()).resolves.toBe(false);
    await expect(page.getByRole("heading", { level: 1 }).isVisible()).resolves.toBe(true);
  });
});

describe("without a pixel id (the main fixture build)", () => {
  beforeEach(async () => {
    ({ context } = await newGuardedContext(browser()));
    meta = await routeMetaPixel(context);
  });

  it("shows no banner and sends no request to Meta, on / or on /success/ after a signup", async () => {
    const page = await openHydrated(context, "/");
    await settle(page);
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByRole("button", { name: CONSENT.accept }).count()).toBe(0);

    await signUpToSuccess(page, uniqueVisitor("no-pixel"));
    await settle(page);
    expect(await banner(page).count()).toBe(0);
    expect(meta.metaRequests).toEqual([]);
    expect(meta.events).toEqual([]);
  });
});
