/**
 * The giveaway draw's pseudonym rule, apart from the draw file (draw-file.ts re-exports it) so that the
 * /giveaway/draw/ page, which only finds a visitor's pseudonym, does not load the file's canonical list and writer.
 */
import { sha256, toHex } from "./bytes";

/** Hex characters of a pseudonym (64 bits: collisions among even a million entrants are vanishingly rare). */
export const PSEUDONYM_HEX_CHARS = 16;

/**
 * A person's pseudonym in a draw: the first 16 hex characters of sha256("<draw id>:<referral code>") in UTF-8, so a
 * person recomputes their own from their referral code (`printf '%s' 'launch:AbCd2345' | sha256sum | cut -c1-16`),
 * nobody learns a name or an address, and pseudonyms of different draws cannot be matched up.
 */
export async function pseudonymOf(drawId: string, referralCode: string): Promise<string> {
  return toHex(await sha256(`${drawId}:${referralCode}`)).slice(0, PSEUDONYM_HEX_CHARS);
}
