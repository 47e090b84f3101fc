/** The content files' JSON Schemas, derived from the zod schemas (`npm run content-schema`). Build-time only. */
import path from "node:path";
import { z } from "zod";
import { campaignFileSchema, siteContentSchema } from "./schema";

/** Where the JSON Schema is committed (relative to the repository root). */
export const CONTENT_SCHEMA_FILE = path.join("content", "site.schema.json");
/** Where the campaign files' JSON Schema is committed (mapped to content/campaigns/*.yaml in .vscode/settings.json). */
export const CAMPAIGN_SCHEMA_FILE = path.join("content", "campaign.schema.json");
/** The campaign schema's `$id` (a name, like CONTENT_SCHEMA_ID). */
export const CAMPAIGN_SCHEMA_ID = "urn:pickfund:content:campaign";
/**
 * The schema's `$id`: a stable name for it, not an address. Editors' VS Code finds the
 * schema through `.vscode/settings.json` (`yaml.schemas`, by file path), which survives
 * the web editor rewriting the YAML; a `# yaml-language-server` comment would not.
 */
export const CONTENT_SCHEMA_ID = "urn:pickfund:content:site";

type JsonSchemaNode = {
  type?: unknown;
  "x-developer-only"?: boolean;
  pattern?: string;
  patternErrorMessage?: string;
  required?: string[];
  properties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
};

/**
 * An optional text field may be empty: the web editor writes `""` when an editor clears
 * it, and the build reads that as "none" (load.ts). Its pattern then accepts "" too.
 * Also puts a nullable field's patternErrorMessage beside its pattern.
 */
function allowEmptyOptionalText(schema: JsonSchemaNode): void {
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    // A nullable field's meta sits beside its anyOf; the message must sit beside the pattern it explains.
    for (const variant of child.anyOf ?? []) {
      if (variant.pattern && !variant.patternErrorMessage && child.patternErrorMessage)
        variant.patternErrorMessage = child.patternErrorMessage;
    }
    if (!schema.required?.includes(key)) {
      for (const variant of [child, ...(child.anyOf ?? [])]) {
        if (variant.type === "string" && variant.pattern) variant.pattern = `^$|${variant.pattern}`;
      }
    }
    allowEmptyOptionalText(child);
  }
  if (schema.items) allowEmptyOptionalText(schema.items);
}

/**
 * The JSON Schema of what editors write (`io: "input"`; an emptied optional field means "none").
 * Every `pattern` carries a `patternErrorMessage`, which yaml-language-server shows instead of the regex.
 * @returns a fresh object (callers may change it)
 */
export function contentJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(siteContentSchema, CONTENT_SCHEMA_ID, "Site content");
}

/**
 * The JSON Schema of a campaign file: every field optional but `campaign.source`,
 * and none of the site-wide fields. Built like contentJsonSchema.
 * @returns a fresh object (callers may change it)
 */
export function campaignJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(campaignFileSchema, CAMPAIGN_SCHEMA_ID, "Campaign page");
}

function jsonSchemaOf(schema: z.ZodType, id: string, defaultTitle: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  allowEmptyOptionalText(generated);
  const { $schema, title, description, ...rest } = generated;
  return {
    $schema: $schema ?? "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title: title ?? defaultTitle,
    description,
    ...rest,
  };
}

/**
 * The content file's settings only developers set (schema.ts: developerOnly), as dotted paths in the schema's order,
 * e.g. "launch.productSignupUrl", "draw.chain": the web editor leaves them out, `npm run deploy` shows their changes.
 */
export function developerOnlyFields(schema: JsonSchemaNode = contentJsonSchema(), at = ""): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => {
    const here = at ? `${at}.${key}` : key;
    if (child["x-developer-only"]) return [here];
    const inner = child.anyOf?.find((variant) => variant.type !== "null") ?? child;
    return developerOnlyFields(inner, here);
  });
}

/**
 * contentJsonSchema() as the committed file's text, pretty-printed with a trailing newline.
 * Deterministic: the same schema always gives the same text.
 * @returns the file's text
 */
export function contentJsonSchemaText(): string {
  return `${JSON.stringify(contentJsonSchema(), null, 2)}\n`;
}

/** campaignJsonSchema() as the committed file's text, in the same format. */
export function campaignJsonSchemaText(): string {
  return `${JSON.stringify(campaignJsonSchema(), null, 2)}\n`;
}
