/**
 * `npm run openapi`: writes the API's two OpenAPI descriptions (shared/api/openapi.ts), docs/openapi.json (the public
 * API) and docs/openapi-console.json (the console's). Run it after any change to shared/api; a service test fails
 * while a committed file differs from what the Worker serves.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Described, openApiDocument } from "../shared/api/openapi";

/** Where each description is committed. */
const OPENAPI_FILES: Record<Described, string> = { public: "docs/openapi.json", console: "docs/openapi-console.json" };

for (const [audience, file] of Object.entries(OPENAPI_FILES) as [Described, string][]) {
  const target = path.resolve(file);
  writeFileSync(target, `${JSON.stringify(openApiDocument(audience), null, 2)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
}
