/**
 * The page is painted before any of its scripts runs, and what is loaded after
 * hydration (the Radix toaster) is never needed for a toast to show.
 */
import { expect, gotoHydrated, test } from "./support/fixtures";
import { FIXTURE } from "./support/fixture-content";
import { skipBrowserValidation, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";

const EMAIL_REQUIRED = FIXTURE.toasts.emailRequired.title;
/** The bundles a first visit to / runs before hydration, by their Gatsby file-name prefixes. */
const FIRST_LOAD_PREFIXES = ["webpack-runtime-", "framework-", "app-", "commons-", "component---"];

test("requests no script until the page has painted, and then hydrates", async ({ page }) => {
  await gotoHydrated(page, "/");
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

test("shows a validation toast when the code loaded after hydration cannot be fetched", async ({ context, page }) => {
  const refused: string[] = [];
  await context.route(/\.js$/, (route) => {
    const file = new URL(route.request().url()).pathname.split("/").pop() ?? "";
    if (FIRST_LOAD_PREFIXES.some((prefix) => file.startsWith(prefix))) return route.continue();
    refused.push(file);
    return route.abort("internetdisconnected");
  });
  await gotoHydrated(page, "/");
  await skipBrowserValidation(page);
  await expect(page.getByRole("button", { name: FIXTURE.home.form.submit })).toBeVisible();
  await submitButton(page).click();
  await expect(toastTitled(page, EMAIL_REQUIRED)).toBeVisible();
  // A control: the toaster's own code really was asked for, and refused.
  await expect.poll(() => refused.length, { message: "scripts refused after hydration" }).toBeGreaterThan(0);
});
