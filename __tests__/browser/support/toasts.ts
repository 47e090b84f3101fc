/**
 * Toasts as a visitor (or screen reader) finds them: items of the list in the
 * "Notifications" region, identified by their title.
 */
import type { Locator, Page } from "playwright-core";

/** The toast region ("Notifications (F8)" in the fixture). */
export function toastRegion(page: Page): Locator {
  return page.getByRole("region", { name: /^Notifications/ });
}

/**
 * The toasts in the region whose text includes `title`.
 * @param page any page of the site (the toaster sits in the layout)
 * @param title e.g. "Email required"
 */
export function toastTitled(page: Page, title: string): Locator {
  return toastRegion(page).getByRole("listitem").filter({ hasText: title });
}
