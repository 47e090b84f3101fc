/**
 * The broken-content corpus: every file in `broken/` is a copy of the fixture with
 * ONE mistake (its first comment lines say which). Each must be refused with
 * exactly one error, at the line and column the editor has to change, naming the
 * field and explaining it in the words below. Changing a message means changing
 * this table: the wording is part of the product.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { formatContentErrors, loadContentFile, type ContentError } from "../../src/content/load";

const BROKEN = path.join(__dirname, "broken");
const MULTIPLE = path.join(__dirname, "multiple");

/** Load a file and return its errors (fails the test when the file is accepted). */
function errorsOf(file: string): ContentError[] {
  const result = loadContentFile(file);
  if (result.ok) throw new Error(`${file} was accepted, but it is broken on purpose`);
  return result.errors;
}

// [file in broken/ without .yaml, line, column, field, message]
const CORPUS: [string, number, number, string, string][] = [
  ["date-bare", 19, 11, "launch.moment", "This is a date without a time. Add the time and the time-zone offset, like 2025-10-13T15:00:00-08:00."],
  ["date-impossible", 19, 11, "launch.moment", "This date or time does not exist in the calendar (check the month, day and hour)."],
  ["date-space-instead-of-t", 19, 11, "launch.moment", "Write a T between the date and the time, with no space, and end with the time-zone offset, like 2025-10-13T15:00:00-08:00."],
  ["date-without-offset", 19, 11, "launch.moment", "This time has no time-zone offset, so the countdown would be wrong for visitors in other time zones. Add the offset at the end, like -08:00 for Pacific time or Z for UTC."],
  ["date-words", 19, 11, "launch.moment", "This is not a date and time in the expected form YYYY-MM-DDTHH:MM:SS±HH:MM."],
  ["empty-string", 104, 12, "success.subtext", "This text is empty. Every text shown on the page needs words."],
  ["invite-discord-channel", 28, 21, "links.discordInviteUrl", "This is not a Discord invite link. Invite links look like https://discord.gg/CODE or https://discord.com/invite/CODE (Discord: Server → Invite People → Copy)."],
  ["invite-not-discord", 29, 27, "links.inlineDiscordInviteUrl", "This is not a Discord invite link. Invite links look like https://discord.gg/CODE or https://discord.com/invite/CODE (Discord: Server → Invite People → Copy)."],
  ["language-code", 6, 13, "site.language", "Use a language code like en or en-US."],
  ["list-id-format", 24, 11, "provider.listId", "A Klaviyo list id is exactly 6 letters or digits, with no spaces."],
  ["logo-path", 10, 10, "site.logo.src", "This must be the path of a file in the static folder, starting with a slash, like /logo.svg."],
  ["missing-endpoint", 21, 1, "provider.endpointUrl", "The field `endpointUrl` is missing from `provider`. Add it on its own line in that section."],
  ["missing-field", 39, 1, "home.tagline", "The field `tagline` is missing from `home`. Add it on its own line in that section."],
  ["missing-key-and-list-without-demo", 21, 1, "provider.publicApiKey", "Signups need both publicApiKey and listId; without them every signup would be thrown away. Add both, or set demoMode: true to publish a demo that collects nothing."],
  ["missing-section", 4, 1, "consent", "The section `consent` is missing. Add it back with its fields: message, accept, decline."],
  ["missing-value", 105, 10, "success.button", "This field has no text after its colon. Write the text, or put it in quotes."],
  ["odds-empty", 124, 9, "decorations.odds", "Give at least one odds number."],
  ["pixel-letters", 37, 7, "adPixel.id", "A pixel id is digits only, like \"123456789012345\"."],
  ["pixel-unquoted-number", 37, 7, "adPixel.id", "Put the pixel id in quotes so it is read as text, not as a number."],
  ["private-key", 23, 17, "provider.publicApiKey", "This looks like a Klaviyo PRIVATE API key (it starts with pk_). Everything in this file is published to every visitor, so a private key here would let anyone control your Klaviyo account. Use the 6-character PUBLIC API key (Klaviyo: Settings → API keys → Public API key / Site ID), and revoke this private key in Klaviyo."],
  ["public-key-format", 23, 17, "provider.publicApiKey", "A Klaviyo public API key is exactly 6 letters or digits, with no spaces."],
  ["syntax-bad-indent", 104, 4, "", "This line is indented differently from the field above it, so it is read as part of the value above. Start it in the same column as the other fields of its section (2 spaces per level)."],
  ["syntax-dedent", 104, 2, "", "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces."],
  ["syntax-duplicate-key", 42, 3, "", "`title` appears twice in the same section. Keep only one of them (YAML would silently use just one)."],
  ["syntax-missing-space-after-colon", 104, 3, "", "There is no space after the colon. Write the field name, a colon, a space, then the value, like `subtext: Get ready`."],
  ["syntax-over-indent", 45, 7, "", "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces."],
  ["syntax-tab-indent", 42, 1, "", "A tab character is used to indent this line. YAML only allows spaces for indentation: replace the tab with spaces (2 per level)."],
  ["syntax-unclosed-quote", 41, 10, "", "A quote that opens here is never closed. Add the matching closing quote at the end of the text."],
  ["syntax-unclosed-list", 124, 9, "", "This list opens with [ but is never closed. Add ] at the end of it, on the same line."],
  ["syntax-unquoted-colon", 42, 12, "", "This value contains a colon followed by a space, which YAML reads as the start of another field. Put the whole value in double quotes, like \"Join now: get funded\"."],
  ["theme-colour", 8, 15, "site.themeColor", "Use a colour in the form #RRGGBB, like #0b1020."],
  ["unknown-key-extra", 42, 3, "home.subtitle", "`subtitle` is not a field in `home`. Remove it, or use one of: pageTitle, title, tagline, countdown, form, privacyNote, badges, inlineSuccess."],
  ["unknown-key-near-miss", 41, 3, "home.titel", "`titel` is not a field in `home`. Did you mean `title`?"],
  ["unknown-section-near-miss", 76, 1, "toast", "`toast` is not a section of this file. Did you mean `toasts`?"],
  ["unknown-section", 123, 1, "footer", "`footer` is not a section of this file. Remove it, or use one of: site, launch, provider, links, adPixel, home, toasts, success, notFound, errorScreen, consent, decorations."],
  ["url-http", 31, 10, "links.social.url", "This address starts with http://, which is not encrypted. Use https:// instead."],
  ["url-javascript", 31, 10, "links.social.url", "A javascript: link runs code instead of opening a page, so it is never allowed. Use a web address starting with https://."],
  ["url-relative", 5, 8, "site.url", "This is not a complete web address. It must start with https:// followed by the site name."],
  ["whitespace-only-string", 61, 13, "home.form.submit", "This text is empty. Every text shown on the page needs words."],
  ["wrong-type-boolean-in-quotes", 25, 13, "provider.demoMode", "Write true or false, without quotes."],
  ["wrong-type-list-for-text", 45, 11, "home.countdown.days", "This should be text. Put it in quotes."],
  ["wrong-type-number-for-text", 109, 9, "notFound.code", "This should be text. Put it in quotes."],
  ["wrong-type-text-for-section", 9, 9, "site.logo", "This should be a section: nothing after the colon, and its fields on the lines below, indented by 2 more spaces."],
];

