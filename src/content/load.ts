/**
 * Reads, parses and validates a content file, and explains every mistake in it
 * with file, line, column, the field's path, what was expected and an example.
 *
 * Build-time only (used by gatsby-node.ts and scripts/check-content.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode, type YAMLError } from "yaml";
import { z } from "zod";
import { mergeContent } from "./merge";
import { campaignFileSchema, campaignPageSchema, siteContentSchema, SITE_WIDE_FIELDS, type CampaignContent, type SiteContent } from "./schema";

/** One mistake in a content file. `line` and `column` are 1-based. */
export interface ContentError {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the field, e.g. `home.form.submit`; empty for syntax errors. */
  field: string;
  /** What is wrong and, where there is one, how to fix it, in plain English. */
  message: string;
  /** An example of a valid value for the field, when the schema gives one. */
  example?: string;
}

/** The outcome of validating one content file. */
export type ContentResult = { ok: true; content: SiteContent } | { ok: false; errors: ContentError[] };
/** The outcome of validating one campaign file against the site file it is merged over. */
export type CampaignResult = { ok: true; content: CampaignContent } | { ok: false; errors: ContentError[] };

/** Turns an offset in the file into a 1-based line and column. */
type Locate = (offset: number) => { line: number; column: number };

/** Plain-English explanations of the `yaml` package's error codes. */
const YAML_ERROR_TEXT: Record<string, string> = {
  TAB_AS_INDENT:
    "A tab character is used to indent this line. YAML only allows spaces for indentation: replace the tab with spaces (2 per level).",
  BAD_INDENT: "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces.",
  BAD_DQ_ESCAPE: "This text in double quotes has a backslash that YAML does not understand. Remove it, or use single quotes.",
  UNEXPECTED_TOKEN: "YAML did not expect this character here. Check for a missing quote, colon or dash, or text that needs quotes.",
  BAD_SCALAR_START: "This value starts with a character that needs quotes (like @ or `). Put the whole value in quotes.",
  IMPOSSIBLE: "YAML cannot read this part of the file. Check the quotes and indentation on this line.",
};

/**
 * Validate a content file.
 * @param file path of the YAML file (absolute or relative to the working directory)
 * @param source the file's text; read from `file` when omitted
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
 * Validate a campaign file: its own fields against the campaign-file schema, then
 * the site's content with the campaign merged over it (lists replace whole lists)
 * against the full schema. Every mistake is reported at the campaign file's own line
 * and column. The file name (the page's slug) is checked by campaigns.ts, not here.
 * @param file path of the campaign's YAML file
 * @param site the validated content of the site file it is merged over
 * @param siteFile the site file's path, named in the message for site-wide fields
 * @param source the file's text; read from `file` when omitted
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

/** Parse YAML text, keeping line positions; syntax mistakes come back explained. */
function readYaml(text: string, display: string): { ok: true; doc: Document; at: Locate } | { ok: false; errors: ContentError[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: describeSyntaxErrors(text, doc.errors, lineCounter).map((error) => ({ file: display, ...error })) };
  }
  const at: Locate = (offset) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return { ok: true, doc, at };
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
  if (Array.isArray(value) && inner instanceof z.ZodArray) return value.map((item) => withoutEmptyOptionals(item, inner.element as z.ZodType));
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
 * The `yaml` package reports an unclosed quote where the file (or line) ends;
 * editors need the line where the quote opens, so walk back to it.
 */
