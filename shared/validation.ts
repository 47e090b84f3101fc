/** The signup's checks (product rule 7): the one module page and service both validate with, so they never disagree. */
import { canonicalAddress, INVISIBLE_CHARACTER } from "./email-address";

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
export type ValidationFailure =
  "emailRequired" | "firstNameRequired" | "lastNameRequired" | "invalidEmail" | "firstNameInvalid" | "lastNameInvalid";

/** The field each failure is about: the form focuses it, the service's error points at it. */
export const FAILURE_FIELD = {
  emailRequired: "email",
  firstNameRequired: "firstName",
  lastNameRequired: "lastName",
  invalidEmail: "email",
  firstNameInvalid: "firstName",
  lastNameInvalid: "lastName",
} as const satisfies Record<ValidationFailure, SignupField>;

/**
 * The invisible characters a name may hold where they join what is visible: a zero-width non-joiner or joiner between
 * two letters (Persian, Indic and other scripts write names with them, as IDNA's CONTEXTJ rule allows them in a
 * domain), a joiner between two emoji (`👩‍👧`) and an emoji's variation selector (`⚽️`). Anywhere else they hide text.
 */
const JOINING_CHARACTER =
  /(?<=[\p{L}\p{M}])[\u200c\u200d](?=\p{L})|(?<=\p{Extended_Pictographic}(?:\ufe0f|[\u{1f3fb}-\u{1f3ff}])?)\u200d(?=\p{Extended_Pictographic})|(?<=\S)(?:\ufe0e|\ufe0f)/gu;

/**
 * What a name may not hold, read after NFKC and lower case (so fullwidth `ｗｗｗ．` is `www.`): a scheme's `://`,
 * `www.`, an `@`, an IPv4 address, or a word shaped like a domain: labels of letters, digits and hyphens joined by
 * dots, the last of two or more letters, with no space after a dot (`pickfund-bonus.io`, `t.me`, `bücher.de`). A dot
 * followed by a space is a name's abbreviation (`St. John`, `J. R. R.`); `St.John` is refused and asked again.
 */
const LINK_IN_NAME = /:\/\/|www\.|@|\d{1,3}(?:\.\d{1,3}){3}|[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,63}(?![\p{L}\p{N}])/u;

/**
 * Whether a name can go to Klaviyo and into every e-mail that greets its owner: it holds no link, `@`
 * (LINK_IN_NAME), and no invisible or control character (email-address.ts: INVISIBLE_CHARACTER; a terminal escape,
 * a bidirectional override), except where it joins (JOINING_CHARACTER). `O'Brien`, `Anne-Marie`, `José`, `李` pass.
 * @param name a trimmed first or last name
 */
export function isAcceptableName(name: string): boolean {
  const visible = name.replace(JOINING_CHARACTER, "");
  if (INVISIBLE_CHARACTER.test(visible)) return false;
  return !LINK_IN_NAME.test(visible.normalize("NFKC").toLowerCase());
}

/** Trim surrounding white space from every field (whitespace-only becomes empty). */
export function trimSubmission(values: SignupValues): SignupValues {
  return { email: values.email.trim(), firstName: values.firstName.trim(), lastName: values.lastName.trim() };
}

/**
 * The first failing check of product rule 7 among trimmed values, in order: email empty, first
 * name empty, last name empty, an address with no canonical inbox (email-address.ts, which applies
 * EMAIL_PATTERN too), a first name, then a last name that holds a link or a hidden character.
 * @returns the failure's key, or null when the signup may be sent
 */
export function firstValidationFailure(values: SignupValues): ValidationFailure | null {
  if (!values.email) return "emailRequired";
  if (!values.firstName) return "firstNameRequired";
  if (!values.lastName) return "lastNameRequired";
  if (!canonicalAddress(values.email).ok) return "invalidEmail";
  if (!isAcceptableName(values.firstName)) return "firstNameInvalid";
  if (!isAcceptableName(values.lastName)) return "lastNameInvalid";
  return null;
}

/**
 * Longest value sent, in characters. Real UTM values and paths are far shorter;
 * the page cuts longer ones (a hostile or broken link must not fill the visitor's profile) and the service refuses them.
 */
export const ATTRIBUTION_VALUE_MAX_CHARS = 255;

/**
 * A UTM value as it is kept: a campaign's label is 1–64 letters, digits, dots, underscores and hyphens. Anything else
 * (spaces, links, emoji, a stranger's free text) is kept as UTM_OTHER rather than refused, so the signup goes through
 * while the dashboard and the brand's Klaviyo profiles only ever hold labels.
 */
export const UTM_VALUE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** What a UTM value outside UTM_VALUE_PATTERN is kept as. */
export const UTM_OTHER = "other";

/** A UTM value as it is kept: itself when it matches UTM_VALUE_PATTERN, else UTM_OTHER. */
export function keptUtmValue(value: string): string {
  return UTM_VALUE_PATTERN.test(value) ? value : UTM_OTHER;
}

/**
 * Longest custom source (Klaviyo's "custom source": `provider.source`, a campaign's `campaign.source`), in
 * characters: it names a campaign, and the waitlist service stores no longer (the content check refuses longer).
 */
export const CUSTOM_SOURCE_MAX_CHARS = 100;
