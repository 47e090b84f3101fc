/**
 * Client-side checks of a signup, in the order of product rule 7.
 */
import type { Submission } from "./submission";

/**
 * The e-mail check of product rule 7: non-space characters, a single @, then a domain containing a dot
 * (`a@b.c` passes; `user@localhost`, `a@b@c.d`, `@x.com`, `x@.` fail).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Which check failed; each maps to a toast in content/site.yaml → toasts. */
export type ValidationFailure = "emailRequired" | "firstNameRequired" | "lastNameRequired" | "invalidEmail";

/** Trim surrounding white space from every field (whitespace-only becomes empty). */
export function trimSubmission(values: Submission): Submission {
  return { email: values.email.trim(), firstName: values.firstName.trim(), lastName: values.lastName.trim() };
}

/**
 * The first failing check of product rule 7, in order: email empty, first name empty,
 * last name empty, email pattern.
 * @param values trimmed values
 * @returns the failure's key, or null when the signup may be sent
 */
export function firstValidationFailure(values: Submission): ValidationFailure | null {
  if (!values.email) return "emailRequired";
  if (!values.firstName) return "firstNameRequired";
  if (!values.lastName) return "lastNameRequired";
  if (!EMAIL_PATTERN.test(values.email)) return "invalidEmail";
  return null;
}