function unclosedQuoteStart(text: string, offset: number): number | null {
  for (let i = Math.min(offset, text.length - 1); i >= 0; i--) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      const lineStart = text.lastIndexOf("\n", i - 1) + 1;
      const before = text.slice(lineStart, i);
      if (/(^|[:\-\[,{]\s*|^\s*)$/.test(before) && !/#/.test(before)) return i;
    }
  }
  return null;
}

/** A YAML syntax error, located and explained (the file name is added by the caller). */
type SyntaxError = Omit<ContentError, "file">;

/**
 * Turn the `yaml` package's errors into one plain-English error per mistake.
 *
 * The parser often reports one mistake several times, at the place where it got
 * confused rather than where the editor typed; this puts each report back on the
 * line the editor has to change:
 * - a tab used for indentation confuses everything after it, so only the tabs are reported;
 * - a line indented deeper than its neighbours is read as the continuation of the value
 *   above it (MULTILINE_IMPLICIT_KEY from the line above to this one): reported on this line;
 * - `name:value` without a space is read the same way: reported on its own line;
 * - an unquoted `: ` inside a value (BLOCK_AS_IMPLICIT_KEY): "put the value in quotes";
 * - an unclosed quote is reported where the quote opens, not where the file ends.
 */
function describeSyntaxErrors(text: string, errors: readonly YAMLError[], lineCounter: LineCounter): SyntaxError[] {
  const lines = text.split(/\r?\n/);
  const lineText = (line: number) => lines[line - 1] ?? "";
  const firstColumn = (line: number) => (lineText(line).match(/^ */)?.[0].length ?? 0) + 1;
  const pos = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };

  const tabs = errors.filter((error) => error.code === "TAB_AS_INDENT");
  const spansLines = (error: YAMLError) => pos(error.pos[1]).line > pos(error.pos[0]).line;
  const badIndentLines = new Set(errors.filter((error) => error.code === "BAD_INDENT").map((error) => pos(error.pos[0]).line));
  const relevant =
    tabs.length > 0
      ? tabs
      : errors.filter(
          (error) =>
            // A line read as the continuation of the value above is reported twice at the same place; keep the multi-line report.
            !(error.code === "BLOCK_AS_IMPLICIT_KEY" && errors.some((other) => other.code === "MULTILINE_IMPLICIT_KEY" && other.pos[0] === error.pos[0] && spansLines(other))) &&
            // A badly indented line also breaks the key/value reading of that same line: one mistake.
            !((error.code === "BLOCK_AS_IMPLICIT_KEY" || error.code === "MULTILINE_IMPLICIT_KEY") && badIndentLines.has(pos(error.pos[0]).line)),
        );
  const found: SyntaxError[] = [];
  for (const error of relevant) {
    const start = pos(error.pos[0]);
    const end = pos(error.pos[1]);
    let located: SyntaxError;
    if (error.code === "MISSING_CHAR") {
      const isQuote = /quote/i.test(error.message);
      located = {
        ...pos(isQuote ? (unclosedQuoteStart(text, error.pos[0]) ?? error.pos[0]) : error.pos[0]),
        field: "",
        message: isQuote
          ? "A quote that opens here is never closed. Add the matching closing quote at the end of the text."
          : `Something that opens here is never closed (YAML says: ${error.message.split("\n")[0]}). Check the brackets [ ] and quotes on this line.`,
      };
    } else if (error.code === "MULTILINE_IMPLICIT_KEY" || error.code === "BLOCK_AS_IMPLICIT_KEY") {
      if (MISSING_SPACE_AFTER_COLON.test(lineText(start.line))) {
        located = {
          line: start.line,
          column: firstColumn(start.line),
          field: "",
          message: "There is no space after the colon. Write the field name, a colon, a space, then the value, like `subtext: Get ready`.",
        };
      } else if (error.code === "MULTILINE_IMPLICIT_KEY" && end.line > start.line) {
        const line = end.column === 1 ? end.line - 1 : end.line;
        located = {
          line,
          column: firstColumn(line),
          field: "",
          message:
            "This line is indented differently from the field above it, so it is read as part of the value above. Start it in the same column as the other fields of its section (2 spaces per level).",
        };
      } else {
        located = {
          ...start,
          field: "",
          message:
            "This value contains a colon followed by a space, which YAML reads as the start of another field. Put the whole value in double quotes, like \"Join now: get funded\".",
        };
      }
    } else if (error.code === "BAD_INDENT" && /end with a [\]}]/.test(error.message)) {
      // An unclosed [ list or { map is reported where the next field starts: point at the opening bracket.
      const bracket = /\]/.test(error.message) ? "[" : "{";
      const opening = text.lastIndexOf(bracket, error.pos[0]);
      located = {
        ...pos(opening >= 0 ? opening : error.pos[0]),
        field: "",
        message: `This ${bracket === "[" ? "list" : "group"} opens with ${bracket} but is never closed. Add ${bracket === "[" ? "]" : "}"} at the end of it, on the same line.`,
      };
    } else if (error.code === "BAD_INDENT") {
      located = { line: start.line, column: firstColumn(start.line), field: "", message: YAML_ERROR_TEXT.BAD_INDENT };
    } else if (error.code === "DUPLICATE_KEY") {
      const key = /^\s*["']?([^"':]+)/.exec(text.slice(error.pos[0]))?.[1]?.trim();
      located = {
        ...start,
        field: "",
        message: `\`${key}\` appears twice in the same section. Keep only one of them (YAML would silently use just one).`,
      };
    } else {
      located = { ...start, field: "", message: YAML_ERROR_TEXT[error.code] ?? `YAML could not read this: ${error.message.split("\n")[0]}` };
    }
    // One mistake often yields several reports on the same line: keep the first.
    if (!found.some((f) => f.line === located.line)) found.push(located);
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** `name:value` with no space after the colon (URLs have `: ` before their `://`, so they never match). */
const MISSING_SPACE_AFTER_COLON = /^\s*[A-Za-z0-9_-]+:[^\s/]/;

/**
 * A field reported as missing next to an unknown key that is a near miss of it
 * (`titel` beside a missing `title`) is one mistake, not two: keep only the
 * unknown-key report, which names the right spelling.
 */
function withoutMisspelledFields(issues: readonly z.core.$ZodIssue[], root: z.ZodType): z.core.$ZodIssue[] {
  const misspelled = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = Object.keys(shapeAt(issue.path.map(String), root) ?? {});
    for (const key of issue.keys) {
      const suggestion = nearMiss(key, known);
      if (suggestion) misspelled.add([...issue.path.map(String), suggestion].join("."));
    }
  }
  return issues.filter((issue) => !(issue.code === "invalid_type" && issue.input === undefined && misspelled.has(issue.path.map(String).join("."))));
}

