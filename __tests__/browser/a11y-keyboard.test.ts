/**
 * Keyboard access (WCAG 2.1.1, 2.4.3, 2.4.7, 2.4.11, 1.4.13; product rule 23): every
 * control is reached by Tab in reading order, works with Enter or Space, and shows a
 * focus ring when focused from the keyboard.
 */
import type { Page } from "@playwright/test";
import { theme } from "../../src/styles/theme";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { VIEWPORTS } from "./support/viewports";
import { contrastRatio, focusedControl, focusedIndicator, isVisibleRing, tabSequence, type FocusIndicator } from "./support/focus";
import { showEmailRequiredToast } from "./support/page-state";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp, signupFields, skipBrowserValidation, submitButton } from "./support/signup-page";
import { toastRegion, toastTitled } from "./support/toasts";

const { form, badges } = FIXTURE.home;
const { social, newTabHint: NEW_TAB } = FIXTURE.links;
/** Last on every page: the button that pauses the floating background (WCAG 2.2.2). */
const PAUSE_BUTTON = `button ${FIXTURE.decorations.pauseLabel}`;
const EMAIL_FIELD = `input ${form.email.label}`;
const SOCIAL_LINK = new RegExp(escapeRegExp(social.label));
const HOME_ORDER = [
  EMAIL_FIELD,
  `input ${form.firstName.label}`,
  `input ${form.lastName.label}`,
  `button ${form.submit}`,
  `a ${social.label} ${NEW_TAB}`,
  `button ${badges.ssl.label}`,
  `button ${badges.gdpr.label}`,
  PAUSE_BUTTON,
];
/** Each badge's label and tooltip, in tab order. */
const TOOLTIPS = Object.fromEntries([badges.ssl, badges.gdpr].map((badge) => [badge.label, badge.tooltip]));
/** WCAG 1.4.11: a focus ring needs 3:1 against what surrounds it. */
const NON_TEXT_CONTRAST = 3;

test.use({ viewport: VIEWPORTS.desktop });

/** The focused control as focusedControl names it, polled until it is `name`. */
async function expectFocusOn(page: Page, name: string): Promise<void> {
  await expect.poll(() => focusedControl(page), { message: "the focused control" }).toBe(name);
}

/** Tab through the page from the top, noting each control's ring, then its look without focus. */
async function walkWithRings(page: Page): Promise<{ order: string[]; focused: FocusIndicator[]; unfocused: FocusIndicator[] }> {
  const order: string[] = [];
  const focused: FocusIndicator[] = [];
  for (let presses = 0; presses < 20; presses += 1) {
    await page.keyboard.press("Tab");
    const control = await focusedControl(page);
    if (control === "body" || order.includes(control)) break;
    order.push(control);
    focused.push(await focusedIndicator(page));
  }
  // The same controls without focus: the ring has to come from the focus, not be there all the time.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const unfocused = await page.evaluate((names) => {
    const describe = (element: Element) => {
      const labelled = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null;
      const name = element.getAttribute("aria-label") ?? labelled ?? element.textContent ?? "";
      return `${element.tagName.toLowerCase()} ${name.replace(/\s+/g, " ").trim()}`.trim();
    };
    const controls = Array.from(document.querySelectorAll("a[href], button, input, [tabindex]"));
    return names.map((name) => {
      const element = controls.find((candidate) => describe(candidate) === name);
      if (!element) throw new Error(`no control named ${name}`);
      const style = getComputedStyle(element);
      return {
        outlineStyle: style.outlineStyle,
        outlineWidthPx: parseFloat(style.outlineWidth),
        outlineColor: style.outlineColor,
        boxShadow: style.boxShadow,
        focusVisible: element.matches(":focus-visible"),
      };
    });
  }, order);
  return { order, focused, unfocused };
}

/** Rings as readable lines for failure messages. */
function ringReport(order: string[], rings: FocusIndicator[]): string[] {
  return order.map(
    (name, index) =>
      `${name}: ${isVisibleRing(rings[index]) ? "ring" : "NO RING"} (${rings[index].outlineStyle} ${rings[index].outlineWidthPx}px ${rings[index].outlineColor}, shadow ${rings[index].boxShadow})`,
  );
}

