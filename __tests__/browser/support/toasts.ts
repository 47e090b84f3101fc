/**
 * Toasts as a visitor (or screen reader) finds them: alerts (failures) and
 * statuses (confirmations) in the "Notifications" region, identified by their title.
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
  return allToasts(page).filter({ hasText: title });
}

/** Every toast showing (the region exists only once the first toast was due). */
export function allToasts(page: Page): Locator {
  const region = toastRegion(page);
  return region.getByRole("alert").or(region.getByRole("status"));
}