/** The known key `key` is probably a misspelling of, if any. */
function nearMiss(key: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const suggestion = closest(key, known);
  const limit = Math.max(2, Math.floor(suggestion.length / 3));
  return distance(key.toLowerCase(), suggestion.toLowerCase()) <= limit ? suggestion : undefined;
}

/** Turn one zod issue into one or more located, plain-English errors. */
function describeIssue(
  issue: z.core.$ZodIssue,
  doc: Document,
  file: string,
  at: Locate,
  root: z.ZodType,
): ContentError[] {
  const issuePath = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const known = Object.keys(shapeAt(issuePath, root) ?? {});
    const what = issuePath.length ? `a field in \`${issuePath.join(".")}\`` : "a section of this file";
    return issue.keys.map((key) => {
      const keyNode = findKeyNode(doc, issuePath, key);
      const suggestion = nearMiss(key, known);
      return {
        file,
        ...at(keyNode?.range?.[0] ?? 0),
        field: [...issuePath, key].join("."),
        message: suggestion
          ? `\`${key}\` is not ${what}. Did you mean \`${suggestion}\`?`
          : `\`${key}\` is not ${what}. Remove it, or use one of: ${known.join(", ")}.`,
      };
    });
  }
  const name = issuePath[issuePath.length - 1] ?? "";
  const example = exampleFor(issuePath, root);
  const exampleText = example === undefined ? undefined : `${name}: ${JSON.stringify(example)}`;
  const { node, exact } = nearestNode(doc, issuePath);
  if (!exact) {
    // The field is absent: point at its section's name (the line to add it under).
    const parentPath = issuePath.slice(0, -1);
    const parentKey = parentPath.length ? findKeyNode(doc, parentPath.slice(0, -1), parentPath[parentPath.length - 1]) : null;
    const isMissing = issue.code === "invalid_type" && issue.input === undefined;
    const isSection = isMissing && issue.expected === "object";
    const children = isSection ? Object.keys(shapeAt(issuePath, root) ?? {}) : [];
    const message = !isMissing
      ? issue.message
      : isSection
        ? `The section \`${name}\` is missing${parentPath.length ? ` from \`${parentPath.join(".")}\`` : ""}. Add it back with its fields: ${children.join(", ")}.`
        : `The field \`${name}\` is missing from \`${parentPath.join(".")}\`. Add it on its own line in that section.`;
    return [{ file, ...at((parentKey ?? node)?.range?.[0] ?? 0), field: issuePath.join("."), message, example: isSection ? undefined : exampleText }];
  }
  return [{ file, ...at(node?.range?.[0] ?? 0), field: issuePath.join("."), message: plainMessage(issue), example: exampleText }];
}

