/**
 * What assistive technology hears and what moves (product rule 23): toasts are
 * announced once with the right urgency, the countdown is named but never chatters,
 * the spinner has a name, and the floating decorations are hidden from screen
 * readers, animate `transform` only and stand still under reduced motion.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, gotoHydrated, test, waitForHydration } from "./support/fixtures";
import { setProviderMode } from "./support/provider-control";
import { showEmailRequiredToast } from "./support/page-state";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signUpToSuccess, submitButton } from "./support/signup-page";
import { toastRegion, toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

const { emailRequired, success } = FIXTURE.toasts;
/** An odds number of the floating decorations, as a sighted visitor sees it. */
const ODDS = FIXTURE.decorations.odds[0];
/** Keyframe keys that say when, not what: everything else in a keyframe is an animated property. */
const KEYFRAME_TIMING_KEYS = ["offset", "computedOffset", "easing", "composite"];
/** How far the countdown's clock is moved on: three of its one-second ticks (ms). */
const TICKS_MS = 3_000;

/** One change to a live region, as a screen reader would be told of it. */
interface Announcement {
  live: string;
  text: string;
}

/**
 * Record every text change inside an `aria-live` region (polite or assertive, which
 * screen readers speak) from the first byte of every page in the context on.
 */
async function recordAnnouncements(target: BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const heard: { live: string; text: string }[] = [];
    (window as unknown as { __announcements: typeof heard }).__announcements = heard;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        const node = mutation.target instanceof Element ? mutation.target : mutation.target.parentElement;
        const region = node?.closest("[aria-live]");
        const live = region?.getAttribute("aria-live");
        if (!region || !live || live === "off") continue;
        const text = (region.textContent ?? "").replace(/\s+/g, " ").trim();
        if (text) heard.push({ live, text });
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

function announcements(page: Page): Promise<Announcement[]> {
  return page.evaluate(() => (window as unknown as { __announcements: Announcement[] }).__announcements);
}

/** Open / with announcements recorded from its first byte. */
async function openHome(context: BrowserContext, page: Page): Promise<Page> {
  await recordAnnouncements(context);
  return gotoHydrated(page, "/");
}

/** Wait until the screen reader has been told something containing `text`, and return those announcements. */
async function announcedWith(page: Page, text: string): Promise<Announcement[]> {
  let said: Announcement[] = [];
  await expect
    .poll(async () => (said = (await announcements(page)).filter((a) => a.text.includes(text))).length, {
      message: `announcements of '${text}'`,
    })
    .toBeGreaterThan(0);
  return said;
}

test.describe("toasts", () => {
  test("an error toast is an alert, announced assertively, once", async ({ context, page }) => {
    await openHome(context, page);
    const toast = await showEmailRequiredToast(page);
    await expect(toastRegion(page).getByRole("alert").filter({ hasText: emailRequired.title })).toHaveCount(1);
    await expect(toast).toHaveAttribute("role", "alert");

    const heard = await announcedWith(page, emailRequired.title);
    expect(heard.map((a) => a.live)).toEqual(heard.map(() => "assertive"));
    expect(heard[heard.length - 1].text).toContain(emailRequired.message);
    // Spoken once: the visible toast is not a second live region.
    expect(new Set(heard.map((a) => a.text)).size).toBe(1);
  });

  test("the success toast is a status, announced politely, and still there on /success/", async ({ context, page }) => {
    await openHome(context, page);
    const visitor = uniqueVisitor("a11y-announce");
    await signUpToSuccess(page, visitor);
    const toast = toastTitled(page, success.title);
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute("role", "status");
    await expect(toast).toContainText(success.message);

    const heard = await announcedWith(page, success.title);
    expect(heard.map((a) => a.live)).toEqual(heard.map(() => "polite"));
  });
});

test.describe("the countdown", () => {
  test("is a timer named with the launch date, and no live region: its ticking is never announced", async ({ context, page }) => {
    // It ticks on the page's clock, which the test moves on instead of waiting for it.
    await page.clock.install();
    await openHome(context, page);
    const timer = page.getByRole("timer");
    // home.countdown.label with {date} filled in with the launch moment, as the build spells it.
    await expect(timer).toHaveAttribute("aria-label", FIXTURE.derived.countdownLabel);

    const liveAround = await timer.evaluate((element) => {
      const found: string[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const live = node.getAttribute("aria-live");
        if (live !== null && live !== "off") found.push(`${node.tagName.toLowerCase()} aria-live=${live}`);
        if (node !== element && ["alert", "status", "log", "marquee"].includes(node.getAttribute("role") ?? ""))
          found.push(`${node.tagName.toLowerCase()} role=${node.getAttribute("role")}`);
      }
      return found;
    });
    expect(liveAround).toEqual([]);

    // Let it tick a few times: nothing may reach a screen reader.
    const before = await timer.innerText();
    await page.clock.runFor(TICKS_MS);
    await expect(timer).not.toHaveText(before, { useInnerText: true });
    await expect.poll(() => announcements(page), { message: "what reached a screen reader while the timer ticked" }).toEqual([]);
  });
});

test.describe("the submit button while sending", () => {
  test("keeps an accessible name: the spinner is an image named with the submitting text, and the form is busy", async ({
    context,
    page,
  }) => {
    await openHome(context, page);
    const visitor = uniqueVisitor("a11y-spinner");
    await setProviderMode(visitor.email, "never");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    const spinner = page.getByRole("img", { name: FIXTURE.home.form.submitting });
    await expect(spinner).toBeVisible();
    // The button is named once (by the spinner), not with the submitting text twice.
    await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting, exact: true })).toHaveCount(1);
    await expect(page.locator("form")).toHaveAttribute("aria-busy", "true");
  });
});

