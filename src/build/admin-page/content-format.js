/**
 * The web editor's content YAML format, replacing Decap's, which reads an unquoted `…Z` time as a
 * date, reorders keys, drops blank lines and wraps text. Plain JavaScript loaded unbundled by /admin/
 * and by Node tests, so it receives the `yaml` package instead of importing it.
 *
 * @param {typeof import("yaml")} YAML
 * @param {KeyOrder} order the schema's key order (null for a value)
 * @returns {{ fromFile(text: string): unknown, toFile(data: unknown): string }} a Decap custom format
 */
export function contentFormat(YAML, order) {
  return {
    // The YAML 1.2 core schema, as the build reads it: a date-like text stays text.
    fromFile: (text) => YAML.parse(text),
    toFile: (data) => stringifyContent(YAML, data, order),
  };
}

/**
 * The content as YAML in the one layout both the editor and hand edits use: keys in the
 * schema's order (unknown keys after, as they came), a blank line between top-level
 * sections, lists of plain values on one line, no line wrapping.
 * @param {typeof import("yaml")} YAML
 * @param {unknown} data
 * @param {KeyOrder} order
 * @returns {string}
 */
export function stringifyContent(YAML, data, order) {
  const doc = new YAML.Document(inOrder(data, order));
  if (YAML.isMap(doc.contents)) {
    doc.contents.items.forEach((pair, index) => {
      if (index > 0 && YAML.isScalar(pair.key)) pair.key.spaceBefore = true;
    });
  }
  YAML.visit(doc, {
    Seq(_key, seq) {
      if (seq.items.every((item) => YAML.isScalar(item))) seq.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * @typedef {{ [key: string]: KeyOrder | null }} KeyOrder
 * @param {unknown} value
 * @param {KeyOrder | null | undefined} order
 * @returns {unknown}
 */
function inOrder(value, order) {
  if (!order || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const known = Object.keys(order);
  const keys = Object.keys(value).sort((a, b) => rank(known, a) - rank(known, b));
  return Object.fromEntries(keys.map((key) => [key, inOrder(value[key], order[key])]));
}

/** A key's place in the schema; unknown keys go last (Array.prototype.sort is stable, so they keep their order). */
function rank(known, key) {
  const index = known.indexOf(key);
  return index === -1 ? known.length : index;
}
