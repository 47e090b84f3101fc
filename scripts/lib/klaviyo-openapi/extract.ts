/**
 * Writes the Klaviyo operations the stand-in validates against, from klaviyo/openapi `openapi/stable.json`:
 *
 *   ./node_modules/.bin/tsx scripts/lib/klaviyo-openapi/extract.ts <path to stable.json> [commit]
 *
 * Each kept operation has every `$ref` inlined so each file stands alone; of its parameters, the header and path
 * ones and the query parameters the service sends are kept (the rest are left out), and nothing kept is changed.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** The operations the service sends, by path, the file each is written to and the query parameters it may send. */
const OPERATIONS: { path: string; method: "get" | "post"; file: string; query: string[] }[] = [
  { path: "/api/profile-import", method: "post", file: "create_or_update_profile.json", query: [] },
  { path: "/api/profile-subscription-bulk-create-jobs", method: "post", file: "bulk_subscribe_profiles.json", query: [] },
  { path: "/api/lists/{id}", method: "get", file: "get_list.json", query: ["fields[list]"] },
  {
    path: "/api/lists/{id}/profiles",
    method: "get",
    file: "get_profiles_for_list.json",
    query: ["filter", "fields[profile]", "additional-fields[profile]", "page[size]"],
  },
  { path: "/api/events", method: "post", file: "create_event.json", query: [] },
  { path: "/api/data-privacy-deletion-jobs", method: "post", file: "request_profile_deletion.json", query: [] },
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * `value` with every local `$ref` (`#/components/...`) replaced by what it points at, recursively.
 * @throws Error for a reference outside the document or a reference cycle (which could not be inlined)
 */
function inline(document: Json, value: Json, seen: string[] = []): Json {
  if (Array.isArray(value)) return value.map((item) => inline(document, item, seen));
  if (value === null || typeof value !== "object") return value;
  const ref = value.$ref;
  if (typeof ref === "string") {
    if (!ref.startsWith("#/")) throw new Error(`Only local references can be inlined, not ${ref}.`);
    if (seen.includes(ref)) throw new Error(`Reference cycle: ${[...seen, ref].join(" → ")}.`);
    let target: Json = document;
    for (const part of ref.slice(2).split("/")) {
      if (target === null || typeof target !== "object" || Array.isArray(target) || !(part in target))
        throw new Error(`${ref} does not resolve.`);
      target = target[part];
    }
    return inline(document, target, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, inline(document, member, seen)]));
}

async function main(): Promise<void> {
  const [source, commit = null] = process.argv.slice(2);
  if (!source) throw new Error("Usage: extract.ts <path to klaviyo/openapi's openapi/stable.json> [commit]");
  const document = JSON.parse(await readFile(source, "utf8")) as {
    info: { version: string };
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] } & Record<string, Json>>>;
  };
  for (const operation of OPERATIONS) {
    const found = document.paths[operation.path]?.[operation.method];
    if (!found) throw new Error(`${operation.method.toUpperCase()} ${operation.path} is not in ${source}.`);
    const copy = {
      source: { repository: "klaviyo/openapi", file: "openapi/stable.json", revision: document.info.version, commit },
      method: operation.method,
      path: operation.path,
      operationId: found.operationId,
      summary: found.summary,
      description: found.description,
      parameters: (found.parameters ?? []).filter(
        (parameter) => parameter.in === "header" || parameter.in === "path" || operation.query.includes(parameter.name),
      ),
      // A GET has none (JSON leaves the member out).
      requestBody: found.requestBody,
      responses: found.responses,
    };
    const target = path.join(__dirname, operation.file);
    await writeFile(target, `${JSON.stringify(inline(document, copy), null, 2)}\n`);
    console.log(`${operation.method.toUpperCase()} ${operation.path} → ${path.relative(process.cwd(), target)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
