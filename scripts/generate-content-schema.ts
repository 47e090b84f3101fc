/**
 * `npm run content-schema`: writes the content files' JSON Schemas from src/content/schema.ts. Run it
 * after any schema change; a unit test fails while a committed file is stale.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CAMPAIGN_SCHEMA_FILE, campaignJsonSchemaText, CONTENT_SCHEMA_FILE, contentJsonSchemaText } from "../src/content/json-schema";

for (const [file, text] of [
  [CONTENT_SCHEMA_FILE, contentJsonSchemaText()],
  [CAMPAIGN_SCHEMA_FILE, campaignJsonSchemaText()],
] as const) {
  const target = path.resolve(file);
  writeFileSync(target, text);
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
}
