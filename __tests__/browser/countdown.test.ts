/**
 * The launch countdown with the browser's clock under test control (product rule 20):
 * zeros after the launch, one-second ticks before it, the same figures in any time zone.
 */
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";

/** The fixture's launch moment (launch.moment, with its offset) in ms since the epoch. */
const LAUNCH_AT_MS = Date.parse(FIXTURE.launch.moment);
/** The timer's text without white space: each figure followed by its unit label (home.countdown). */
const { days, hours, minutes, seconds } = FIXTURE.home.countdown;
const FIGURES = new RegExp(
  `^${[days, hours, minutes, seconds].map((unit) => `(\\S+?)${escapeRegExp(unit.replace(/\s+/g, ""))}`).join("")}$`,
);

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Where the visitor's clock starts: a whole number of seconds before the launch. */
const START_BEFORE_LAUNCH_MS = 3 * DAY + 4 * HOUR + 5 * MINUTE + 30 * SECOND;
/** How far the clock is moved on once the page is ready (longer than hydration can take). */
const SETTLE_MS = 60 * SECOND;

const browser = setUpChromium();
let context: BrowserContext | undefined;

afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** The four figures as shown (days, hours, minutes, seconds), e.g. ["03", "04", "04", "30"]. */
async function figures(page: Page): Promise<string[]> {
  const text = (await page.getByRole("timer").textContent()) ?? "";
  const match = FIGURES.exec(text.replace(/\s+/g, ""));
  if (!match) throw new Error(`unexpected countdown text: ${text}`);
  return match.slice(1);
}

/** What the countdown should read `remainingMs` before the launch, worked out here from epoch ms. */
function expected(remainingMs: number): string[] {
  const s = Math.floor(remainingMs / SECOND);
  return [Math.floor(s / 86_400), Math.floor(s / 3_600) % 24, Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, "0"));
}

/** Open / in a fresh context whose clock starts at `startMs`, in time zone `timezoneId`. */
async function openWithClock(startMs: number, timezoneId?: string): Promise<Page> {
  ({ context } = await newGuardedContext(browser(), timezoneId ? { timezoneId } : {}));
  await context.clock.install({ time: startMs });
  return openHydrated(context, "/");
}

it("shows zeros in all four units once the launch moment has passed", async () => {
  const page = await openWithClock(LAUNCH_AT_MS + 2 * DAY);
  await eventually(async () => expect(await figures(page)).toEqual(["00", "00", "00", "00"]));
});

it("counts down one second at a time before the launch", async () => {
  const start = LAUNCH_AT_MS - START_BEFORE_LAUNCH_MS;
  const page = await openWithClock(start);
  await page.clock.pauseAt(start + SETTLE_MS);
  let remaining = START_BEFORE_LAUNCH_MS - SETTLE_MS;
  await eventually(async () => expect(await figures(page)).toEqual(expected(remaining)));
  for (let tick = 0; tick < 3; tick += 1) {
    await page.clock.runFor(SECOND);
    remaining -= SECOND;
    await eventually(async () => expect(await figures(page)).toEqual(expected(remaining)));
  }
  expect(expected(remaining)).toEqual(["03", "04", "04", "27"]);
});

it.each(["Asia/Tokyo", "America/Los_Angeles", "UTC"])("shows the same figures to a visitor in %s", async (timezoneId) => {
  const start = LAUNCH_AT_MS - START_BEFORE_LAUNCH_MS;
  const page = await openWithClock(start, timezoneId);
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
  await page.clock.pauseAt(start + SETTLE_MS);
  await eventually(async () => expect(await figures(page)).toEqual(["03", "04", "04", "30"]));
});
