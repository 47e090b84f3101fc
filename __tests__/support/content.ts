/**
 * Test content: the fixture file validated and shaped like the pages' GraphQL
 * result (`data.siteContent`), so components render exactly what a build would give them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { deriveFields, effectiveProvider, SITE_PAGE_PATH, type EffectiveProvider } from "../../src/content/derive";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import type { SiteContent } from "../../src/content/schema";

/** The fixture used by snapshots and browser tests. */
export const FIXTURE_FILE = path.join(__dirname, "..", "fixtures", "site.yaml");

/** A fixed build clock for tests: 2030-01-01T00:00:00Z (ms), before the fixture's launch. */
export const FIXTURE_BUILT_AT_MS = Date.UTC(2030, 0, 1);

/**
 * A value as GraphQL returns it: a field the content leaves out is `null`, never missing,
 * so that the fixture fits the generated `Queries.*Fragment` types the components take.
 */
export type GraphQLResult<T> = T extends readonly (infer U)[]
  ? readonly GraphQLResult<U>[]
  : T extends object
    ? { [K in keyof T]-?: GraphQLResult<Exclude<T[K], undefined>> | (undefined extends T[K] ? null : never) }
    : T;

/** The content node as pages receive it (provider URLs filled in as the build does, without overrides). */
export type TestSiteContent = GraphQLResult<
  SiteContent & {
    provider: EffectiveProvider;
    derived: ReturnType<typeof deriveFields>;
    campaign?: { source: string; metaDescription?: string };
  }
>;

/** `value` with every field that holds undefined set to null, as a GraphQL result has it. */
function nullForMissing(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullForMissing);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, field === undefined ? null : nullForMissing(field)]));
  return value;
}

/**
 * Load a content file as the page queries return it.
 * @throws Error listing the content errors when the file is invalid
 */
export function loadTestContent(file = FIXTURE_FILE, builtAtMs = FIXTURE_BUILT_AT_MS): TestSiteContent {
  const result = loadContentFile(file);
  if (!result.ok) throw new Error(formatContentErrors(result.errors));
  const node = {
    ...result.content,
    provider: effectiveProvider(result.content.provider, {}),
    derived: deriveFields(result.content, builtAtMs, SITE_PAGE_PATH, {}),
    campaign: null,
  };
  return nullForMissing(node) as TestSiteContent;
}

/** One change to the fixture: the field's path and its new value, e.g. `[["provider", "transport"], "legacy-form"]`. */
export type FixtureChange = [string[], unknown];

/**
 * Write a variant of the fixture content to `file` with some fields changed, keeping everything else (comments too).
 * @returns file
 */
export function writeFixtureVariant(file: string, changes: FixtureChange[]): string {
  const doc = parseDocument(readFileSync(FIXTURE_FILE, "utf8"));
  for (const [at, value] of changes) doc.setIn(at, value);
  writeFileSync(file, doc.toString());
  return file;
}

/**
 * A variant of the fixture as the page queries return it: written to a scratch file and loaded through the
 * content loader, so the variant is validated and derived exactly as a build would.
 * @throws Error listing the content errors when the variant is invalid
 */
export function loadTestVariant(changes: FixtureChange[], builtAtMs = FIXTURE_BUILT_AT_MS): TestSiteContent {
  const scratch = mkdtempSync(path.join(tmpdir(), "fixture-variant-"));
  try {
    return loadTestContent(writeFixtureVariant(path.join(scratch, "site.yaml"), changes), builtAtMs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
