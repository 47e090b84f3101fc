/**
 * Playwright Test for the real-browser suite (`__tests__/browser`): Debian's Chromium headless shell (never a
 * downloaded build), globalSetup building the fixture site three times and starting the stand-ins and `wrangler dev`,
 * the waits sized once here for a loaded 2-core CI machine, and a trace, a screenshot and the page's state kept for
 * every failure under artifacts/. Run with `npm run test:browser`; docs/testing.md describes the suites.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findTestChromium } from "./scripts/lib/chromium";
import { VIEWPORTS } from "./__tests__/browser/support/viewports";

const CI = Boolean(process.env.CI);

/** The files whose every test runs at both sizes (the phone and desktop projects); the rest run once at the default size. */
const AT_EACH_SIZE = ["**/a11y-axe.test.ts", "**/screenshots.test.ts"];

export default defineConfig({
  testDir: "__tests__/browser",
  testMatch: "**/*.test.ts",
  // Builds the fixture three times and starts the servers; the function it returns stops them (the global teardown).
  globalSetup: "./__tests__/browser/support/global-setup.ts",
  outputDir: "artifacts/playwright",
  snapshotPathTemplate: "{testDir}/__snapshots__/{testFilePath}/{arg}{ext}",
  // A worker per core, as jest and vitest run: in the headless shell one worker leaves much of a core idle while tests
  // wait on pages, services and timers, and two finish CI's run sooner (docs/testing.md has the times). Each worker
  // has its own waitlist service (support/worker-service.ts), so files running side by side never share a D1.
  workers: "100%",
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  // The whole test, on a loaded machine: the retries and backoffs run on the page's clock (support/page-clock.ts),
  // but the longest tests still wait on real things: the local run's delivery, a browser coming back online.
  timeout: 90_000,
  // Web-first assertions and expect.poll: as long as the waits of the jest suite before them (playwright-core's 30 s),
  // which the web editor's bundle and a loaded machine need; short enough to fail before the test does.
  expect: { timeout: 30_000 },
  reporter: [["list"], ["html", { outputFolder: "artifacts/playwright-report", open: "never" }]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: findTestChromium(), args: CHROMIUM_ARGS },
    navigationTimeout: 30_000,
    actionTimeout: 30_000,
    trace: CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "chromium", testIgnore: AT_EACH_SIZE },
    { name: "phone", testMatch: AT_EACH_SIZE, use: { viewport: VIEWPORTS.phone } },
    { name: "desktop", testMatch: AT_EACH_SIZE, use: { viewport: VIEWPORTS.desktop } },
  ],
});
