/**
 * `npm run openapi`: writes docs/openapi.json, the API's OpenAPI description (shared/api/openapi.ts). Run it after any
 * change to shared/api; a service test fails while the committed file differs from what the Worker serves.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../shared/api/openapi";

const target = path.resolve("docs/openapi.json");
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
