/**
 * Writes `content/site.schema.json` and `content/campaign.schema.json`, the JSON
 * Schemas of the site file and the campaign files, from the one zod schema
 * (src/content/schema.ts). Editors' VS Code reads them (mapped to the content
 * files in .vscode/settings.json) for completion, hover help and red underlines while typing.
 *
 * Usage: `npm run content-schema` (after any change to schema.ts; a unit test
 * fails while the committed file is stale).
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
