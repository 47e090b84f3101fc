/**
 * A signup request's body, read into one shape whichever way it came: JSON from the page's script
 * (`{ email, firstName, lastName, source?, properties?, turnstileToken?, website?, ref? }`) or the no-JavaScript
 * form's fields (`email`, `first_name`, `last_name`, `source`, `website`, `cf-turnstile-response`, `page`).
 * Type and size bounds live here; the signup rules themselves are the shared module's (src/signup/validation.ts).
 */
import type { ApiError } from "../http";
import type { Submission } from "../../../src/signup/submission";
import { ATTRIBUTION_VALUE_MAX_CHARS, CUSTOM_SOURCE_MAX_CHARS } from "../../../src/signup/validation";

/** At most this many profile properties (UTM and attribution values are about ten). */
export const PROPERTIES_MAX_COUNT = 20;
/** A property's name, at most (characters). */
export const PROPERTY_NAME_MAX_LENGTH = 40;
/** A property's value, at most (characters): the page's own cut of an attribution value, so nothing it sends is refused. */
export const PROPERTY_VALUE_MAX_LENGTH = ATTRIBUTION_VALUE_MAX_CHARS;
/** A custom source, at most (characters): the content check's limit, so every campaign's source fits. */
export const SOURCE_MAX_LENGTH = CUSTOM_SOURCE_MAX_CHARS;

/** The request members as JSON names them; a form's fields are renamed to these. */
export type SignupFields = Record<string, unknown>;

/** One signup request, read and type-checked; the three visitor fields are not trimmed or validated yet. */
export interface SignupInput extends Submission {
  /** Klaviyo custom source from the request (trimmed), or null to use the settings' default. */
  source: string | null;
  properties: Record<string, string>;
  /** Turnstile token; "" when there is none. */
  turnstileToken: string;
}

/** A value read, or the error that stopped it. */
export type Read<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const refuse = (status: number, code: string, detail: string, pointer?: string): { ok: false; error: ApiError } => ({
  ok: false,
  error: { status, code, detail, ...(pointer === undefined ? {} : { pointer }) },
});

/** A form field's JSON name (fields not listed keep their own). */
const FORM_FIELD_NAMES: Record<string, string> = {
  first_name: "firstName",
  last_name: "lastName",
  "cf-turnstile-response": "turnstileToken",
};

/**
 * Parse a JSON body.
 * @returns the document's members, or a 400 `invalid_json` error when it is not JSON or not an object
 */
export function fieldsFromJson(text: string): Read<SignupFields> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return refuse(400, "invalid_json", `The body is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return refuse(400, "invalid_json", "The body must be a JSON object.", "");
  return { ok: true, value: document as SignupFields };
}

/**
 * Read a form body (`application/x-www-form-urlencoded`), its fields renamed to the JSON members; a field sent twice
 * counts once (its first value), as a browser never sends one twice.
 */
export function fieldsFromForm(text: string): SignupFields {
  const fields: SignupFields = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const key = FORM_FIELD_NAMES[name] ?? name;
    if (!(key in fields)) fields[key] = value;
  }
  return fields;
}

/**
 * Whether the honeypot (`website`, a field a person never sees or fills) holds anything: then a bot sent the form.
 * Any value that is not empty text counts, whatever its type.
 */
export function honeypotFilled(fields: SignupFields): boolean {
  const value = fields.website;
  if (value === undefined || value === null || value === false) return false;
  return typeof value !== "string" || value.trim() !== "";
}

/** JSON pointer of a member of `properties` (RFC 6901: `~` → `~0`, `/` → `~1`). */
function propertyPointer(name: string): string {
  return `/properties/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** A text member: absent or null reads as "" (the shared rules then say it is required); any other non-string is an error. */
function text(fields: SignupFields, member: string): Read<string> {
  const value = fields[member];
  if (value === undefined || value === null) return { ok: true, value: "" };
  if (typeof value === "string") return { ok: true, value };
  return refuse(400, "invalid_type", `${member} must be a string.`, `/${member}`);
}

function readProperties(value: unknown): Read<Record<string, string>> {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value))
    return refuse(400, "invalid_type", "properties must be an object of strings.", "/properties");
  const entries = Object.entries(value);
  if (entries.length > PROPERTIES_MAX_COUNT)
    return refuse(400, "too_many", `properties holds at most ${PROPERTIES_MAX_COUNT} members.`, "/properties");
  const properties: [string, string][] = [];
  for (const [name, property] of entries) {
    const pointer = propertyPointer(name);
    if (name.length === 0 || name.length > PROPERTY_NAME_MAX_LENGTH)
      return refuse(400, "too_long", `A property name has 1 to ${PROPERTY_NAME_MAX_LENGTH} characters.`, pointer);
    if (typeof property !== "string") return refuse(400, "invalid_type", "A property's value must be a string.", pointer);
    if (property.length > PROPERTY_VALUE_MAX_LENGTH)
      return refuse(400, "too_long", `A property's value has at most ${PROPERTY_VALUE_MAX_LENGTH} characters.`, pointer);
    properties.push([name, property]);
  }
  // fromEntries defines each member as data, so a property named `__proto__` stays a property.
  return { ok: true, value: Object.fromEntries(properties) };
}

/**
 * Type-check the members and bound the optional ones. `ref` (a referral code) and unknown members are ignored.
 * @returns the input, or the first 400 error: `invalid_type`, `too_long` or `too_many`, with its pointer
 */
export function readSignup(fields: SignupFields): Read<SignupInput> {
  const email = text(fields, "email");
  if (!email.ok) return email;
  const firstName = text(fields, "firstName");
  if (!firstName.ok) return firstName;
  const lastName = text(fields, "lastName");
  if (!lastName.ok) return lastName;
  const source = text(fields, "source");
  if (!source.ok) return source;
  if (source.value.trim().length > SOURCE_MAX_LENGTH)
    return refuse(400, "too_long", `source has at most ${SOURCE_MAX_LENGTH} characters.`, "/source");
  const turnstileToken = text(fields, "turnstileToken");
  if (!turnstileToken.ok) return turnstileToken;
  const properties = readProperties(fields.properties);
  if (!properties.ok) return properties;
  return {
    ok: true,
    value: {
      email: email.value,
      firstName: firstName.value,
      lastName: lastName.value,
      source: source.value.trim() || null,
      properties: properties.value,
      turnstileToken: turnstileToken.value.trim(),
    },
  };
}
