import { readFileSync } from "node:fs";
import path from "node:path";
import { CONTENT_SCHEMA_FILE, contentJsonSchemaText } from "../../src/content/json-schema";

const ROOT = path.join(__dirname, "..", "..");

type JsonSchema = { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema };

/** Dotted paths of every property (and array item) that has no description. */
function undescribed(schema: JsonSchema, at: string): string[] {
  const own = schema.description?.trim() ? [] : [at || "(root)"];
  const children = Object.entries(schema.properties ?? {}).flatMap(([key, child]) => undescribed(child, at ? `${at}.${key}` : key));
  const items = schema.items ? undescribed(schema.items, `${at}[]`) : [];
  return [...own, ...children, ...items];
}

describe("content/site.schema.json", () => {
  const committed = readFileSync(path.join(ROOT, CONTENT_SCHEMA_FILE), "utf8");

  it("is up to date with src/content/schema.ts (run npm run content-schema when this fails)", () => {
    const fresh = contentJsonSchemaText();
    if (fresh !== committed) {
      throw new Error(
        `${CONTENT_SCHEMA_FILE} is stale: the content schema changed since it was generated. Run npm run content-schema and commit the result.`,
      );
    }
  });

  it("gives editors a description for every field", () => {
    expect(undescribed(JSON.parse(committed) as JsonSchema, "")).toEqual([]);
  });

  it("names the JSON Schema dialect and a title, and refuses unknown top-level sections", () => {
    const schema = JSON.parse(committed) as Record<string, unknown>;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.title).toBe("Site content");
    expect(schema.additionalProperties).toBe(false);
  });
});
