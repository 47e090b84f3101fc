/**
 * The honeypot field (product rule 14): people never see or reach it, and a
 * signup that fills it is answered like a success while nothing is sent, so a bot
 * learns nothing.
 */
import type { BrowserContext, Locator, Page } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { FIXTURE } from "./support/fixture-content";
import { providerRequests } from "./support/provider-control";
import { expectNoLaterRequests } from "./support/quiet-period";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

const HONEYPOT_LABEL = FIXTURE.home.form.honeypotLabel;
/** More Tab presses than the page has stops, so the walk passes every one of them. */
const MAX_TAB_STOPS = 40;

const browser = setUpChromium();
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  ({ context } = await newGuardedContext(browser()));
  page = await openHydrated(context, "/");
});
afterEach(async () => {
  await context?.close();
});

/** The honeypot by its name, as a bot finds it (people and assistive technology cannot). */
function honeypot(page: Page): Locator {
  return page.locator("input[name=website]");
}

describe("the honeypot field", () => {
  it("is never a Tab stop: walking the whole page with Tab never focuses it", async () => {
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

  it("sits outside the viewport, with tabindex -1, autocomplete off, inside an aria-hidden container", async () => {
    const field = honeypot(page);
    expect(await field.count()).toBe(1);
    const box = await field.boundingBox();
    const viewport = page.viewportSize();
    expect(box).not.toBeNull();
    expect(viewport).not.toBeNull();
    if (!box || !viewport) return;
    const outside = box.x + box.width <= 0 || box.y + box.height <= 0 || box.x >= viewport.width || box.y >= viewport.height;
    expect(outside).toBe(true);
    expect(await field.getAttribute("tabindex")).toBe("-1");
    expect(await field.getAttribute("autocomplete")).toBe("off");
    expect(await field.evaluate((input) => input.closest("[aria-hidden='true']") !== null)).toBe(true);
    // So assistive technology does not offer it either.
    expect(await page.getByRole("textbox", { name: HONEYPOT_LABEL }).count()).toBe(0);
    expect(await field.inputValue()).toBe("");
  });

  it("when filled, answers a valid signup with the success toast and /success/, and sends nothing", async () => {
    const visitor = uniqueVisitor("honeypot");
    await fillSignupForm(page, visitor);
    await page.fill("input[name=website]", "https://spam.example/", { force: true });
    expect(await honeypot(page).inputValue()).toBe("https://spam.example/");
    await submitButton(page).click();

    await toastTitled(page, FIXTURE.toasts.success.title).waitFor();
    await page.waitForURL((url) => url.pathname === "/success/");
    expect(await providerRequests(visitor.email)).toEqual([]);
    await expectNoLaterRequests(visitor.email, 0);
  });
});
