/**
 * The shared rules on names (shared/validation.ts): what a stranger may write into the brand's Klaviyo profiles and
 * e-mails, and into an operator's terminal. Each test is named after what it prevents, or whom it must not refuse.
 */
import { firstValidationFailure, isAcceptableName } from "../../shared/validation";

describe("a name that is only a name passes", () => {
  it.each([
    "O'Brien",
    "O’Brien",
    "Anne-Marie",
    "José",
    "李",
    "山田 太郎",
    "Nguyễn",
    "Zoë",
    "Ørsted",
    "Ngũgĩ wa Thiong'o",
    "Jean-Luc",
    "St. John",
    "J. R. R.",
    "Jr.",
    "Mary Jane",
    "de la Cruz",
    "محمد",
    "Łukasz",
    "Αλέξανδρος",
    "Smith 3rd",
    "X Æ A-12",
  ])("%s", (name) => {
    expect(isAcceptableName(name)).toBe(true);
  });

  it("emoji pass, with their variation selectors and zero-width-joiner sequences", () => {
    for (const name of ["Sam 🏈", "Lee ⚽️🏀", "👩‍👩‍👧‍👦", "🏳️‍🌈 Alex", "Dev 👨🏽‍💻"]) expect([name, isAcceptableName(name)]).toEqual([name, true]);
  });

  it("a zero-width non-joiner between two letters passes: Persian and Indic names are written with it", () => {
    expect(isAcceptableName("محمد\u200cرضا")).toBe(true);
    expect(isAcceptableName("श्\u200dरी")).toBe(true);
  });
});

describe("a name cannot carry a link into Klaviyo", () => {
  it.each([
    "Claim $500 at https://pickfund-bonus.io",
    "https://x",
    "ftp://files",
    "www.example",
    "WWW.EXAMPLE.COM",
    "pickfund-bonus.io",
    "Visit PICKFUND.IO now",
    "t.me/scam",
    "bit.ly",
    "bücher.de",
    "go to 192.168.0.1",
    "ｗｗｗ．example",
    "pickfund．io",
    "St.John",
  ])("%s is refused", (name) => {
    expect(isAcceptableName(name)).toBe(false);
  });

  it("a zero-width joiner does not hide a link", () => {
    expect(isAcceptableName("pick\u200dfund.io")).toBe(false);
  });
});

describe("a name cannot carry an address or hidden characters", () => {
  it("an @ is refused", () => {
    expect(isAcceptableName("ann@x")).toBe(false);
    expect(isAcceptableName("@ann")).toBe(false);
    expect(isAcceptableName("ann＠x")).toBe(false);
  });

  it("a terminal escape is refused", () => {
    expect(isAcceptableName("\u001b[2K")).toBe(false);
    expect(isAcceptableName("Smith\u001b[2K")).toBe(false);
    expect(isAcceptableName("Smith\u009b2K")).toBe(false);
  });

  it("control characters (NUL, a line break, DEL) are refused", () => {
    for (const character of ["\u0000", "\n", "\r", "\t", "\u007f", "\u2028", "\u2029"])
      expect(isAcceptableName(`Ann${character}Lee`)).toBe(false);
  });

  it("bidirectional overrides and isolates cannot reorder what a reader sees", () => {
    for (const character of ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f"])
      expect(isAcceptableName(`Ann${character}Lee`)).toBe(false);
  });

  it("a zero-width space, a joiner or variation selector outside what it joins, a soft hyphen or a Hangul filler is refused", () => {
    for (const name of [
      "Ann\u200bLee",
      "\u200dAnn",
      "Ann\u200c",
      "An\u00adn",
      "\u3164",
      "Ann \u200c Lee",
      "\ufe0fAnn",
      "Ann \ufe0f",
      "🏈\u200dAnn",
    ])
      expect([name, isAcceptableName(name)]).toEqual([name, false]);
  });
});

describe("the order of the shared rules", () => {
  const valid = { email: "jordan@example.com", firstName: "Jordan", lastName: "Smith" };

  it("an address with no canonical inbox is invalidEmail, as one the pattern refuses", () => {
    expect(firstValidationFailure({ ...valid, email: "jordan@example.com/x" })).toBe("invalidEmail");
    expect(firstValidationFailure({ ...valid, email: '"jordan"@example.com' })).toBe("invalidEmail");
    expect(firstValidationFailure({ ...valid, email: "jor\u200bdan@example.com" })).toBe("invalidEmail");
    expect(firstValidationFailure({ ...valid, email: "jordan@example.com." })).toBeNull();
  });

  it("a first name, then a last name, holding a link is its own failure, after the address", () => {
    expect(firstValidationFailure({ ...valid, firstName: "bonus.io" })).toBe("firstNameInvalid");
    expect(firstValidationFailure({ ...valid, lastName: "\u001b[2K" })).toBe("lastNameInvalid");
    expect(firstValidationFailure({ ...valid, firstName: "bonus.io", lastName: "\u001b[2K" })).toBe("firstNameInvalid");
    expect(firstValidationFailure({ ...valid, email: "x@localhost", firstName: "bonus.io" })).toBe("invalidEmail");
    expect(firstValidationFailure({ ...valid, lastName: "", firstName: "bonus.io" })).toBe("lastNameRequired");
  });
});
