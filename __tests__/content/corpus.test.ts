/**
 * The broken-content corpus (corpus.ts): each case must be refused with exactly one error, at the line
 * and column the editor has to change, in the case's words. The wording is part of the product.
 */
import path from "node:path";
import { formatContentErrors, loadContentFile, type ContentError } from "../../src/content/load";
import { BROKEN_CASES, brokenCase, brokenFile, multipleFile, type BrokenCase, type MultipleCaseName } from "./corpus";

/** Where the files would be: only the name shown in messages (nothing is written). */
const shownAs = (name: string) => path.join(__dirname, "broken", `${name}.yaml`);

/** Load a corpus text and return its errors (fails the test when the text is accepted). */
function errorsOf(name: string, text: string): ContentError[] {
  const result = loadContentFile(shownAs(name), text);
  if (result.ok) throw new Error(`${name} was accepted, but it is broken on purpose`);
  return result.errors;
}

const brokenErrors = (name: string) => errorsOf(name, brokenFile(brokenCase(name)).text);
const multipleErrors = (name: MultipleCaseName) => errorsOf(name, multipleFile(name).text);

describe("broken content corpus", () => {
  it("has every case once, each with its own mistake", () => {
    const names = BROKEN_CASES.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(43);
  });

  it.each(BROKEN_CASES.map((testCase) => [testCase.name, testCase] as const))(
    "%s: refused once, at its line and column, naming the field, in its words",
    (name, testCase: BrokenCase) => {
      const { text, line } = brokenFile(testCase);
      const errors = errorsOf(name, text);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toEqual({
        file: path.relative(process.cwd(), shownAs(name)),
        line,
        column: testCase.column,
        field: testCase.field,
        message: testCase.message,
        ...(errors[0].example === undefined ? {} : { example: errors[0].example }),
      });
    },
  );

  it("quotes an example of a valid value for single-field mistakes, none for syntax errors, unknown keys or missing sections", () => {
    const expected: Record<string, string | undefined> = {
      "date-bare": 'moment: "2025-10-13T15:00:00-08:00"',
      "private-key": 'publicApiKey: "Pk7Fnd"',
      "pixel-unquoted-number": 'id: "123456789012345"',
      "missing-field": 'tagline: "Join thousands of sports pickers & get funded."',
      "wrong-type-boolean-in-quotes": "demoMode: false",
      "odds-empty": 'odds: ["+150","-110","2.50"]',
      // Syntax errors, unknown keys and whole missing sections have no single value to show.
      "syntax-unclosed-quote": undefined,
      "unknown-key-near-miss": undefined,
      "missing-section": undefined,
    };
    for (const [name, example] of Object.entries(expected)) {
      expect([name, brokenErrors(name)[0].example]).toEqual([name, example]);
    }
  });
});

describe("several mistakes in one file", () => {
  it("reports every schema mistake in one run, in file order", () => {
    const { changedLines } = multipleFile("three-schema-mistakes");
    const errors = multipleErrors("three-schema-mistakes");
    expect(errors.map(({ line, column, field }) => [line, column, field])).toEqual([
      [changedLines[0], 17, "provider.publicApiKey"],
      [changedLines[1], 10, "links.social.url"],
      [changedLines[2], 12, "success.subtext"],
    ]);
    expect(errors[0].message).toMatch(
      /^This looks like a Klaviyo PRIVATE API key \(it starts with pk_\)\. Everything in this file is published to every visitor/,
    );
  });

  it("reports every YAML syntax mistake in one run", () => {
    const { changedLines } = multipleFile("two-syntax-mistakes");
    const errors = multipleErrors("two-syntax-mistakes");
    expect(errors.map(({ line, column, message }) => [line, column, message])).toEqual([
      [changedLines[0], 3, "`button` appears twice in the same section. Keep only one of them (YAML would silently use just one)."],
      [changedLines[1], 9, "A quote that opens here is never closed. Add the matching closing quote at the end of the text."],
    ]);
  });

  it("formats them as file:line:column, field, message and example, with a count", () => {
    const shown = path.relative(process.cwd(), shownAs("three-schema-mistakes"));
    const text = formatContentErrors(multipleErrors("three-schema-mistakes"));
    expect(text.split("\n").slice(0, 2)).toEqual(["Found 3 mistakes in the content file:", ""]);
    expect(text).toContain(
      [
        `${shown}:${multipleFile("three-schema-mistakes").changedLines[1]}:10  links.social.url`,
        "  This address starts with http://, which is not encrypted. Use https:// instead.",
        '  Example of a valid value:  url: "https://x.com/pickfund"',
      ].join("\n"),
    );
  });
});
