/** What referrals are worth and the leaderboard's masked names (worker/src/referrals/standing.ts). */
import { test, describe, expect } from "vitest";
import { passesDisplayCheck } from "../../worker/src/referrals/display-check";
import { LEADERBOARD_FIRST_NAME_MAX_CHARACTERS, entriesOf, leaderboardName, scoreOf } from "../../worker/src/referrals/standing";

describe("scoreOf", () => {
  test("is the signup order less placesPerReferral places per counted referral", () => {
    expect(scoreOf(412, 0, 10)).toBe(412);
    expect(scoreOf(412, 3, 10)).toBe(382);
    expect(scoreOf(5, 3, 10)).toBe(-25);
    expect(scoreOf(5, 3, 0)).toBe(5);
  });

  test("refuses counts that are not whole and non-negative", () => {
    expect(() => scoreOf(0, 0, 10)).toThrow(RangeError);
    expect(() => scoreOf(1, -1, 10)).toThrow(RangeError);
    expect(() => scoreOf(1, 1, 2.5)).toThrow(RangeError);
    expect(() => scoreOf(1, 1, Number.NaN)).toThrow(RangeError);
  });
});

describe("entriesOf", () => {
  test("is one entry for joining plus entriesPerReferral per counted referral", () => {
    expect(entriesOf(0, 1)).toBe(1);
    expect(entriesOf(3, 1)).toBe(4);
    expect(entriesOf(3, 5)).toBe(16);
    expect(entriesOf(3, 0)).toBe(1);
  });

  test("refuses counts that are not whole and non-negative", () => {
    expect(() => entriesOf(-1, 1)).toThrow(RangeError);
    expect(() => entriesOf(1, 0.5)).toThrow(RangeError);
  });
});

describe("leaderboardName", () => {
  test('shows the first name and the last initial: "Jordan S."', () => {
    expect(leaderboardName("Jordan", "Smith")).toBe("Jordan S.");
    expect(leaderboardName("Mary Ann", "de la Cruz")).toBe("Mary Ann D.");
    expect(leaderboardName("Seán", "Ó Briain")).toBe("Seán Ó.");
    expect(leaderboardName("Ana", "o'brien")).toBe("Ana O.");
    expect(leaderboardName("Gerard", "'t Hooft")).toBe("Gerard T.");
    expect(leaderboardName("陽翔", "佐藤")).toBe("陽翔 佐.");
  });

  test("never shows an e-mail address or a link typed as a first name: its initial only", () => {
    expect(leaderboardName("jordan@example.com", "Smith")).toBe("J.");
    expect(leaderboardName("https://spam.example", "Smith")).toBe("H.");
    expect(leaderboardName("www.spam.example", "Smith")).toBe("W.");
    expect(leaderboardName("jordan@example.com", "")).toBe("J.");
    expect(leaderboardName("@@", "Smith")).toBe("S.");
    expect(leaderboardName("@@", "")).toBeNull();
  });

  test('a first name that fails the display check is its initial only: "t.me/scam S." is "T."', () => {
    expect(leaderboardName("t.me/scam", "Smith")).toBe("T.");
    expect(leaderboardName("Claim $500 at pickfund-bonus", "Smith")).toBe("C.");
    expect(leaderboardName("Shithead", "Smith")).toBe("S.");
    expect(leaderboardName("ｔ．ｍｅ／ｓｃａｍ", "Smith")).toBe("Ｔ.");
  });

  test("copes with empty, blank and odd names", () => {
    expect(leaderboardName("", "")).toBeNull();
    expect(leaderboardName("   ", "\t")).toBeNull();
    expect(leaderboardName("Jordan", "")).toBe("Jordan");
    expect(leaderboardName("Jordan", "123 -")).toBe("Jordan");
    expect(leaderboardName("", "Smith")).toBe("S.");
    expect(leaderboardName("  Jordan \n  Lee ", "Smith")).toBe("Jordan Lee S.");
  });

  test("drops invisible characters and text-direction overrides", () => {
    expect(leaderboardName("Jor\u200bdan\u202e", "\u200bSmith")).toBe("Jordan S.");
    expect(leaderboardName("\u0000\u0007", "Smith")).toBe("S.");
  });

  test("cuts a long first name without splitting a character", () => {
    const long = "Bartholomew-Maximilian-Alexander";
    expect(leaderboardName(long, "Smith")).toBe(`${long.slice(0, LEADERBOARD_FIRST_NAME_MAX_CHARACTERS - 1)}… S.`);
    const emoji = "👩🏽‍💻".repeat(30);
    expect(leaderboardName(emoji, "Smith")).toBe(`${"👩🏽‍💻".repeat(LEADERBOARD_FIRST_NAME_MAX_CHARACTERS - 1)}… S.`);
  });
});

describe("passesDisplayCheck", () => {
  test("passes first names as people write them, in any script", () => {
    for (const name of ["Jordan", "Mary Ann", "Mary-Ann", "Zoë", "Seán", "D'Angelo", "陽翔", "Владимир", "Cassandra", "Hancock", "Sexton"])
      expect([name, passesDisplayCheck(name)]).toEqual([name, true]);
  });

  test("fails a dot or a slash, also as a look-alike: links and handles", () => {
    for (const name of ["t.me/scam", "bit.ly", "Jordan.", "a/b", "back\\slash", "t。me", "t｡me", "t․me", "a⁄b", "a∕b", "ｔ．ｍｅ"])
      expect([name, passesDisplayCheck(name)]).toEqual([name, false]);
  });

  test("fails a run of two or more digits (a phone number, an amount), in any script; one digit passes", () => {
    for (const name of ["Win 500", "J0hn555", "0612345678", "٣٣"]) expect([name, passesDisplayCheck(name)]).toEqual([name, false]);
    expect(passesDisplayCheck("Louis 1")).toBe(true);
  });

  test("fails an address or a scheme", () => {
    expect(passesDisplayCheck("ann@example")).toBe(false);
    expect(passesDisplayCheck("mailto:ann")).toBe(false);
  });

  test("fails words of the profanity list, also in leetspeak and full-width letters", () => {
    for (const name of ["Shithead", "fuck", "f4ck", "FUCK", "ｆｕｃｋ", "Big Dick"])
      expect([name, passesDisplayCheck(name)]).toEqual([name, false]);
  });
});
