/** Reads and validates a content file, and formats its mistakes for a terminal or a pull request. Build-time only. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Document } from "yaml";
import { z } from "zod";
import type { ContentError, Locate } from "./content-error";
import { mergeContent } from "./merge";
import {
  campaignFileSchema,
  campaignPageSchema,
  siteContentSchema,
  SITE_WIDE_FIELDS,
  type CampaignContent,
  type SiteContent,
} from "./schema";
import { describeIssue, findKeyNode, withoutMisspelledFields } from "./schema-issues";
import { unwrap } from "./schema-introspection";
import { readYaml } from "./yaml-syntax";

export type { ContentError } from "./content-error";

/** The outcome of validating one content file. */
export type ContentResult = { ok: true; content: SiteContent } | { ok: false; errors: ContentError[] };
/** The outcome of validating one campaign file against the site file it is merged over. */
export type CampaignResult = { ok: true; content: CampaignContent } | { ok: false; errors: ContentError[] };

/**
 * Validate a content file.
 * @param file absolute or relative to the working directory
 * @param source read from `file` when omitted
 * @returns `{ ok: true, content }` (trimmed, defaults applied), or `{ ok: false, errors }`
 *   with every mistake, sorted by line. When the YAML itself cannot be read, only the
 *   syntax errors are returned (the schema is checked once the file parses).
 * @throws only when the file cannot be read (Node's ENOENT/EACCES error, naming the file)
 */
export function loadContentFile(file: string, source?: string): ContentResult {
  const text = source ?? readFileSync(file, "utf8");
  const display = displayPath(file);
  const read = readYaml(text, display);
  if (!read.ok) return read;
  return validate(siteContentSchema, read.doc.toJS() ?? {}, read.doc, display, read.at);
}

/**
 * Validate a campaign file: its own fields against the campaign-file schema, then the merged
 * content against the full schema, every mistake at the campaign file's own line and column.
 * @param siteFile named in the message for site-wide fields
 * @param source read from `file` when omitted
 * @returns `{ ok: true, content }` (the merged page content, with its `campaign` section) or `{ ok: false, errors }`
 * @throws only when the file cannot be read (Node's ENOENT/EACCES error, naming the file)
 */
export function loadCampaignFile(file: string, site: SiteContent, siteFile: string, source?: string): CampaignResult {
  const text = source ?? readFileSync(file, "utf8");
  const display = displayPath(file);
  const read = readYaml(text, display);
  if (!read.ok) return read;
  const { doc, at } = read;
  const input: unknown = doc.toJS() ?? {};

  // Site-wide fields are refused with their reason, then left out so that they are not also reported as unknown.
  const siteWide: ContentError[] = [];
  for (const [dotted, reason] of Object.entries(SITE_WIDE_FIELDS)) {
    const fieldPath = dotted.split(".");
    const keyNode = findKeyNode(doc, fieldPath.slice(0, -1), fieldPath[fieldPath.length - 1]);
    if (!keyNode) continue;
    siteWide.push({
      file: display,
      ...at(keyNode.range?.[0] ?? 0),
      field: dotted,
      message: `\`${dotted}\` ${reason} It can only be set in ${displayPath(siteFile)}: remove it from this campaign file.`,
    });
    let parent = input as Record<string, unknown>;
    for (const key of fieldPath.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    delete parent[fieldPath[fieldPath.length - 1]];
  }

  const own = validate(campaignFileSchema, input, doc, display, at);
  if (!own.ok || siteWide.length > 0) return { ok: false, errors: sortErrors([...siteWide, ...(own.ok ? [] : own.errors)]) };
  return validate(campaignPageSchema, mergeContent(site, own.content), doc, display, at);
}

/** A path as editors see it: relative to the working directory. */
function displayPath(file: string): string {
  return path.relative(process.cwd(), path.resolve(file)) || file;
}

function sortErrors(errors: ContentError[]): ContentError[] {
  return errors.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Check parsed YAML against `schema`, explaining every issue at its place in `doc`.
 * Optional fields left empty are read as "none" first (withoutEmptyOptionals).
 */
function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  doc: Document,
  display: string,
  at: Locate,
): { ok: true; content: z.output<S> } | { ok: false; errors: ContentError[] } {
  const parsed = schema.safeParse(withoutEmptyOptionals(input, schema), { reportInput: true });
  if (parsed.success) return { ok: true, content: parsed.data };
  const issues = withoutMisspelledFields(parsed.error.issues, schema);
  return { ok: false, errors: sortErrors(issues.flatMap((issue) => describeIssue(issue, doc, display, at, schema))) };
}

/**
 * The value with every optional field whose text is empty left out. The web editor
 * writes `""` when an editor clears a field, and an emptied optional field means
 * "none" (no pixel id, no key). Required fields keep their "" and are refused as empty.
 * Driven by the schema, so new optional fields behave the same way.
 */
function withoutEmptyOptionals(value: unknown, schema: z.ZodType): unknown {
  const inner = unwrap(schema);
  if (Array.isArray(value) && inner instanceof z.ZodArray)
    return value.map((item) => withoutEmptyOptionals(item, inner.element as z.ZodType));
  if (!(inner instanceof z.ZodObject) || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const field = inner.shape[key] as z.ZodType | undefined;
    if (field?.isOptional() && typeof child === "string" && child.trim() === "") continue;
    // The same for an emptied optional list: in a campaign file it means "the site file's list".
    if (field?.isOptional() && Array.isArray(child) && child.length === 0) continue;
    kept[key] = field ? withoutEmptyOptionals(child, field) : child;
  }
  return kept;
}

/**
 * Format errors for a terminal, one block per error:
 * `file:line:column  field` / the message / an example of a valid value.
 */
export function formatContentErrors(errors: ContentError[]): string {
  const blocks = errors.map((error) => {
    const head = `${error.file}:${error.line}:${error.column}${error.field ? `  ${error.field}` : ""}`;
    const lines = [head, `  ${error.message}`];
    if (error.example) lines.push(`  Example of a valid value:  ${error.example}`);
    return lines.join("\n");
  });
  const count = errors.length === 1 ? "1 mistake" : `${errors.length} mistakes`;
  const where = new Set(errors.map((error) => error.file)).size > 1 ? "the content files" : "the content file";
  return `Found ${count} in ${where}:\n\n${blocks.join("\n\n")}\n`;
}

/**
 * Format errors as GitHub Actions `::error file=…,line=…,col=…,title=…::message` commands, so that a
 * pull request shows each mistake on its line.
 * @param root the repository root; `file` is written relative to it, as GitHub expects
 */
export function formatContentErrorsForGitHub(errors: ContentError[], root: string): string {
  return errors
    .map((error) => {
      const file = path.relative(root, path.resolve(error.file)).split(path.sep).join("/");
      const title = error.field ? `Content mistake in ${error.field}` : "Content mistake";
      const message = error.example ? `${error.message}\nExample of a valid value:  ${error.example}` : error.message;
      const properties = [`file=${file}`, `line=${error.line}`, `col=${error.column}`, `title=${title}`].map((property) => {
        const [name, ...value] = property.split("=");
        return `${name}=${escapeWorkflowProperty(value.join("="))}`;
      });
      return `::error ${properties.join(",")}::${escapeWorkflowData(message)}`;
    })
    .join("\n")
    .concat("\n");
}

/** GitHub's escaping of a workflow command's message: %, CR and LF. */
function escapeWorkflowData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** GitHub's escaping of a workflow command's property value: the message's, plus : and , (they separate properties). */
function escapeWorkflowProperty(text: string): string {
  return escapeWorkflowData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