test.describe("the floating decorations", () => {
  /** Every element that animates forever on an idle home page, with whether it sits in an aria-hidden container. */
  async function endlessAnimations(page: Page) {
    return page.evaluate(() =>
      document.getAnimations().flatMap((animation) => {
        const effect = animation.effect as KeyframeEffect | null;
        const target = effect?.target;
        if (!effect || !target || effect.getTiming().iterations !== Infinity) return [];
        return [
          {
            element: `${target.tagName.toLowerCase()} ${(target.textContent ?? "").trim()}`.trim(),
            hidden: target.closest('[aria-hidden="true"]') !== null,
            properties: Array.from(new Set(effect.getKeyframes().flatMap((frame) => Object.keys(frame)))),
          },
        ];
      }),
    );
  }

  test("sit inside an aria-hidden container (icons and odds alike)", async ({ context, page }) => {
    await openHome(context, page);
    const animated = await endlessAnimations(page);
    expect(animated.length).toBeGreaterThanOrEqual(12);
    expect(animated.filter((a) => !a.hidden)).toEqual([]);
    // An odds number and an icon, by what a sighted visitor sees.
    await expect(page.locator('[aria-hidden="true"]').getByText(ODDS, { exact: true })).toHaveCount(1);
    expect(
      await page
        .locator("svg:not([aria-hidden])")
        .evaluateAll((svgs) => svgs.filter((svg) => !svg.closest('[aria-hidden="true"]') && svg.getAttribute("role") !== "img").length),
    ).toBe(0);
  });

  test("animate transform only (no layout, colour or opacity changes)", async ({ context, page }) => {
    await openHome(context, page);
    const animated = await endlessAnimations(page);
    const animatedProperties = Array.from(new Set(animated.flatMap((a) => a.properties))).filter(
      (key) => !KEYFRAME_TIMING_KEYS.includes(key),
    );
    expect(animatedProperties).toEqual(["transform"]);
  });

  test("stand still when the visitor asks for reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await waitForHydration(page);
    await expect
      .poll(() => page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches), {
        message: "prefers-reduced-motion: reduce",
      })
      .toBe(true);
    const decoration = page.getByText(ODDS, { exact: true });
    await expect(decoration).toHaveCSS("animation-name", "none");
    await expect.poll(() => page.evaluate(() => document.getAnimations().length), { message: "the page's running animations" }).toBe(0);

    // The same page without the preference does move, so the check above means something.
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await expect(decoration).not.toHaveCSS("animation-name", "none");
  });
});
