/**
 * The README's pictures, as a visitor has them once the scripts have run, and the one layout rule a visitor
 * notices at once: nothing scrolls sideways. Written to artifacts/screenshots/; UPDATE_README_SCREENSHOTS=1
 * also replaces docs/screenshots/.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { newGuardedContext, setUpChromium, VIEWPORTS } from "./support/browser";
import { ROOT_DIR } from "./support/build-site";
import { FIXTURE } from "./support/fixture-content";
import { holdToast, openAfterScripts } from "./support/page-state";
import { signUpToSuccess } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

/** Where screenshots go on every run. */
const SCREENSHOT_DIR = path.join(ROOT_DIR, "artifacts", "screenshots");
/** The README's copies, replaced only when asked: a test run on another machine (other fonts) must not rewrite committed files. */
const README_SCREENSHOT_DIR = path.join(ROOT_DIR, "docs", "screenshots");
const UPDATE_README = process.env.UPDATE_README_SCREENSHOTS === "1";
/** A fixed moment before the fixture's launch, so the countdown reads the same in every screenshot. */
const PICTURE_TIME_MS = Date.parse("2030-05-29T07:54:30-07:00");

/** How each pictured page is reached, as a visitor reaches it. */
const PAGES: readonly [name: string, reach: (page: Page) => Promise<void>][] = [
  ["home", (page) => openAfterScripts(page, "/")],
  [
    "success",
    async (page) => {
      await openAfterScripts(page, "/");
      await signUpToSuccess(page, uniqueVisitor("screenshot"));
      await holdToast(toastTitled(page, FIXTURE.toasts.success.title));
    },
  ],
  ["404", (page) => openAfterScripts(page, "/no-such-page/")],
];

const browser = setUpChromium();

beforeAll(() => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

const cases = PAGES.flatMap(([name, reach]) =>
  (Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]).map((viewport) => [name, viewport, reach] as const),
);

it.each(cases)("%s at %s size fits the width and is saved as a screenshot", async (name, viewport, reach) => {
  const { context } = await newGuardedContext(browser(), { viewport: VIEWPORTS[viewport], deviceScaleFactor: 1 });
  try {
    await context.clock.setFixedTime(PICTURE_TIME_MS);
    const page = await context.newPage();
    await reach(page);

    const file = path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    if (UPDATE_README) copyFileSync(file, path.join(README_SCREENSHOT_DIR, path.basename(file)));

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  } finally {
    await context.close();
  }
});
