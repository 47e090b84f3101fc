/**
 * The page is painted before any of its scripts runs, and what is loaded after
 * hydration (the Radix toaster) is never needed for a toast to show.
 */
import type { BrowserContext } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { FIXTURE } from "./support/fixture-content";
import { skipBrowserValidation, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";

const EMAIL_REQUIRED = FIXTURE.toasts.emailRequired.title;
/** The bundles a first visit to / runs before hydration, by their Gatsby file-name prefixes. */
const FIRST_LOAD_PREFIXES = ["webpack-runtime-", "framework-", "app-", "commons-", "component---"];

const browser = setUpChromium();
let context: BrowserContext;

beforeEach(async () => {
  ({ context } = await newGuardedContext(browser()));
});
afterEach(async () => {
  await context?.close();
});

it("requests no script until the page has painted, and then hydrates", async () => {
  const page = await openHydrated(context, "/");
  const { paintedAtMs, scriptsRequestedAtMs } = await page.evaluate(() => ({
    paintedAtMs: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    scriptsRequestedAtMs: performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.endsWith(".js"))
      .map((entry) => entry.startTime),
  }));
  expect(scriptsRequestedAtMs.length).toBeGreaterThan(0);
  expect(Math.min(...scriptsRequestedAtMs)).toBeGreaterThanOrEqual(paintedAtMs);
});

it("shows a validation toast when the code loaded after hydration cannot be fetched", async () => {
  const refused: string[] = [];
  await context.route(/\.js$/, (route) => {
    const file = new URL(route.request().url()).pathname.split("/").pop() ?? "";
    if (FIRST_LOAD_PREFIXES.some((prefix) => file.startsWith(prefix))) return route.continue();
    refused.push(file);
    return route.abort("internetdisconnected");
  });
  const page = await openHydrated(context, "/");
  await skipBrowserValidation(page);
  await page.getByRole("button", { name: FIXTURE.home.form.submit }).waitFor();
  await submitButton(page).click();
  await toastTitled(page, EMAIL_REQUIRED).waitFor();
  // A control: the toaster's own code really was asked for, and refused.
  await eventually(() => expect(refused.length).toBeGreaterThan(0));
});
