/** Types of content-format.js (plain JavaScript, served to /admin/ as it is). */
import type * as YAML from "yaml";

/** The schema's key order: keys in the schema's order, each with its own fields' order (null for a value). */
export interface KeyOrder {
  [key: string]: KeyOrder | null;
}

/** A Decap CMS custom format that reads and writes content YAML in the schema's layout. */
export function contentFormat(yaml: typeof YAML, order: KeyOrder): { fromFile(text: string): unknown; toFile(data: unknown): string };

/** `data` as YAML: schema key order, a blank line between sections, one-line lists of values, no wrapping. */
export function stringifyContent(yaml: typeof YAML, data: unknown, order: KeyOrder): string;
