/**
 * A signup request's body as the validator reads it (validate.ts): the page's JSON document or the no-JavaScript
 * form's fields, renamed to the JSON members, both then checked by shared/api/signups.ts's SignupRequest.
 */
import type { Context } from "hono";
import { FORM_CONTENT_TYPE, FORM_FIELDS, HONEYPOT_FIELD } from "../../../shared/contract";
import type { SignupInput } from "../../../shared/api/signups";
import type { AppEnv } from "../env";
import { BODY_TOO_LARGE, BodyTooLarge, mediaType, readBody } from "../http";
import type { BodyRead } from "../validate";

/** A form field's JSON member (fields not listed keep their own name). */
const MEMBER_OF_FORM_FIELD: Record<string, string> = Object.fromEntries(
  Object.entries(FORM_FIELDS).map(([member, field]) => [field, member]),
);

/** Whether the request is the no-JavaScript form's (its answers are redirects, never JSON). */
export function isForm(request: Request): boolean {
  return mediaType(request) === FORM_CONTENT_TYPE;
}

/**
 * Read a form body (`application/x-www-form-urlencoded`), its fields renamed to the JSON members; a field sent twice
 * counts once (its first value), as a browser never sends one twice.
 */
function fieldsFromForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const member = MEMBER_OF_FORM_FIELD[name] ?? name;
    if (!(member in fields)) fields[member] = value;
  }
  return fields;
}

/**
 * The body within MAX_BODY_BYTES: the form's fields, or the JSON document. 413 when larger, 400 `invalid_json` for
 * JSON that is not an object.
 */
export async function readSignupBody(c: Context<AppEnv>): Promise<BodyRead> {
  let text: string;
  try {
    text = await readBody(c.req.raw);
  } catch (error) {
    if (error instanceof BodyTooLarge) return { error: BODY_TOO_LARGE };
    throw error;
  }
  if (isForm(c.req.raw)) return { document: fieldsFromForm(text) };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { error: { status: 400, code: "invalid_json", detail: `The body is not valid JSON (${(error as Error).message}).` } };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return { error: { status: 400, code: "invalid_json", detail: "The body must be a JSON object.", pointer: "" } };
  return { document };
}

/**
 * Whether the honeypot (a field a person never sees or fills) holds anything: then a bot sent the request. Any value
 * that is not empty text counts, whatever its type.
 */
export function honeypotFilled(input: SignupInput): boolean {
  const value = input[HONEYPOT_FIELD];
  if (value === undefined || value === null || value === false) return false;
  return typeof value !== "string" || value.trim() !== "";
}
