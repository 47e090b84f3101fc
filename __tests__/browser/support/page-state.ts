/**
 * Bring a page into the states the accessibility checks look at (a toast showing,
 * a tooltip open) and let it settle, so that a check sees the finished picture and
 * not a toast halfway through fading in.
 */
import type { Locator, Page } from "@playwright/test";
import { waitForHydration } from "../../../scripts/lib/hydration";
import { FIXTURE } from "./fixture-content";
import { skipBrowserValidation, submitButton } from "./signup-page";
import { toastRegion, toastTitled } from "./toasts";

/**
 * Open a path and wait until it is hydrated and the toaster is in place (its region is fixed over
 * the page, so a check before it would miss it). Code that waits for a visitor's action is not waited for.
 */
export async function openAfterScripts(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
  await toastRegion(page).waitFor({ state: "attached" });
}

/** Wait until every animation that ends has ended (a toast's slide-in); endless ones keep running. */
export async function waitForFiniteAnimations(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.getAnimations().every((animation) => {
        const iterations = animation.effect?.getTiming().iterations;
        return iterations === Infinity || animation.playState !== "running";
      }),
    undefined,
    { polling: 50 },
  );
}

/** Keep a toast on screen while the test looks at it: Radix pauses its timer while the pointer is over the region. */
export async function holdToast(toast: Locator): Promise<void> {
  await toast.hover();
  await waitForFiniteAnimations(toast.page());
}

/**
 * Submit the empty form past the browser's own `required` check, so the page's
 * validation shows its first error toast (`toasts.emailRequired`), and keep it showing.
 * @returns the toast
 */
export async function showEmailRequiredToast(page: Page): Promise<Locator> {
  await skipBrowserValidation(page);
  await submitButton(page).click();
  const toast = toastTitled(page, FIXTURE.toasts.emailRequired.title);
  await toast.waitFor();
  await holdToast(toast);
  return toast;
}

/**
 * Open a badge's tooltip the way a keyboard visitor does: focus opens it at once
 * (the first focus also loads the tooltip code, which hands focus back).
 * @param badge its label, e.g. FIXTURE.home.badges.ssl.label
 * @returns the open tooltip
 */
export async function openBadgeTooltip(page: Page, badge: string): Promise<Locator> {
  await page.getByRole("button", { name: badge }).focus();
  const tooltip = page.getByRole("tooltip");
  await tooltip.waitFor();
  await waitForFiniteAnimations(page);
  return tooltip;
}
