/**
 * Whether a first name may be printed on the public leaderboard. A name is free text a stranger typed, so only what
 * reads as a name passes: no dots or slashes (links and handles: "t.me/scam", "bit.ly"), no runs of digits (phone
 * numbers, amounts), no `@` or `:`, and no word of obscenity's English dataset, a maintained profanity list that also
 * sees through leetspeak and look-alike characters. What fails is shown as its initial only (standing.ts).
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";

/** Full stops and slashes, with their look-alikes that survive NFKC (ideographic and halfwidth full stops, one-dot leader, division and fraction slashes). */
const DOT_OR_SLASH = /[./\\\u2024\u3002\uFF61\u2044\u2215]/u;

/** Two digits or more in a row, in any script: no first name has them, a phone number or a prize amount does. */
const DIGIT_RUN = /\p{Nd}{2,}/u;

/** An address or a scheme: "ann@x", "https:". */
const ADDRESS_OR_SCHEME = /[@:]/;

let profanity: RegExpMatcher | null = null;

/** The profanity matcher, built once per isolate on first use (building it compiles the dataset's patterns). */
function profanityMatcher(): RegExpMatcher {
  profanity ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return profanity;
}

/**
 * Whether `name` may be printed as it is on the public leaderboard.
 * @param name a first name, invisible characters already dropped and white space collapsed
 * @returns false for a dot, a slash, a run of digits, an `@` or `:`, or a word of the profanity list (checked on the
 *   NFKC form, so full-width letters are read as letters)
 */
export function passesDisplayCheck(name: string): boolean {
  const text = name.normalize("NFKC");
  if (DOT_OR_SLASH.test(text) || DIGIT_RUN.test(text) || ADDRESS_OR_SCHEME.test(text)) return false;
  return !profanityMatcher().hasMatch(text);
}
