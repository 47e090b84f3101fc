/**
 * The failures the no-JavaScript form can come back with. The waitlist service answers a failed form post with a
 * redirect back to the form's page at `#signup-error-<key>`, and the page's static HTML carries one message per key,
 * shown by CSS `:target` alone. No dependencies: the page and the service can both read it.
 */
import type { ValidationFailure } from "./validation";

/** The shared rules' failures, then the service's own: `verificationFailed` (Turnstile), `subscriptionFailed` (anything else). */
export const FORM_ERROR_KEYS = [
  "emailRequired",
  "firstNameRequired",
  "lastNameRequired",
  "invalidEmail",
  "subscriptionFailed",
  "verificationFailed",
] as const satisfies readonly (ValidationFailure | "subscriptionFailed" | "verificationFailed")[];

/** One failure the form's page can show. */
export type FormErrorKey = (typeof FORM_ERROR_KEYS)[number];

/** The id prefix of the messages; the redirect's fragment is the prefix and the key. */
export const FORM_ERROR_ANCHOR_PREFIX = "signup-error-";

/** The id of a failure's message on the page, e.g. `signup-error-invalidEmail`. */
export function formErrorId(key: FormErrorKey): string {
  return `${FORM_ERROR_ANCHOR_PREFIX}${key}`;
}
