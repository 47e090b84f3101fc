/**
 * Nothing covers what a visitor reads or presses, on every page and common screen (400 % zoom
 * included), with the checks of support/layout.ts. Screens are saved to artifacts/screenshots/screens/ (not on CI).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { CONSOLE_PATH } from "../../shared/routes";
import { ROOT_DIR } from "./support/build-site";
import { consoleOrigin } from "./support/console-page";
import { expect, test } from "./support/fixtures";
import { FIXTURE, fixtureCampaign, legacyPixelContent } from "./support/fixture-content";
import { focusProblems, layoutProblems, SCREENS } from "./support/layout";
import { openAfterScripts } from "./support/page-state";
import { legacyPixelSiteOrigin, runEnv, waitlistSite } from "./support/run-env";
import { peopleInEachInvitationState, type InvitationStates } from "./support/launch";
import { demoLinksOf, nextClientIp } from "./support/waitlist-service";

/** One page under test: on the main build, or on another build's origin. */
interface PageUnderTest {
  name: string;
  /** Path, with the status page's fragment when it needs one. */
  path: () => string;
  /** The build that has the page, when not the main one: the referral program's (the waitlist service) or the pixel's. */
  origin?: () => string;
  /** What must be on screen before the layout is measured, when it appears only after the scripts ran. */
  shows?: (page: Page) => Locator;
}

/** A real person's status link, as the local run's demo delivery logs it for a signup (set in beforeAll). */
let statusUrl: string;
/** The status links of people invited, accepted and expired (set in beforeAll). */
let invitationStates: InvitationStates;

/** Every page of the site, one line each. */
const PAGES: readonly PageUnderTest[] = [
  { name: "home", path: () => "/" },
  { name: "success", path: () => "/success/" },
  { name: "404", path: () => "/no-such-page/" },
  { name: "campaign", path: () => fixtureCampaign().pagePath },
  { name: "giveaway draw", path: () => "/giveaway/draw/" },
  // The operator's console on a build without its API: the shell and the content's words for the missing service.
  {
    name: "console",
    path: () => CONSOLE_PATH,
    origin: () => consoleOrigin(runEnv().siteOrigin),
    shows: (page) => page.getByRole("alert").filter({ hasText: FIXTURE.console.errors.unavailable }),
  },
  // The referral program's pages: /success/ with its inbox card, the status page with a real standing, the leaderboard.
  { name: "success with the inbox card", path: () => "/success/", origin: () => waitlistSite().origin },
  {
    name: "status",
    path: () => new URL(statusUrl).pathname + new URL(statusUrl).hash,
    origin: () => waitlistSite().origin,
    // The standing's answer adds the draw check below the card, moving the footer: measured once it is there.
    shows: (page) => page.getByRole("button", { name: FIXTURE.status.drawPlace.check }),
  },
  { name: "leaderboard", path: () => "/leaderboard/", origin: () => waitlistSite().origin },
  // Launch day: the status page in each invitation state, and the console's Launch screen with its funnel, chart,
  // schedule and batches (the worker's service has the local run's operator).
  ...(["invited", "accepted", "expired"] as const).map((state): PageUnderTest => ({
    name: `status ${state}`,
    path: () => new URL(invitationStates[state]).pathname + new URL(invitationStates[state]).hash,
    origin: () => waitlistSite().origin,
    shows: (page) =>
      page.getByText((state === "accepted" ? FIXTURE.status.invitation.joined : FIXTURE.status.invitation[state]).split("{date}")[0]),
  })),
  {
    name: "console launch",
    path: () => `${CONSOLE_PATH}#launch`,
    origin: () => consoleOrigin(waitlistSite().origin),
    shows: (page) => page.getByRole("table", { name: FIXTURE.console.launch.funnelCaption }),
  },
  // A site with an ad pixel asks first: the consent banner stays over the page until the visitor answers.
  {
    name: "home with the consent banner",
    path: () => "/",
    origin: legacyPixelSiteOrigin,
    shows: (page) => page.getByRole("region", { name: legacyPixelContent().consent.message }),
  },
];

test.beforeAll(async () => {
  const { origin } = waitlistSite();
  const email = `layout-${Date.now()}@example.test`;
  const response = await fetch(`${origin}/api/signups`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "cf-connecting-ip": nextClientIp() },
    body: JSON.stringify({ email, firstName: "Jordan", lastName: "Smith" }),
  });
  expect(response.status).toBe(202);
  ({ statusUrl } = await demoLinksOf(email));
  invitationStates = await peopleInEachInvitationState();
});

/** Where each page × screen is saved for review (gitignored). */
const SCREENS_DIR = path.join(ROOT_DIR, "artifacts", "screenshots", "screens");

test.beforeAll(() => {
  mkdirSync(SCREENS_DIR, { recursive: true });
});

/**
 * The screen as the visitor sees it at the top and, when the page scrolls, at the end. Not on CI: its machine is thrown
 * away after the run, and a failing test keeps its own screenshot with its trace.
 */
async function saveScreens(page: Page, name: string): Promise<void> {
  if (process.env.CI) return;
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-top.png`) });
  const scrolls = await page.evaluate(() => document.documentElement.scrollHeight > document.documentElement.clientHeight);
  if (!scrolls) return;
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-end.png`) });
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
}

// Each screen's viewport and pixel ratio, a fresh tab for every page. The pages share nothing but the status link
// (beforeAll, once per worker): both workers take them, rather than one worker the whole file.
test.describe.configure({ mode: "parallel" });
for (const screen of SCREENS) {
  test.describe(`at ${screen.name}`, () => {
    test.use({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });

    for (const { name, path, origin, shows } of PAGES) {
      test(`${name}: nothing covered or too small, no sideways scroll, focus never hidden`, async ({ page }) => {
        const urlPath = path();
        await openAfterScripts(page, origin ? `${origin()}${urlPath}` : urlPath);
        if (shows) await expect(shows(page)).toBeVisible();
        const problems = await layoutProblems(page);
        await saveScreens(page, `${name.replace(/ /g, "-")}-${screen.slug}`);
        problems.push(...(await focusProblems(page)));
        expect(problems.map((problem) => `${name} (${urlPath}) at ${screen.name}: ${problem}`)).toEqual([]);
      });
    }
  });
}
