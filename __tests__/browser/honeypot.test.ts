/**
 * The honeypot field (product rule 14): people never see or reach it, and a
 * signup that fills it is answered like a success while nothing is sent, so a bot
 * learns nothing.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { FIXTURE } from "./support/fixture-content";
import { providerRequests } from "./support/provider-control";
import { expectNoLaterRequests } from "./support/quiet-period";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

const HONEYPOT_LABEL = FIXTURE.home.form.honeypotLabel;
/** More Tab presses than the page has stops, so the walk passes every one of them. */
const MAX_TAB_STOPS = 40;

test.beforeEach(async ({ page }) => {
  await gotoHydrated(page, "/");
});

/** The honeypot by its name, as a bot finds it (people and assistive technology cannot). */
function honeypot(page: Page): Locator {
  return page.locator("input[name=website]");
}

test.describe("the honeypot field", () => {
  test("is never a Tab stop: walking the whole page with Tab never focuses it", async ({ page }) => {
    const stops: string[] = [];
    for (let press = 0; press < MAX_TAB_STOPS; press += 1) {
      await page.keyboard.press("Tab");
      stops.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          return el ? `${el.tagName.toLowerCase()}[name=${el.getAttribute("name") ?? ""}]` : "none";
        }),
      );
    }
    // The walk did reach the form (so it went past where the honeypot sits) and wrapped around.
    expect(stops).toContain("input[name=last_name]");
    expect(stops).toContain("button[name=]");
    expect(stops).not.toContain("input[name=website]");
  });

  test("sits outside the viewport, with tabindex -1, autocomplete off, inside an aria-hidden container", async ({ page }) => {
    const field = honeypot(page);
    await expect(field).toHaveCount(1);
    // Not one pixel of it intersects the viewport.
    await expect(field).not.toBeInViewport();
    await expect(field).toHaveAttribute("tabindex", "-1");
    await expect(field).toHaveAttribute("autocomplete", "off");
    await expect(page.locator("[aria-hidden='true'] input[name=website]")).toHaveCount(1);
    // So assistive technology does not offer it either.
    await expect(page.getByRole("textbox", { name: HONEYPOT_LABEL })).toHaveCount(0);
    await expect(field).toHaveValue("");
  });

  test("when filled, answers a valid signup with the success toast and /success/, and sends nothing", async ({ page }) => {
    const visitor = uniqueVisitor("honeypot");
    await fillSignupForm(page, visitor);
    await page.fill("input[name=website]", "https://spam.example/", { force: true });
    await expect(honeypot(page)).toHaveValue("https://spam.example/");
    await submitButton(page).click();

    await expect(toastTitled(page, FIXTURE.toasts.success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    expect(await providerRequests(visitor.email)).toEqual([]);
    await expectNoLaterRequests(visitor.email, 0);
  });
});
