/**
 * Screenshots of /, /success/ and the 404 page at phone and desktop size, written to
 * artifacts/screenshots/ (gitignored) on every run for people and CI to look at, plus
 * the one layout rule a visitor notices at once: nothing scrolls sideways.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium, newGuardedContext, VIEWPORTS, waitForHydration } from "./support/browser";
import { ROOT_DIR } from "./support/build-site";

/** Where screenshots go (docs/screenshots/ holds reviewed copies). */
const SCREENSHOT_DIR = path.join(ROOT_DIR, "artifacts", "screenshots");
/** A fixed moment before the fixture's launch, so the countdown reads the same in every screenshot. */
const PICTURE_TIME_MS = Date.parse("2030-05-29T07:54:30-07:00");

const PAGES = [
  ["home", "/"],
  ["success", "/success/"],
  ["404", "/no-such-page/"],
] as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const cases = PAGES.flatMap(([name, urlPath]) =>
  (Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]).map((viewport) => [name, urlPath, viewport] as const),
);

it.each(cases)("%s (%s) at %s size fits the width and is saved as a screenshot", async (name, urlPath, viewport) => {
  const { context } = await newGuardedContext(browser, { viewport: VIEWPORTS[viewport], deviceScaleFactor: 1 });
  try {
    await context.clock.setFixedTime(PICTURE_TIME_MS);
    const page = await context.newPage();
    await page.goto(urlPath);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");

    const file = path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  } finally {
    await context.close();
  }
});
