/** Referral codes and status tokens (worker/src/referrals/codes.ts), in workerd, with the Worker's own Web Crypto. */
import { test, expect } from "vitest";
import { createHash } from "node:crypto";
import {
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_CODE_PATTERN,
  STATUS_TOKEN_PATTERN,
  hashStatusToken,
  newReferralCode,
  newStatusToken,
} from "../../worker/src/referrals/codes";

test("a referral code is 8 characters without look-alikes (0, O, o, 1, I, l)", () => {
  expect(REFERRAL_CODE_LENGTH).toBe(8);
  expect(REFERRAL_CODE_ALPHABET).not.toMatch(/[0Oo1Il]/);
  expect(new Set(REFERRAL_CODE_ALPHABET).size).toBe(REFERRAL_CODE_ALPHABET.length);
  const codes = Array.from({ length: 2000 }, () => newReferralCode());
  for (const code of codes) expect(code).toMatch(REFERRAL_CODE_PATTERN);
  expect(new Set(codes).size).toBe(codes.length);
  // Every character of the alphabet is drawn (16,000 draws from 56).
  expect(new Set(codes.join(""))).toEqual(new Set(REFERRAL_CODE_ALPHABET));
});

test("the code pattern refuses anything else before a lookup", () => {
  for (const bad of ["", "ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGl", "ABCD EFG", "ABCDEFG'", "ABCDEFG\n"]) {
    expect(bad).not.toMatch(REFERRAL_CODE_PATTERN);
  }
});

test("a status token carries at least 128 random bits and is never the same twice", () => {
  const tokens = Array.from({ length: 1000 }, () => newStatusToken());
  for (const token of tokens) expect(token).toMatch(STATUS_TOKEN_PATTERN);
  // 64 possible characters (6 bits each) per position.
  expect(tokens[0].length * 6).toBeGreaterThanOrEqual(128);
  expect(new Set(tokens).size).toBe(tokens.length);
});

test("a status token is stored as its SHA-256 digest in hex", async () => {
  const token = newStatusToken();
  const digest = await hashStatusToken(token);
  expect(digest).toBe(createHash("sha256").update(token).digest("hex"));
  expect(digest).toMatch(/^[0-9a-f]{64}$/);
  expect(await hashStatusToken(token)).toBe(digest);
  expect(await hashStatusToken(newStatusToken())).not.toBe(digest);
});
