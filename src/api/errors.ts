/**
 * JSON:API error documents, as the waitlist service and Klaviyo write them, read for their codes: `errorKeyOf` turns a
 * code into the key of the content's words for it, so a page never shows the server's or the browser's own text.
 */
import type { ErrorObject } from "../../shared/api/errors";

/** One entry of a JSON:API `errors` array, as read: every member is optional in practice. */
export type JsonApiError = Partial<ErrorObject>;

/** The `errors` array of a JSON:API error document, or [] for anything else. */
export function jsonApiErrors(body: unknown): JsonApiError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? errors.filter((error): error is JsonApiError => typeof error === "object" && error !== null) : [];
}

/**
 * The key of the content's words for an error document: the key whose code is the first of the document's codes that
 * `codes` knows.
 * @param codes content key → JSON:API `code`, e.g. CONSOLE_ERROR_CODE
 * @returns that key, or null when no code of the document is known (or the body is no error document)
 */
export function errorKeyOf<K extends string>(body: unknown, codes: Readonly<Record<K, string>>): K | null {
  const keys = Object.keys(codes) as K[];
  for (const { code } of jsonApiErrors(body)) {
    const key = keys.find((candidate) => codes[candidate] === code);
    if (key) return key;
  }
  return null;
}
