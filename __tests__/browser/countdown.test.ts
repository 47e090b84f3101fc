/**
 * The launch countdown with the browser's clock under test control (product rule 20):
 * zeros after the launch, one-second ticks before it, the same figures in any time zone.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";

/** The fixture's launch moment (launch.moment, with its offset) in ms since the epoch. */
const LAUNCH_AT_MS = Date.parse(FIXTURE.launch.moment);
/** The unit labels (home.countdown) as patterns that ignore white space, as a visitor reads past it. */
const { days, hours, minutes, seconds } = FIXTURE.home.countdown;
const UNITS = [days, hours, minutes, seconds].map((unit) => [...unit.replace(/\s+/g, "")].map(escapeRegExp).join("\\s*"));

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Where the visitor's clock starts: a whole number of seconds before the launch. */
const START_BEFORE_LAUNCH_MS = 3 * DAY + 4 * HOUR + 5 * MINUTE + 30 * SECOND;
/** How far the clock is moved on once the page is ready (longer than hydration can take). */
const SETTLE_MS = 60 * SECOND;

/** The timer's whole text for four figures (days, hours, minutes, seconds), e.g. ["03", "04", "04", "30"], each before its unit. */
function reading(figures: string[]): RegExp {
  return new RegExp(`^\\s*${figures.map((figure, index) => `${figure}\\s*${UNITS[index]}\\s*`).join("")}$`);
}

/** What the countdown should read `remainingMs` before the launch, worked out here from epoch ms. */
function expected(remainingMs: number): string[] {
  const s = Math.floor(remainingMs / SECOND);
  return [Math.floor(s / 86_400), Math.floor(s / 3_600) % 24, Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, "0"));
}

/** Open / on `page` with its clock starting at `startMs`. */
async function openWithClock(page: Page, startMs: number): Promise<void> {
  await page.clock.install({ time: startMs });
  await gotoHydrated(page, "/");
}

test("shows zeros in all four units once the launch moment has passed", async ({ page }) => {
  await openWithClock(page, LAUNCH_AT_MS + 2 * DAY);
  await expect(page.getByRole("timer")).toHaveText(reading(["00", "00", "00", "00"]));
});

test("counts down one second at a time before the launch", async ({ page }) => {
  const start = LAUNCH_AT_MS - START_BEFORE_LAUNCH_MS;
  await openWithClock(page, start);
  await page.clock.pauseAt(start + SETTLE_MS);
  let remaining = START_BEFORE_LAUNCH_MS - SETTLE_MS;
  await expect(page.getByRole("timer")).toHaveText(reading(expected(remaining)));
  for (let tick = 0; tick < 3; tick += 1) {
    await page.clock.runFor(SECOND);
    remaining -= SECOND;
    await expect(page.getByRole("timer")).toHaveText(reading(expected(remaining)));
  }
  expect(expected(remaining)).toEqual(["03", "04", "04", "27"]);
});

for (const timezoneId of ["Asia/Tokyo", "America/Los_Angeles", "UTC"]) {
  test.describe(() => {
    test.use({ timezoneId });

    test(`shows the same figures to a visitor in ${timezoneId}`, async ({ page }) => {
      const start = LAUNCH_AT_MS - START_BEFORE_LAUNCH_MS;
      await openWithClock(page, start);
      await expect
        .poll(() => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), { message: "the page's time zone" })
        .toBe(timezoneId);
      await page.clock.pauseAt(start + SETTLE_MS);
      await expect(page.getByRole("timer")).toHaveText(reading(["03", "04", "04", "30"]));
    });
  });
}
