/**
 * Nothing covers what a visitor reads or presses, on every page and every common screen,
 * 400 % zoom included, once the scripts have run: every visible link, button and field
 * is on top at its inner points (at the top of the page, every half screen down and at
 * the end), nothing scrolls sideways (WCAG 1.4.10), every target is at least 24 × 24 CSS px
 * (WCAG 2.5.8; links in running text aside) and no focused control is covered while
 * tabbing (WCAG 2.4.11). Each failure names the page, the screen, the control and what
 * covers it. The screens are saved to artifacts/screenshots/screens/ (at the top, and at the
 * end when the page scrolls) for people to look at.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, setUpChromium } from "./support/browser";
import { ROOT_DIR } from "./support/build-site";
import { fixtureCampaign } from "./support/fixture-content";
import { focusProblems, layoutProblems, SCREENS } from "./support/layout";
import { openAfterScripts } from "./support/page-state";

/** Every page of the site, one line each. */
const PAGES: readonly { name: string; path: string }[] = [
  { name: "home", path: "/" },
  { name: "success", path: "/success/" },
  { name: "404", path: "/no-such-page/" },
  { name: "campaign", path: fixtureCampaign().pagePath },
];

/** Where each page × screen is saved for review (gitignored). */
const SCREENS_DIR = path.join(ROOT_DIR, "artifacts", "screenshots", "screens");

const browser = setUpChromium();

beforeAll(() => {
  mkdirSync(SCREENS_DIR, { recursive: true });
});

/** The screen as the visitor sees it at the top and, when the page scrolls, at the end. */
async function saveScreens(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-top.png`) });
  const scrolls = await page.evaluate(() => document.documentElement.scrollHeight > document.documentElement.clientHeight);
  if (!scrolls) return;
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-end.png`) });
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
}

// One context per screen (its viewport and pixel ratio), one tab reused for every page.
describe.each(SCREENS)("at $name", (screen) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context } = await newGuardedContext(browser(), { viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor }));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it.each(PAGES)("$name ($path): nothing covered or too small, no sideways scroll, focus never hidden", async ({ name, path: urlPath }) => {
    await openAfterScripts(page, urlPath);
    const problems = await layoutProblems(page);
    await saveScreens(page, `${name}-${screen.slug}`);
    problems.push(...(await focusProblems(page)));
    expect(problems.map((problem) => `${name} (${urlPath}) at ${screen.name}: ${problem}`)).toEqual([]);
  });
});
