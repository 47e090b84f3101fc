/**
 * The JSON Schema of the content file, derived from the zod schema. Written to
 * `content/site.schema.json` by `npm run content-schema`; compared with the
 * committed file by a unit test. Build-time only.
 */
import path from "node:path";
import { z } from "zod";
import { siteContentSchema } from "./schema";

/** Where the JSON Schema is committed (relative to the repository root). */
export const CONTENT_SCHEMA_FILE = path.join("content", "site.schema.json");

/**
 * The JSON Schema of what editors write (`io: "input"`: optional fields and
 * defaults as the YAML may leave them out), pretty-printed with a trailing newline.
 * Deterministic: the same schema always gives the same text.
 * @returns the file's text
 */
export function contentJsonSchemaText(): string {
  const generated = z.toJSONSchema(siteContentSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema, title, description, ...rest } = generated;
  const schema = {
    $schema: $schema ?? "https://json-schema.org/draft/2020-12/schema",
    title: title ?? "Site content",
    description,
    ...rest,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