/** zod's own wording ("Invalid input: expected object, received string") for the few checks without an editor-facing message. */
function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.expected === "object") {
    return "This should be a section: nothing after the colon, and its fields on the lines below, indented by 2 more spaces.";
  }
  if (issue.code === "invalid_type" && issue.expected === "array") {
    return 'This should be a list in square brackets, like ["+150", "-110"].';
  }
  return issue.message;
}

/** The node at `issuePath`, or its nearest existing ancestor (`exact: false`). */
function nearestNode(doc: Document, issuePath: string[]): { node: YamlNode | null; exact: boolean } {
  for (let n = issuePath.length; n >= 0; n--) {
    const node = (n === 0 ? doc.contents : doc.getIn(issuePath.slice(0, n), true)) as YamlNode | null | undefined;
    if (node && (isScalar(node) || isMap(node) || "range" in node)) return { node, exact: n === issuePath.length };
  }
  return { node: null, exact: false };
}

/** The key node of `key` in the map at `mapPath`. */
function findKeyNode(doc: Document, mapPath: string[], key: string): YamlNode | null {
  const map = mapPath.length ? doc.getIn(mapPath, true) : doc.contents;
  if (!isMap(map)) return null;
  const pair = map.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : null;
}

/** Unwrap optional/nullable/default/pipe wrappers to reach the schema that carries meta and shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    const def = (current as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else return current;
  }
}

/** The schema of the field at `fieldPath`, if the path exists in the model. */
function schemaAt(fieldPath: string[], root: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const key of fieldPath) {
    if (!current) return undefined;
    const inner = unwrap(current);
    if (inner instanceof z.ZodObject) current = inner.shape[key] as z.ZodType | undefined;
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else return undefined;
  }
  return current;
}

function shapeAt(fieldPath: string[], root: z.ZodType): Record<string, unknown> | undefined {
  const schema = schemaAt(fieldPath, root);
  const inner = schema && unwrap(schema);
  return inner instanceof z.ZodObject ? inner.shape : undefined;
}

/** The first example the schema gives for the field at `fieldPath`. */
function exampleFor(fieldPath: string[], root: z.ZodType): unknown {
  let current = schemaAt(fieldPath, root);
  while (current) {
    const examples = current.meta()?.examples as unknown[] | undefined;
    if (examples?.length) return examples[0];
    const def = (current as unknown as { def: { innerType?: z.ZodType; in?: z.ZodType } }).def;
    current = def.innerType ?? def.in;
  }
  return undefined;
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
 * Format errors as GitHub Actions workflow commands, one line per error:
 * `::error file=content/site.yaml,line=L,col=C,title=field::message`, so that a pull
 * request shows each mistake on its line. The example goes on the message's second line.
 * @param errors from loadContentFile
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
