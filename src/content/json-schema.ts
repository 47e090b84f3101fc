/**
 * The JSON Schemas of the content files, derived from the zod schemas: the site
 * file's (`content/site.schema.json`) and the campaign files'
 * (`content/campaign.schema.json`). Written by `npm run content-schema`; compared
 * with the committed files by a unit test. Build-time only.
 */
import path from "node:path";
import { z } from "zod";
import { campaignFileSchema, siteContentSchema } from "./schema";

/** Where the JSON Schema is committed (relative to the repository root). */
export const CONTENT_SCHEMA_FILE = path.join("content", "site.schema.json");
/** Where the campaign files' JSON Schema is committed; their first line points at it. */
export const CAMPAIGN_SCHEMA_FILE = path.join("content", "campaign.schema.json");

/**
 * The JSON Schema of what editors write (`io: "input"`: optional fields and
 * defaults as the YAML may leave them out), pretty-printed with a trailing newline.
 * Deterministic: the same schema always gives the same text.
 * @returns the file's text
 */
export function contentJsonSchemaText(): string {
  return jsonSchemaText(siteContentSchema, "Site content");
}

/**
 * The JSON Schema of a campaign file: every field optional but `campaign.source`,
 * and no site-wide fields. Same format as contentJsonSchemaText.
 * @returns the file's text
 */
export function campaignJsonSchemaText(): string {
  return jsonSchemaText(campaignFileSchema, "Campaign page");
}

function jsonSchemaText(schema: z.ZodType, defaultTitle: string): string {
  const generated = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema, title, description, ...rest } = generated;
  const ordered = {
    $schema: $schema ?? "https://json-schema.org/draft/2020-12/schema",
    title: title ?? defaultTitle,
    description,
    ...rest,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