describe("broken content corpus", () => {
  it("has a row in the table for every file in broken/, and a file for every row", () => {
    const files = readdirSync(BROKEN)
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => name.replace(/\.yaml$/, ""))
      .sort();
    expect(CORPUS.map(([name]) => name).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CORPUS)("%s: refused at line %i, column %i, field %j", (name, line, column, field, message) => {
    const file = path.join(BROKEN, `${name}.yaml`);
    expect(readFileSync(file, "utf8")).toMatch(/^# Broken on purpose .*\n# Mistake: \S/);
    const errors = errorsOf(file);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: path.relative(process.cwd(), file), line, column, field, message });
  });

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
      expect([name, errorsOf(path.join(BROKEN, `${name}.yaml`))[0].example]).toEqual([name, example]);
    }
  });
});

describe("several mistakes in one file", () => {
  it("reports every schema mistake in one run, in file order", () => {
    const errors = errorsOf(path.join(MULTIPLE, "three-schema-mistakes.yaml"));
    expect(errors.map(({ line, column, field }) => [line, column, field])).toEqual([
      [23, 17, "provider.publicApiKey"],
      [31, 10, "links.social.url"],
      [104, 12, "success.subtext"],
    ]);
    expect(errors[0].message).toMatch(/^This looks like a Klaviyo PRIVATE API key \(it starts with pk_\)\. Everything in this file is published to every visitor/);
  });

  it("reports every YAML syntax mistake in one run", () => {
    const errors = errorsOf(path.join(MULTIPLE, "two-syntax-mistakes.yaml"));
    expect(errors.map(({ line, column, message }) => [line, column, message])).toEqual([
      [106, 3, "`button` appears twice in the same section. Keep only one of them (YAML would silently use just one)."],
      [110, 9, "A quote that opens here is never closed. Add the matching closing quote at the end of the text."],
    ]);
  });

  it("formats them as file:line:column, field, message and example, with a count", () => {
    const file = path.join(MULTIPLE, "three-schema-mistakes.yaml");
    const shown = path.relative(process.cwd(), file);
    const text = formatContentErrors(errorsOf(file));
    expect(text.split("\n").slice(0, 2)).toEqual(["Found 3 mistakes in the content file:", ""]);
    expect(text).toContain(
      [
        `${shown}:31:10  links.social.url`,
        "  This address starts with http://, which is not encrypted. Use https:// instead.",
        '  Example of a valid value:  url: "https://x.com/pickfund"',
      ].join("\n"),
    );
  });
});
