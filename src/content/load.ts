/**
 * Reads, parses and validates a content file, and explains every mistake in it
 * with file, line, column, the field's path, what was expected and an example.
 *
 * Build-time only (used by gatsby-node.ts and scripts/check-content.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from "yaml";
import { z } from "zod";
import { siteContentSchema, type SiteContent } from "./schema";

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

/** Plain-English explanations of the `yaml` package's error codes. */
const YAML_ERROR_TEXT: Record<string, string> = {
  TAB_AS_INDENT:
    "A tab character is used to indent this line. YAML only allows spaces for indentation: replace the tab with spaces (2 per level).",
  BAD_INDENT: "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces.",
  DUPLICATE_KEY: "This field appears twice in the same section. Keep only one of them.",
  MISSING_CHAR: "A quote that opens here is never closed. Add the matching closing quote at the end of the text.",
  BAD_DQ_ESCAPE: "This text in double quotes has a backslash that YAML does not understand. Remove it, or use single quotes.",
  MULTILINE_IMPLICIT_KEY: "A field name and its value must be on one line. Check for a missing colon or quote on this line.",
  BLOCK_AS_IMPLICIT_KEY: "YAML could not tell where this field's name ends. Check that it has the form `name: value` with a space after the colon.",
  UNEXPECTED_TOKEN: "YAML did not expect this character here. Check for a missing quote, colon or dash, or text that needs quotes.",
  BAD_SCALAR_START: "This value starts with a character that needs quotes (like @ or `). Put the whole value in quotes.",
  IMPOSSIBLE: "YAML cannot read this part of the file. Check the quotes and indentation on this line.",
};

/**
 * Validate a content file.
 * @param file path of the YAML file (absolute or relative to the working directory)
 * @param source the file's text; read from `file` when omitted
 * @returns the validated content, or every error found in one pass
 * @throws only when the file cannot be read (the error names the file)
 */
export function loadContentFile(file: string, source?: string): ContentResult {
  const text = source ?? readFileSync(file, "utf8");
  const display = path.relative(process.cwd(), path.resolve(file)) || file;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };

  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((error) => ({
        file: display,
        ...at(unclosedQuoteStart(text, error.code, error.pos[0]) ?? error.pos[0]),
        field: "",
        message: YAML_ERROR_TEXT[error.code] ?? `YAML could not read this: ${error.message.split("\n")[0]}`,
      })),
    };
  }

  const parsed = siteContentSchema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return { ok: true, content: parsed.data };

  const errors = parsed.error.issues.flatMap((issue) => describeIssue(issue, doc, display, at));
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, errors };
}

/**
 * The `yaml` package reports an unclosed quote where the file (or line) ends;
 * editors need the line where the quote opens, so walk back to it.
 */
function unclosedQuoteStart(text: string, code: string, offset: number): number | null {
  if (code !== "MISSING_CHAR") return null;
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

/** Turn one zod issue into one or more located, plain-English errors. */
function describeIssue(
  issue: z.core.$ZodIssue,
  doc: Document,
  file: string,
  at: (offset: number) => { line: number; column: number },
): ContentError[] {
  const issuePath = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const known = Object.keys(shapeAt(issuePath) ?? {});
    return issue.keys.map((key) => {
      const keyNode = findKeyNode(doc, issuePath, key);
      const suggestion = known.length ? closest(key, known) : undefined;
      const near = suggestion !== undefined && distance(key, suggestion) <= Math.max(2, Math.floor(suggestion.length / 3));
      return {
        file,
        ...at(keyNode?.range?.[0] ?? 0),
        field: [...issuePath, key].join("."),
        message: near
          ? `\`${key}\` is not a field here. Did you mean \`${suggestion}\`?`
          : `\`${key}\` is not a field here. The fields here are: ${known.join(", ")}.`,
      };
    });
  }
  const { node, exact } = nearestNode(doc, issuePath);
  const example = exampleFor(issuePath);
  let message = issue.message;
  if (!exact) message = `The field \`${issuePath[issuePath.length - 1]}\` is missing here. ${message === "This text is missing." ? "" : message}`.trim();
  return [
    {
      file,
      ...at(node?.range?.[0] ?? 0),
      field: issuePath.join("."),
      message,
      example: example === undefined ? undefined : `${issuePath[issuePath.length - 1]}: ${JSON.stringify(example)}`,
    },
  ];
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
function schemaAt(fieldPath: string[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = siteContentSchema;
  for (const key of fieldPath) {
    if (!current) return undefined;
    const inner = unwrap(current);
    if (inner instanceof z.ZodObject) current = inner.shape[key] as z.ZodType | undefined;
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else return undefined;
  }
  return current;
}

function shapeAt(fieldPath: string[]): Record<string, unknown> | undefined {
  const schema = schemaAt(fieldPath);
  const inner = schema && unwrap(schema);
  return inner instanceof z.ZodObject ? inner.shape : undefined;
}

/** The first example the schema gives for the field at `fieldPath`. */
function exampleFor(fieldPath: string[]): unknown {
  let current = schemaAt(fieldPath);
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
  return `Found ${count} in the content file:\n\n${blocks.join("\n\n")}\n`;
}
