/**
 * The giveaway draw's pseudonym rule, apart from the draw file (draw-file.ts re-exports it) so that the
 * /giveaway/draw/ page, which only finds a visitor's pseudonym, does not load the file's canonical list and writer.
 */
import { sha256, toHex } from "./bytes";

/** Hex characters of a pseudonym (64 bits: collisions among even a million entrants are vanishingly rare). */
export const PSEUDONYM_HEX_CHARS = 16;

/**
 * A person's pseudonym in a draw: the first 16 hex characters of sha256("<draw id>:<ticket>") in UTF-8, their ticket
 * being the secret only they see (their status page, their data export), so a person recomputes their own
 * (`printf '%s' 'launch:<ticket>' | sha256sum | cut -c1-16`), nobody who has seen their referral link can, and
 * pseudonyms of different draws cannot be matched up. (A format 1 draw seeded it with the referral code.)
 */
export async function pseudonymOf(drawId: string, ticket: string): Promise<string> {
  return toHex(await sha256(`${drawId}:${ticket}`)).slice(0, PSEUDONYM_HEX_CHARS);
}
