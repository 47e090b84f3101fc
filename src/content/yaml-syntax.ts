/** YAML syntax mistakes as one plain-English error per mistake, on the line the editor must change. Build-time only. */
import { LineCounter, parseDocument, type Document, type YAMLError } from "yaml";
import type { ContentError, Locate } from "./content-error";

/** Plain-English explanations of the `yaml` package's error codes. */
const YAML_ERROR_TEXT: Record<string, string> = {
  TAB_AS_INDENT:
    "A tab character is used to indent this line. YAML only allows spaces for indentation: replace the tab with spaces (2 per level).",
  BAD_INDENT:
    "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces.",
  BAD_DQ_ESCAPE: "This text in double quotes has a backslash that YAML does not understand. Remove it, or use single quotes.",
  UNEXPECTED_TOKEN: "YAML did not expect this character here. Check for a missing quote, colon or dash, or text that needs quotes.",
  BAD_SCALAR_START: "This value starts with a character that needs quotes (like @ or `). Put the whole value in quotes.",
  IMPOSSIBLE: "YAML cannot read this part of the file. Check the quotes and indentation on this line.",
};

/**
 * Parse YAML text, keeping line positions.
 * @param display the file's name as messages show it
 * @returns the document and `at` (offset → line and column), or every syntax mistake, explained and sorted by line
 */
export function readYaml(text: string, display: string): { ok: true; doc: Document; at: Locate } | { ok: false; errors: ContentError[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: describeSyntaxMistakes(text, doc.errors, lineCounter).map((error) => ({ file: display, ...error })) };
  }
  const at: Locate = (offset) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return { ok: true, doc, at };
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
      if (/(^|[:\-[,{]\s*|^\s*)$/.test(before) && !/#/.test(before)) return i;
    }
  }
  return null;
}

/** A YAML syntax error, located and explained (the file name is added by the caller). */
type SyntaxMistake = Omit<ContentError, "file">;

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
function describeSyntaxMistakes(text: string, errors: readonly YAMLError[], lineCounter: LineCounter): SyntaxMistake[] {
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
            !(
              error.code === "BLOCK_AS_IMPLICIT_KEY" &&
              errors.some((other) => other.code === "MULTILINE_IMPLICIT_KEY" && other.pos[0] === error.pos[0] && spansLines(other))
            ) &&
            // A badly indented line also breaks the key/value reading of that same line: one mistake.
            !(
              (error.code === "BLOCK_AS_IMPLICIT_KEY" || error.code === "MULTILINE_IMPLICIT_KEY") &&
              badIndentLines.has(pos(error.pos[0]).line)
            ),
        );
  const found: SyntaxMistake[] = [];
  for (const error of relevant) {
    const start = pos(error.pos[0]);
    const end = pos(error.pos[1]);
    let located: SyntaxMistake;
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
            'This value contains a colon followed by a space, which YAML reads as the start of another field. Put the whole value in double quotes, like "Join now: get funded".',
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
      located = {
        ...start,
        field: "",
        message: YAML_ERROR_TEXT[error.code] ?? `YAML could not read this: ${error.message.split("\n")[0]}`,
      };
    }
    // One mistake often yields several reports on the same line: keep the first.
    if (!found.some((f) => f.line === located.line)) found.push(located);
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** `name:value` with no space after the colon (URLs have `: ` before their `://`, so they never match). */
const MISSING_SPACE_AFTER_COLON = /^\s*[A-Za-z0-9_-]+:[^\s/]/;
