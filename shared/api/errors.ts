/**
 * The JSON:API error document every failed answer of the waitlist API carries (`application/vnd.api+json`), as a zod
 * schema; its type is what the page, the console and the scripts read.
 */
import { z } from "zod";

/** One member of a JSON:API `errors` array. */
export const ErrorObject = z.object({
  /** The HTTP status, as a string (JSON:API). */
  status: z.string(),
  /** Stable, snake_case: what clients branch on, e.g. `email_required`. */
  code: z.string(),
  /** Plain English for a developer; never shown to a visitor. */
  detail: z.string(),
  /** Klaviyo's errors carry a title too. */
  title: z.string().optional(),
  /** A JSON pointer into the request document (`/email`), or the query or path parameter at fault. */
  source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

/** A JSON:API error document. */
export const ErrorDocument = z.object({ errors: z.array(ErrorObject).min(1) });
export type ErrorDocument = z.infer<typeof ErrorDocument>;
