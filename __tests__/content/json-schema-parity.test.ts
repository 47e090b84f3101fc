/**
 * content/site.schema.json refuses what check-content refuses wherever a JSON Schema can say it, so editors'
 * VS Code underlines the mistakes the build stops on. Checked with ajv over the broken-content corpus.
 * @jest-environment node
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import { parseDocument } from "yaml";
import { BROKEN_CASES, brokenFile } from "./corpus";

const ROOT = path.join(__dirname, "..", "..");
const schema = JSON.parse(readFileSync(path.join(ROOT, "content", "site.schema.json"), "utf8")) as Record<string, unknown>;

// `patternErrorMessage`, `x-multiline` and `x-developer-only` are annotations for editor tooling; formats ("uri") are
// covered by the patterns, as yaml-language-server does not check every format either.
const ajv = new Ajv2020({
  allErrors: true,
  verbose: true,
  validateFormats: false,
  keywords: ["patternErrorMessage", "x-multiline", "x-developer-only"],
});
const validate = ajv.compile(schema);

/**
 * The corpus cases a JSON Schema cannot catch, and why. Everything else in the corpus
 * must be refused by the JSON Schema too.
 */
const ONLY_CHECK_CONTENT: Record<string, string> = {
  "date-impossible": "30 February matches the date-time pattern; only a calendar knows it does not exist",
  "syntax-duplicate-key":
    "a YAML reader keeps one of the two keys, so the schema sees a valid object (yaml-language-server flags duplicates itself, outside the schema)",
};

/** Files the YAML parser itself refuses: the schema never sees them (the editor's YAML support reports them). */
function isYamlSyntaxError(text: string): boolean {
  return parseDocument(text, { uniqueKeys: false }).errors.length > 0;
}

/** Each corpus case's file text, by name. */
const texts = new Map(BROKEN_CASES.map((testCase) => [testCase.name, brokenFile(testCase).text]));
const files = [...texts.keys()].sort();
const textOf = (name: string) => texts.get(name) ?? "";

/** The schema's verdict on a corpus file: its errors, or [] when it accepts the file. */
function schemaErrors(name: string): ErrorObject[] {
  const data: unknown = parseDocument(textOf(name), { uniqueKeys: false }).toJS();
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

describe("JSON Schema parity with check-content (ajv over the broken-content corpus)", () => {
  const schemaCases = files.filter((name) => !isYamlSyntaxError(textOf(name)));

  it("accepts the real content and the test fixture", () => {
    for (const file of ["content/site.yaml", "__tests__/fixtures/site.yaml"]) {
      const data: unknown = parseDocument(readFileSync(path.join(ROOT, file), "utf8")).toJS();
      expect([file, validate(data), validate.errors]).toEqual([file, true, null]);
    }
  });

  it.each(schemaCases.filter((name) => !(name in ONLY_CHECK_CONTENT)))("refuses %s, as check-content does", (name) => {
    expect(schemaErrors(name)).not.toEqual([]);
  });

  it("leaves YAML syntax mistakes to the YAML reader: a schema only sees a file that parses", () => {
    expect(files.filter((name) => !schemaCases.includes(name))).toEqual([
      "syntax-bad-indent",
      "syntax-dedent",
      "syntax-missing-space-after-colon",
      "syntax-over-indent",
      "syntax-tab-indent",
      "syntax-unclosed-list",
      "syntax-unclosed-quote",
      "syntax-unquoted-colon",
    ]);
  });

  it.each(Object.keys(ONLY_CHECK_CONTENT))("%s is caught by check-content only (the list stays true)", (name) => {
    expect(files).toContain(name);
    expect(schemaErrors(name)).toEqual([]);
  });

  it("explains every failed pattern in plain English (patternErrorMessage), never with the regular expression alone", () => {
    const patternErrors = schemaCases.flatMap((name) =>
      schemaErrors(name)
        .filter((error) => error.keyword === "pattern")
        .map((error) => [name, error] as const),
    );
    expect(patternErrors.length).toBeGreaterThan(10);
    for (const [name, error] of patternErrors) {
      expect([name, error.instancePath, (error.parentSchema as { patternErrorMessage?: string }).patternErrorMessage]).toEqual([
        name,
        error.instancePath,
        expect.stringMatching(/^[A-Z].+\.$/),
      ]);
    }
  });

  it("gives every pattern in the schema a patternErrorMessage", () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === "string" && typeof record.patternErrorMessage !== "string") missing.push(at);
      for (const [key, child] of Object.entries(record)) walk(child, `${at}/${key}`);
    };
    walk(schema, "#");
    expect(missing).toEqual([]);
  });

  it("refuses a private key, blank text, a non-https address and a launch moment without offset, as editors hit them", () => {
    const base = parseDocument(readFileSync(path.join(ROOT, "content", "site.yaml"), "utf8")).toJS() as Record<
      string,
      Record<string, unknown>
    >;
    const withChange = (section: string, field: string, value: unknown) => ({ ...base, [section]: { ...base[section], [field]: value } });
    expect(validate(withChange("provider", "publicApiKey", "pk_abcdefghijklmnopqrstuvwxyz12"))).toBe(false);
    expect(validate(withChange("home", "title", "   "))).toBe(false);
    expect(validate(withChange("site", "url", "ftp://pickfund.example"))).toBe(false);
    expect(validate(withChange("launch", "moment", "2030-06-01T12:00:00"))).toBe(false);
    expect(validate(withChange("launch", "moment", "2030-06-01T19:00:00Z"))).toBe(true);
    // An emptied optional field means "none" (the web editor writes "" when a field is cleared).
    expect(validate({ ...base, adPixel: { id: "" } })).toBe(true);
  });
});
