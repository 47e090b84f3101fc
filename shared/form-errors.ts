/**
 * The failures the no-JavaScript form comes back with, as `#signup-error-<key>`: the static page has one
 * message per key, shown by CSS `:target` alone. No dependencies: page and service both read it.
 */
import type { ValidationFailure } from "./validation";

/** The shared rules' failures, then the service's own: `verificationFailed` (Turnstile), `subscriptionFailed` (anything else). */
export const FORM_ERROR_KEYS = [
  "emailRequired",
  "firstNameRequired",
  "lastNameRequired",
  "invalidEmail",
  "firstNameInvalid",
  "lastNameInvalid",
  "subscriptionFailed",
  "verificationFailed",
] as const satisfies readonly (ValidationFailure | "subscriptionFailed" | "verificationFailed")[];

export type FormErrorKey = (typeof FORM_ERROR_KEYS)[number];

/** The id prefix of the messages; the redirect's fragment is the prefix and the key. */
export const FORM_ERROR_ANCHOR_PREFIX = "signup-error-";

/** The id of a failure's message on the page, e.g. `signup-error-invalidEmail`. */
export function formErrorId(key: FormErrorKey): string {
  return `${FORM_ERROR_ANCHOR_PREFIX}${key}`;
}
