/** Turns each zod issue into plain-English errors at the field's line and column in the YAML. Build-time only. */
import { closest, distance } from "fastest-levenshtein";
import { isMap, isPair, isScalar, type Document, type Node as YamlNode } from "yaml";
import type { z } from "zod";
import type { ContentError, Locate } from "./content-error";
import { exampleFor, shapeAt } from "./schema-introspection";

/**
 * A field reported as missing next to an unknown key that is a near miss of it
 * (`titel` beside a missing `title`) is one mistake, not two: keep only the
 * unknown-key report, which names the right spelling.
 */
export function withoutMisspelledFields(issues: readonly z.core.$ZodIssue[], root: z.ZodType): z.core.$ZodIssue[] {
  const misspelled = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = Object.keys(shapeAt(issue.path.map(String), root) ?? {});
    for (const key of issue.keys) {
      const suggestion = nearMiss(key, known);
      if (suggestion) misspelled.add([...issue.path.map(String), suggestion].join("."));
    }
  }
  return issues.filter(
    (issue) => !(issue.code === "invalid_type" && issue.input === undefined && misspelled.has(issue.path.map(String).join("."))),
  );
}

/** The known key `key` is probably a misspelling of, if any. */
function nearMiss(key: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const suggestion = closest(key, known);
  const limit = Math.max(2, Math.floor(suggestion.length / 3));
  return distance(key.toLowerCase(), suggestion.toLowerCase()) <= limit ? suggestion : undefined;
}

/** Turn one zod issue into one or more located, plain-English errors. */
export function describeIssue(issue: z.core.$ZodIssue, doc: Document, file: string, at: Locate, root: z.ZodType): ContentError[] {
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
    return [
      {
        file,
        ...at((parentKey ?? node)?.range?.[0] ?? 0),
        field: issuePath.join("."),
        message,
        example: isSection ? undefined : exampleText,
      },
    ];
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
export function findKeyNode(doc: Document, mapPath: string[], key: string): YamlNode | null {
  const map = mapPath.length ? doc.getIn(mapPath, true) : doc.contents;
  if (!isMap(map)) return null;
  const pair = map.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : null;
}
