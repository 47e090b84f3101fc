import { readFileSync } from "node:fs";
import path from "node:path";
import { CAMPAIGN_SCHEMA_FILE, campaignJsonSchemaText, CONTENT_SCHEMA_FILE, contentJsonSchemaText } from "../../src/content/json-schema";
import { SITE_WIDE_FIELDS } from "../../src/content/schema";

const ROOT = path.join(__dirname, "..", "..");

type JsonSchema = { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema; required?: string[] };

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

describe("content/campaign.schema.json", () => {
  const committed = readFileSync(path.join(ROOT, CAMPAIGN_SCHEMA_FILE), "utf8");
  const schema = JSON.parse(committed) as JsonSchema & Record<string, unknown>;

  it("is up to date with src/content/schema.ts (run npm run content-schema when this fails)", () => {
    if (campaignJsonSchemaText() !== committed) {
      throw new Error(`${CAMPAIGN_SCHEMA_FILE} is stale. Run npm run content-schema and commit the result.`);
    }
  });

  it("gives editors a description for every field", () => {
    expect(undescribed(schema, "")).toEqual([]);
  });

  it("requires only campaign.source: every copy field may be left out", () => {
    const requiredPaths = (node: JsonSchema, at: string): string[] => [
      ...(node.required ?? []).map((key) => (at ? `${at}.${key}` : key)),
      ...Object.entries(node.properties ?? {}).flatMap(([key, child]) => requiredPaths(child, at ? `${at}.${key}` : key)),
    ];
    expect(requiredPaths(schema, "")).toEqual(["campaign", "campaign.source"]);
    expect(schema.title).toBe("Campaign page");
    expect(schema.additionalProperties).toBe(false);
  });

  it("offers none of the site-wide fields", () => {
    for (const dotted of Object.keys(SITE_WIDE_FIELDS)) {
      const [section, field] = dotted.split(".");
      const found = field ? schema.properties?.[section]?.properties?.[field] : schema.properties?.[section];
      expect([dotted, found]).toEqual([dotted, undefined]);
    }
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(["campaign", "home", "toasts", "decorations"]));
  });

  it("is what VS Code uses for the campaign files (.vscode/settings.json), like site.schema.json for site.yaml", () => {
    const mapping = (
      JSON.parse(readFileSync(path.join(ROOT, ".vscode", "settings.json"), "utf8")) as { "yaml.schemas": Record<string, string[]> }
    )["yaml.schemas"];
    expect(mapping[`./${CAMPAIGN_SCHEMA_FILE}`]).toEqual(
      expect.arrayContaining(["content/campaigns/*.yaml", "__tests__/fixtures/campaigns/*.yaml"]),
    );
    expect(schema.$id).toBe("urn:pickfund:content:campaign");
  });
});
