/**
 * Headless Debian Chromium through playwright-core, with every request that would
 * leave the machine blocked: tests talk to 127.0.0.1 only.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../../scripts/lib/chromium";
import { waitForHydration } from "../../../scripts/lib/hydration";
import { runEnv } from "./run-env";

export { CHROMIUM_ARGS };

/** Phone and desktop viewports the screenshots and layout checks use. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

/**
 * Launch headless Chromium: the browser `findChromium` picks.
 * @throws ChromiumNotFoundError with the install command when the machine has no browser
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
}

/** A browser context whose requests to anywhere but 127.0.0.1 are aborted and noted. */
export interface GuardedContext {
  context: BrowserContext;
  /** URLs of the requests that were blocked because they would have left the machine. */
  blocked: string[];
}

/** A new context with requests leaving 127.0.0.1 aborted, and `baseURL` set to the static server. */
export async function newGuardedContext(browser: Browser, options: BrowserContextOptions = {}): Promise<GuardedContext> {
  const context = await browser.newContext({ baseURL: runEnv().siteOrigin, ...options });
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).hostname === "127.0.0.1") return route.continue();
    blocked.push(url);
    return route.abort("blockedbyclient");
  });
  return { context, blocked };
}

/** Wait until React has hydrated the page (shared with the bench). */
export { waitForHydration };

/** Open a path of the built site, e.g. "/success/", and wait for hydration. */
export async function openHydrated(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await waitForHydration(page);
  return page;
}

/**
 * One Chromium for the calling test file, launched before its first test and closed
 * after its last (this registers the file's beforeAll/afterAll hooks).
 * @returns a function that gives the running browser
 * @throws Error (from the returned function) when called before the beforeAll hook ran
 */
export function setUpChromium(): () => Browser {
  let browser: Browser | null = null;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("Chromium is not running yet: use the browser inside a test or a beforeEach hook.");
    return browser;
  };
}
