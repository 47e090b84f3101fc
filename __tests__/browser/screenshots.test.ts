/**
 * The README's pictures, as a visitor has them once the scripts have run, and the one layout rule a visitor
 * notices at once: nothing scrolls sideways, at phone and desktop size (the config's phone and desktop projects).
 * Written to artifacts/screenshots/; UPDATE_README_SCREENSHOTS=1 also replaces docs/screenshots/.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ROOT_DIR } from "./support/build-site";
import { expect, test } from "./support/fixtures";
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

test.use({ deviceScaleFactor: 1 });

test.beforeAll(() => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

for (const [name, reach] of PAGES) {
  test(`${name} fits the width and is saved as a screenshot`, async ({ page }, testInfo) => {
    await page.clock.setFixedTime(PICTURE_TIME_MS);
    await reach(page);

    // Named by the project's size, as the README shows them: home-phone.png, home-desktop.png.
    const file = path.join(SCREENSHOT_DIR, `${name}-${testInfo.project.name}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    if (UPDATE_README) copyFileSync(file, path.join(README_SCREENSHOT_DIR, path.basename(file)));

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "px the page scrolls sideways").toBe(0);
  });
}
