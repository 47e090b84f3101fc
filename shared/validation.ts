/** The signup's checks (product rule 7): the one module page and service both validate with, so they never disagree. */

/**
 * The e-mail check of product rule 7: non-space characters, a single @, then a domain containing a dot
 * (`a@b.c` passes; `user@localhost`, `a@b@c.d`, `@x.com`, `x@.` fail).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The three fields a visitor types, in form order. */
export type SignupField = "email" | "firstName" | "lastName";

/** The values a visitor typed, one per field. */
export type SignupValues = Record<SignupField, string>;

/**
 * The longest value each field may hold, in characters. An address longer than 254 cannot
 * be delivered (RFC 5321's path limit); 100 is more than any real first or last name. The page
 * sets them as the inputs' `maxlength`, so a visitor never reaches them; the service refuses longer.
 */
export const SIGNUP_FIELD_MAX_LENGTH = { email: 254, firstName: 100, lastName: 100 } as const satisfies Record<SignupField, number>;

/**
 * The first field longer than SIGNUP_FIELD_MAX_LENGTH allows, in form order, among trimmed values.
 * @returns the field's key, or null when every field fits
 */
export function fieldTooLong(values: SignupValues): SignupField | null {
  for (const key of ["email", "firstName", "lastName"] as const) if (values[key].length > SIGNUP_FIELD_MAX_LENGTH[key]) return key;
  return null;
}

/** Which check failed; each maps to a toast in content/site.yaml → toasts. */
export type ValidationFailure = "emailRequired" | "firstNameRequired" | "lastNameRequired" | "invalidEmail";

/** The field each failure is about: the form focuses it, the service's error points at it. */
export const FAILURE_FIELD = {
  emailRequired: "email",
  firstNameRequired: "firstName",
  lastNameRequired: "lastName",
  invalidEmail: "email",
} as const satisfies Record<ValidationFailure, SignupField>;

/** Trim surrounding white space from every field (whitespace-only becomes empty). */
export function trimSubmission(values: SignupValues): SignupValues {
  return { email: values.email.trim(), firstName: values.firstName.trim(), lastName: values.lastName.trim() };
}

/**
 * The first failing check of product rule 7 among trimmed values, in order: email empty, first
 * name empty, last name empty, email pattern.
 * @returns the failure's key, or null when the signup may be sent
 */
export function firstValidationFailure(values: SignupValues): ValidationFailure | null {
  if (!values.email) return "emailRequired";
  if (!values.firstName) return "firstNameRequired";
  if (!values.lastName) return "lastNameRequired";
  if (!EMAIL_PATTERN.test(values.email)) return "invalidEmail";
  return null;
}

/**
 * Longest value sent, in characters. Real UTM values and paths are far shorter;
 * the page cuts longer ones (a hostile or broken link must not fill the visitor's profile) and the service refuses them.
 */
export const ATTRIBUTION_VALUE_MAX_CHARS = 255;

/**
 * Longest custom source (Klaviyo's "custom source": `provider.source`, a campaign's `campaign.source`), in
 * characters: it names a campaign, and the waitlist service stores no longer (the content check refuses longer).
 */
export const CUSTOM_SOURCE_MAX_CHARS = 100;
