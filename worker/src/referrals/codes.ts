/**
 * The two identifiers every person on the list gets from the referral program:
 * - a referral code, what their referral link carries (`/?ref=CODE`): short, unique, not a secret, but drawn from
 *   enough codes that guessing finds nobody;
 * - a status token, the secret in their status link (the page that shows their standing): at least 128 random bits,
 *   of which the service stores only a SHA-256 hash, so a leaked database gives no one's link away.
 * Neither carries personal data, and neither can be derived from an address or from the other.
 */
import { customAlphabet, nanoid } from "nanoid";

/**
 * The characters of a referral code: digits and Latin letters without the look-alikes 0/O/o and 1/I/l, so a code read
 * aloud or copied by hand from a screenshot comes out right. 56 characters. Case matters (`k` and `K` are different).
 * migrations/0002_referrals.sql draws the codes of rows stored before it from the same characters.
 */
export const REFERRAL_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";

/**
 * Characters in a referral code. 56^8 ≈ 9.7 × 10^13 codes: with a million people on the list, a guessed code finds
 * someone about once in 97 million tries. Two people drawing the same code is still possible (about 1 in 200 over a
 * million signups), so the INSERT that stores a code must draw again when the UNIQUE index refuses it.
 */
export const REFERRAL_CODE_LENGTH = 8;

/** A well-formed referral code (checked before any lookup, so junk never reaches D1). */
export const REFERRAL_CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/**
 * Characters in a status token: nanoid's URL-safe alphabet of 64 characters carries 6 bits each, so 32 characters are
 * 192 random bits (the referral program asks for at least 128).
 */
export const STATUS_TOKEN_LENGTH = 32;

/** A well-formed status token (nanoid's URL-safe alphabet: A–Z, a–z, 0–9, `_` and `-`). */
export const STATUS_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${STATUS_TOKEN_LENGTH}}$`);

/**
 * A new random referral code: REFERRAL_CODE_LENGTH characters of REFERRAL_CODE_ALPHABET, from the platform's
 * cryptographic random source (nanoid's customAlphabet, without modulo bias).
 */
export const newReferralCode: () => string = customAlphabet(REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH);

/** A new random status token: STATUS_TOKEN_LENGTH URL-safe characters (192 bits), for the status link only, never stored. */
export function newStatusToken(): string {
  return nanoid(STATUS_TOKEN_LENGTH);
}

/**
 * What the database stores for a status token: its SHA-256 digest, 64 lower-case hex characters. Not salted: the
 * token has 192 random bits, so no table of guesses can reach it, and an unsalted digest lets a lookup find the row
 * through the UNIQUE index on status_token_hash.
 * @param token a status token (newStatusToken())
 * @returns the hex digest (Web Crypto's crypto.subtle, in the Worker and in Node alike)
 */
export async function hashStatusToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
