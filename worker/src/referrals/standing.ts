/**
 * What a person's referrals are worth, and the name the public leaderboard may show. Pure: the rules' numbers come
 * from the content (`referrals` in content/site.yaml), passed in by the caller.
 */
import { passesDisplayCheck } from "./display-check";

/**
 * A person's score in line: `seq − placesPerReferral × referrals`; smaller goes first (store/rank.ts keeps the same
 * rule in SQL).
 * @param seq signup order, 1 … N
 * @param placesPerReferral places a counted referral moves a person up
 * @throws RangeError when an argument is not a non-negative safe integer (seq at least 1)
 */
export function scoreOf(seq: number, referrals: number, placesPerReferral: number): number {
  requireCount("seq", seq, 1);
  requireCount("referrals", referrals);
  requireCount("placesPerReferral", placesPerReferral);
  return seq - placesPerReferral * referrals;
}

/**
 * A person's giveaway entries: `1 + entriesPerReferral × referrals` (one for joining, more per counted referral).
 * @throws RangeError when an argument is not a non-negative safe integer
 */
export function entriesOf(referrals: number, entriesPerReferral: number): number {
  requireCount("referrals", referrals);
  requireCount("entriesPerReferral", entriesPerReferral);
  return 1 + entriesPerReferral * referrals;
}

/** Characters of a first name the leaderboard shows; a longer one is cut with "…", so one row cannot stretch the table. */
export const LEADERBOARD_FIRST_NAME_MAX_CHARACTERS = 24;

/**
 * The name the public leaderboard shows for a person, "Jordan S.", when the first name passes the display check
 * (display-check.ts: no dots, slashes, runs of digits, `@` or `:`, or profanity); otherwise the first name's initial
 * only, "J.", so free text ("t.me/scam") never reaches the public page. Invisible and control characters are dropped,
 * runs of white space become one space, and an initial is a name's first letter, upper-cased (`o'brien` gives "O.").
 * Characters are grapheme clusters, so an accented or emoji character is never cut in half.
 * @returns "First L.", or "First" when the last name has no letter; "F." when the first name fails the check, or "L."
 *   when it has no letter at all; null when neither name has anything to show (the caller leaves the rank empty)
 */
export function leaderboardName(firstName: string, lastName: string): string | null {
  const first = showableFirstName(firstName);
  const lastInitial = initialOf(lastName);
  if (first && lastInitial) return `${first} ${lastInitial}.`;
  if (first) return first;
  const firstInitial = initialOf(firstName);
  if (firstInitial) return `${firstInitial}.`;
  if (lastInitial) return `${lastInitial}.`;
  return null;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Unicode "Other" characters (controls, formats such as zero-width spaces and text-direction overrides, private use,
 * unassigned), except the zero-width joiner that holds an emoji sequence together.
 */
const INVISIBLE = /(?!\u200d)\p{C}/gu;

function showableFirstName(raw: string): string | null {
  const name = raw.replace(INVISIBLE, "").replace(/\s+/gu, " ").trim();
  if (!name || !passesDisplayCheck(name)) return null;
  const characters = [...segmenter.segment(name)].map(({ segment }) => segment);
  if (characters.length <= LEADERBOARD_FIRST_NAME_MAX_CHARACTERS) return name;
  return `${characters
    .slice(0, LEADERBOARD_FIRST_NAME_MAX_CHARACTERS - 1)
    .join("")
    .trimEnd()}…`;
}

function initialOf(raw: string): string | null {
  const name = raw.replace(INVISIBLE, "");
  for (const { segment } of segmenter.segment(name)) if (/^\p{L}/u.test(segment)) return segment.toLocaleUpperCase();
  return null;
}

function requireCount(name: string, value: number, min = 0): void {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer of at least ${min}, got ${value}`);
}
