/**
 * The referral program's two identifiers: a referral code (what a referral link carries; unique, not a secret) and a
 * status token (the secret of a status link, stored only as a SHA-256 hash, so a leaked database gives no link away).
 * Neither carries personal data, or can be derived from an address or from the other.
 */
import { customAlphabet, nanoid } from "nanoid";

/**
 * The characters of a referral code: digits and Latin letters without the look-alikes 0/O/o and 1/I/l, so a code read
 * aloud or copied from a screenshot comes out right. Case matters. migrations/0002_referrals.sql holds a copy.
 */
export const REFERRAL_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";

/**
 * Characters in a referral code: enough codes that a guessed one finds nobody. Two people can still draw the same
 * code, so the INSERT that stores a code must draw again when the UNIQUE index refuses it.
 */
export const REFERRAL_CODE_LENGTH = 8;

/** A well-formed referral code (checked before any lookup, so junk never reaches D1). */
export const REFERRAL_CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/** Characters in a status token: 6 random bits each (nanoid's URL-safe alphabet), 192 bits, over the 128 a secret link needs. */
export const STATUS_TOKEN_LENGTH = 32;

/** A well-formed status token (nanoid's URL-safe alphabet). */
export const STATUS_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${STATUS_TOKEN_LENGTH}}$`);

/**
 * A new random referral code: REFERRAL_CODE_LENGTH characters of REFERRAL_CODE_ALPHABET, from the platform's
 * cryptographic random source (nanoid's customAlphabet, without modulo bias).
 */
export const newReferralCode: () => string = customAlphabet(REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH);

/** A new random status token, for the status link only; never stored. */
export function newStatusToken(): string {
  return nanoid(STATUS_TOKEN_LENGTH);
}

/**
 * What the database stores for a status token: its SHA-256 digest, 64 lower-case hex characters. Not salted: the
 * token is random enough that no table of guesses can reach it, and an unsalted digest lets a lookup find the row
 * through the UNIQUE index on status_token_hash. Web Crypto, so the Worker and Node alike.
 */
export async function hashStatusToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
