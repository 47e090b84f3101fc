/**
 * A signup request's body (the page's JSON or the no-JavaScript form's fields) read into one shape by one zod schema,
 * whose issues become the API's error codes and JSON pointers. The signup rules are shared/validation.ts's.
 */
import { z } from "zod";
import { ATTRIBUTION_PROPERTIES, FORM_FIELDS, HONEYPOT_FIELD } from "../../../shared/contract";
import { ATTRIBUTION_VALUE_MAX_CHARS, CUSTOM_SOURCE_MAX_CHARS } from "../../../shared/validation";
import type { ApiError } from "../http";

/** At most this many profile properties: more than the page's names, so a count is refused before any name is read. */
export const PROPERTIES_MAX_COUNT = 20;
/** A property's name, at most (characters). */
export const PROPERTY_NAME_MAX_LENGTH = 40;

/** The request members as JSON names them; a form's fields are renamed to these. */
export type SignupFields = Record<string, unknown>;

/** A text member: absent or null reads as "" (the shared rules then say it is required); any other non-string is an error. */
const text = (member: string) =>
  z
    .string({ error: `${member} must be a string.` })
    .nullish()
    .transform((value) => value ?? "");

const PROPERTY_NAME = `A property name has 1 to ${PROPERTY_NAME_MAX_LENGTH} characters.`;

/** Profile properties: an object of at most PROPERTIES_MAX_COUNT strings, counted before any member is read. */
const Properties = z
  .record(z.string(), z.unknown(), { error: "properties must be an object of strings." })
  .refine((properties) => Object.keys(properties).length <= PROPERTIES_MAX_COUNT, {
    error: `properties holds at most ${PROPERTIES_MAX_COUNT} members.`,
    params: { code: "too_many" },
  })
  .pipe(
    z.record(
      z
        .string()
        .min(1, { error: PROPERTY_NAME })
        .max(PROPERTY_NAME_MAX_LENGTH, { error: PROPERTY_NAME })
        // Only the names the page sends reach Klaviyo's profiles.
        .refine((name) => (ATTRIBUTION_PROPERTIES as readonly string[]).includes(name), {
          error: `A property's name is one of ${ATTRIBUTION_PROPERTIES.join(", ")}.`,
          params: { code: "unknown_property" },
        }),
      z
        .string({ error: "A property's value must be a string." })
        // The page's own cut of an attribution value, so nothing it sends is refused.
        .max(ATTRIBUTION_VALUE_MAX_CHARS, { error: `A property's value has at most ${ATTRIBUTION_VALUE_MAX_CHARS} characters.` }),
    ),
  );

/**
 * The members the service reads, in the order they are checked. The honeypot, `ref` and the form's `page` are read
 * apart (any type); unknown members are ignored. The three visitor fields are neither trimmed nor validated here.
 */
const SignupInputSchema = z.object({
  email: text("email"),
  firstName: text("firstName"),
  lastName: text("lastName"),
  /** Klaviyo custom source from the request (trimmed), or null to use the settings' default. */
  source: text("source")
    .transform((value) => value.trim())
    // The content check's limit, so every campaign's source fits.
    .pipe(z.string().max(CUSTOM_SOURCE_MAX_CHARS, { error: `source has at most ${CUSTOM_SOURCE_MAX_CHARS} characters.` }))
    .transform((value) => value || null),
  properties: Properties.nullish().transform((value) => value ?? {}),
  /** Turnstile token; "" when there is none. */
  turnstileToken: text("turnstileToken").transform((value) => value.trim()),
});

/** One signup request, read and type-checked. */
export type SignupInput = z.infer<typeof SignupInputSchema>;

/** JSON pointer of a member (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The API's code for a schema issue: its own for a custom check, else by the kind of failure. */
function codeOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "custom") return (issue.params as { code: string }).code;
  return issue.code === "invalid_type" ? "invalid_type" : "too_long";
}

/** The issue that names the fault: a record key's issue wraps the key schema's own. */
function innermost(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  return issue.code === "invalid_key" && issue.issues[0] ? { ...issue.issues[0], path: issue.path } : issue;
}

/**
 * Type-check the members and bound the optional ones.
 * @returns the input, or the first issue as a 400 error: `invalid_type`, `too_long` or `too_many`, with its pointer
 */
export function readSignup(fields: SignupFields): { ok: true; value: SignupInput } | { ok: false; error: ApiError } {
  const parsed = SignupInputSchema.safeParse(fields);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = innermost(parsed.error.issues[0]);
  return { ok: false, error: { status: 400, code: codeOf(issue), detail: issue.message, pointer: pointerOf(issue.path) } };
}

/**
 * Parse a JSON body.
 * @returns the document's members, or a 400 `invalid_json` error when it is not JSON or not an object
 */
export function fieldsFromJson(text: string): { ok: true; value: SignupFields } | { ok: false; error: ApiError } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { status: 400, code: "invalid_json", detail: `The body is not valid JSON (${(error as Error).message}).` } };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return { ok: false, error: { status: 400, code: "invalid_json", detail: "The body must be a JSON object.", pointer: "" } };
  return { ok: true, value: document as SignupFields };
}

/** A form field's JSON member (fields not listed keep their own name). */
const MEMBER_OF_FORM_FIELD: Record<string, string> = Object.fromEntries(
  Object.entries(FORM_FIELDS).map(([member, field]) => [field, member]),
);

/**
 * Read a form body (`application/x-www-form-urlencoded`), its fields renamed to the JSON members; a field sent twice
 * counts once (its first value), as a browser never sends one twice.
 */
export function fieldsFromForm(text: string): SignupFields {
  const fields: SignupFields = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const member = MEMBER_OF_FORM_FIELD[name] ?? name;
    if (!(member in fields)) fields[member] = value;
  }
  return fields;
}

/**
 * Whether the honeypot (a field a person never sees or fills) holds anything: then a bot sent the request. Any value
 * that is not empty text counts, whatever its type.
 */
export function honeypotFilled(fields: SignupFields): boolean {
  const value = fields[HONEYPOT_FIELD];
  if (value === undefined || value === null || value === false) return false;
  return typeof value !== "string" || value.trim() !== "";
}
