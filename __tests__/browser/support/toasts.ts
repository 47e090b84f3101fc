/**
 * Toasts as a visitor (or screen reader) finds them: alerts (failures) and
 * statuses (confirmations) in the region named by `toasts.regionLabel`, identified by their title.
 */
import type { Locator, Page } from "@playwright/test";
import { FIXTURE } from "./fixture-content";
import { escapeRegExp } from "./signup-page";

/** `toasts.regionLabel` up to its `{hotkey}` placeholder: the region's name starts with it. */
const REGION_NAME_START = new RegExp(`^${escapeRegExp(FIXTURE.toasts.regionLabel.split("{hotkey}")[0])}`);

/** The toast region (`toasts.regionLabel` with the hotkey filled in). */
export function toastRegion(page: Page): Locator {
  return page.getByRole("region", { name: REGION_NAME_START });
}

/** The toasts in the region whose text includes `title`, e.g. FIXTURE.toasts.emailRequired.title. */
export function toastTitled(page: Page, title: string): Locator {
  return allToasts(page).filter({ hasText: title });
}

/** Every toast showing (the region exists only once the first toast was due). */
export function allToasts(page: Page): Locator {
  const region = toastRegion(page);
  return region.getByRole("alert").or(region.getByRole("status"));
}

/** A toast's whole text when it says `title` and then exactly `message` (white space around them aside). */
export function toastText(title: string, message: string): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(title)}\\s*${escapeRegExp(message)}\\s*$`);
}