function expectRingsOnlyWhenFocused(order: string[], focused: FocusIndicator[], unfocused: FocusIndicator[]): void {
  expect(ringReport(order, focused)).toEqual(
    order.map((name) => expect.stringMatching(new RegExp(`^${escapeRegExp(name)}: ring `)) as unknown),
  );
  expect(ringReport(order, unfocused)).toEqual(
    order.map((name) => expect.stringMatching(new RegExp(`^${escapeRegExp(name)}: NO RING `)) as unknown),
  );
  for (const ring of focused) {
    expect(ring.focusVisible).toBe(true);
    expect(contrastRatio(ring.outlineColor, theme.colors.background)).toBeGreaterThanOrEqual(NON_TEXT_CONTRAST);
    expect(contrastRatio(ring.outlineColor, theme.colors.surface)).toBeGreaterThanOrEqual(NON_TEXT_CONTRAST);
  }
}

test.describe("the home page", () => {
  test("reaches every control by Tab in reading order, each with a visible focus ring (≥ 2px, 3:1) that only focus draws", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    const { order, focused, unfocused } = await walkWithRings(page);
    expect(order).toEqual(HOME_ORDER);
    expectRingsOnlyWhenFocused(order, focused, unfocused);
  });

  test("goes back through the same controls in reverse with Shift+Tab", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: badges.gdpr.label }).focus();
    await expect(page.getByRole("tooltip")).toBeVisible();
    const backwards = await tabSequence(page, "Shift+Tab");
    expect(backwards).toEqual(HOME_ORDER.slice(0, HOME_ORDER.indexOf(`button ${badges.gdpr.label}`)).reverse());
  });

  test("sends the form with Space on the button; a validation error takes focus to the field to fix", async ({ page }) => {
    await gotoHydrated(page, "/");
    await skipBrowserValidation(page);
    await signupFields(page).lastName.focus();
    await page.keyboard.press("Tab");
    await expectFocusOn(page, HOME_ORDER[3]);
    await page.keyboard.press("Space");
    await expect(toastTitled(page, FIXTURE.toasts.emailRequired.title)).toBeVisible();
    await expectFocusOn(page, EMAIL_FIELD);
    await expect.poll(async () => (await focusedIndicator(page)).focusVisible, { message: "the field's :focus-visible" }).toBe(true);
  });

  test.describe("at phone size", () => {
    test.use({ viewport: VIEWPORTS.phone });

    test("keeps the focused field in view, not hidden under the error toast, at phone size (WCAG 2.4.11)", async ({ page }) => {
      await gotoHydrated(page, "/");
      // A visitor far down the page sends the form: the email field is above the fold.
      await submitButton(page).scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, window.innerHeight));
      const toast = await showEmailRequiredToast(page);
      await expectFocusOn(page, EMAIL_FIELD);
      const field = await signupFields(page).email.boundingBox();
      const cover = await toast.evaluate((element) => element.closest("li")!.getBoundingClientRect().toJSON() as DOMRect);
      if (!field) throw new Error("the email field has no box");
      const hidden =
        field.y >= cover.y && field.y + field.height <= cover.bottom && field.x >= cover.x && field.x + field.width <= cover.right;
      expect({ field, cover, entirelyHidden: hidden }).toMatchObject({ entirelyHidden: false });
    });
  });

  test("opens the social profile in a new tab with Enter on the link", async ({ context, page, blocked }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("link", { name: SOCIAL_LINK }).focus();
    const [tab] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
    await expect.poll(() => blocked, { message: "requests the guard blocked" }).toContain(social.url);
    expect(tab).not.toBe(page);
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });

  for (const [badge, sentence] of Object.entries(TOOLTIPS)) {
    test(`shows the '${badge}' tooltip on keyboard focus, describes the badge with it, and Escape hides it (WCAG 1.4.13)`, async ({
      page,
    }) => {
      await gotoHydrated(page, "/");
      await page.getByRole("button", { name: badges.ssl.label }).focus();
      if (badge !== badges.ssl.label) await page.keyboard.press("Tab");
      const button = page.getByRole("button", { name: badge });
      const tooltip = page.getByRole("tooltip");
      await expect(tooltip).toContainText(sentence);
      await expect(button).toHaveAttribute("aria-describedby", (await tooltip.getAttribute("id")) ?? "(the tooltip has no id)");
      await expectFocusOn(page, `button ${badge}`);

      await page.keyboard.press("Escape");
      await expect(tooltip).toHaveCount(0);
      await expectFocusOn(page, `button ${badge}`);

      // Enter and Space press the badge: it stays focused and the page stays put.
      await page.keyboard.press("Enter");
      await page.keyboard.press("Space");
      await expectFocusOn(page, `button ${badge}`);
      await expect(page).toHaveURL((url) => url.pathname === "/");
    });
  }

  test.describe("while the tooltip code is still on its way (slow connection)", () => {
    /** Hold every script request for a while, as a slow phone connection would. */
    async function slowScripts(page: Page, delayMs: number): Promise<void> {
      await page.route("**/*.js", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        await route.fallback();
      });
    }

    test("keeps focus on the badges: Tab goes SSL → GDPR, never to the page body, and stays there when the code arrives", async ({
      page,
    }) => {
      await gotoHydrated(page, "/");
      await slowScripts(page, 1_500);
      await page.getByRole("link", { name: SOCIAL_LINK }).focus();
      await page.keyboard.press("Tab");
      await expectFocusOn(page, `button ${badges.ssl.label}`);
      await page.keyboard.press("Tab");
      await expectFocusOn(page, `button ${badges.gdpr.label}`);
      await expect(page.getByRole("tooltip")).toBeVisible();
      await expectFocusOn(page, `button ${badges.gdpr.label}`);
      await expect(page.getByRole("tooltip")).toContainText(badges.gdpr.tooltip);
    });

    test("does not pull a visitor who has tabbed past the badges back to them", async ({ page }) => {
      await gotoHydrated(page, "/");
      await slowScripts(page, 1_500);
      await page.getByRole("link", { name: SOCIAL_LINK }).focus();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await expectFocusOn(page, PAUSE_BUTTON);
      // The tooltip code has arrived once the badges are Radix triggers (they carry data-state).
      await expect(page.locator("button[data-state]").first()).toBeVisible();
      await expectFocusOn(page, PAUSE_BUTTON);
    });
  });

  test("reaches an error toast and its close button from the keyboard (F8), with focus rings, and Enter dismisses it", async ({ page }) => {
    await gotoHydrated(page, "/");
    const toast = await showEmailRequiredToast(page);
    await page.keyboard.press("F8");
    // Radix focuses the toast list inside the toast region (toasts.regionLabel).
    await expect(toastRegion(page).locator(":focus")).toHaveCount(1);
    expect(ringReport(["toast list"], [await focusedIndicator(page)])).toEqual([expect.stringMatching(/^toast list: ring /)]);

    const stops: string[] = [];
    const closeButton = `button ${FIXTURE.toasts.closeLabel}`;
    for (let presses = 0; presses < 3 && !stops.includes(closeButton); presses += 1) {
      await page.keyboard.press("Tab");
      stops.push(await focusedControl(page));
      expect({ at: stops[stops.length - 1], ring: isVisibleRing(await focusedIndicator(page)) }).toEqual({
        at: stops[stops.length - 1],
        ring: true,
      });
    }
    expect(stops[stops.length - 1]).toBe(closeButton);
    await page.keyboard.press("Enter");
    await expect(toast).toHaveCount(0);
  });
});

