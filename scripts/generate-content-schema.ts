/**
 * Writes `content/site.schema.json`, the JSON Schema of the content file, from the
 * one zod schema (src/content/schema.ts). Editors' VS Code reads it (mapped to the
 * content files in .vscode/settings.json) for completion, hover help and red
 * underlines while typing.
 *
 * Usage: `npm run content-schema` (after any change to schema.ts; a unit test
 * fails while the committed file is stale).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CONTENT_SCHEMA_FILE, contentJsonSchemaText } from "../src/content/json-schema";

const target = path.resolve(CONTENT_SCHEMA_FILE);
writeFileSync(target, contentJsonSchemaText());
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