test.describe("the other pages", () => {
  test(`/success/: Tab reaches ${FIXTURE.success.button}, with a ring, and Enter opens the invite in a new tab`, async ({
    context,
    page,
  }) => {
    await gotoHydrated(page, "/success/");
    const { order, focused, unfocused } = await walkWithRings(page);
    expect(order).toEqual([`a ${FIXTURE.success.button} ${NEW_TAB}`, PAUSE_BUTTON]);
    expectRingsOnlyWhenFocused(order, focused, unfocused);

    await page.keyboard.press("Tab");
    const [tab] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
    expect(tab).not.toBe(page);
  });

  test(`404: Tab reaches '${FIXTURE.notFound.homeLink}', with a ring, and Enter goes home`, async ({ page }) => {
    await page.goto("/no-such-page/");
    await expect(page.getByRole("link", { name: FIXTURE.notFound.homeLink })).toBeVisible();
    await page.waitForFunction(() =>
      Object.keys(document.querySelector("a[href='/']") ?? {}).some((key) => key.startsWith("__reactProps$")),
    );
    const { order, focused, unfocused } = await walkWithRings(page);
    expect(order).toEqual([`a ${FIXTURE.notFound.homeLink}`, PAUSE_BUTTON]);
    expectRingsOnlyWhenFocused(order, focused, unfocused);

    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });
});
