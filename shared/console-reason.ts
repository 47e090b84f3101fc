/**
 * The rule every console action's reason follows, checked by the console page before it posts and by the Worker
 * when it reads an ActionRequest (console.ts) and again against the person's row, so the operator learns of a refusal
 * before the request leaves. A reason stays in the audit log for good, after an erase too: so it never holds an
 * address (spelled out with "at" and "dot" too), a phone number or other long number, nor the name or referral code of
 * the person it is about; and it is plain text, so no control or bidirectional formatting character can make it read
 * otherwise than it is stored.
 */
import { REASON_MAX_LENGTH } from "./console";

/**
 * Why a reason is refused: none given, longer than REASON_MAX_LENGTH, holding a control or bidirectional formatting
 * character, an e-mail address (anyone's, spelled out too), a run of NUMBER_MIN_DIGITS digits or more, or the person's
 * own first or last name or referral code.
 */
export type ReasonProblem = "required" | "tooLong" | "controlCharacter" | "namesAddress" | "namesNumber" | "namesPerson";

/** The person a reason is about, as far as the rule reads them. */
export interface ReasonSubject {
  firstName: string;
  lastName: string;
  /** Their referral code, when they have one: it leads to them as surely as their name. */
  referralCode?: string | null;
}

/**
 * Control characters (C0, DEL, C1), line breaks and tabs included, and the bidirectional formatting characters (the
 * marks, embeddings, overrides and isolates), which make a text display in another order than it is stored: a reason
 * is one line of plain words.
 */
const CONTROL_CHARACTER = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** Something shaped like an address: characters, `@`, characters (the rule errs towards refusing). */
const ADDRESS = /[^\s@]+@[^\s@]+/u;

/** "at" spelled out between a mailbox and a domain: `(at)`, `[at]`, `{at}`, `<at>`, or ` at ` between spaces. */
const SPELLED_AT = String.raw`(?:\s*[([{<]\s*at\s*[)\]}>]\s*|\s+at\s+)`;
/** A dot of a domain: `.` with no space around it (a sentence's full stop has one after it), or "dot" spelled out. */
const SPELLED_DOT = String.raw`(?:\.|\s*[([{<]\s*dot\s*[)\]}>]\s*|\s+dot\s+)`;
/** An address with "at" (and maybe "dot") spelled out: `ana(at)example.com`, `ana at example dot com`. */
const SPELLED_ADDRESS = new RegExp(
  String.raw`[\p{L}\p{N}._%+-]+${SPELLED_AT}[\p{L}\p{N}-]+(?:${SPELLED_DOT}[\p{L}\p{N}-]+)*${SPELLED_DOT}\p{L}{2,}(?![\p{L}\p{N}])`,
  "iu",
);

/** Digits in a run (spaces, dots, dashes and brackets between them allowed) that make a reason refused. */
export const NUMBER_MIN_DIGITS = 7;
/** A run of NUMBER_MIN_DIGITS digits or more: a phone number, however it is written. */
const LONG_NUMBER = new RegExp(String.raw`\p{Nd}(?:[\s().+-]*\p{Nd}){${NUMBER_MIN_DIGITS - 1},}`, "u");
/** A date (and time) as ISO 8601 writes it, which an operator may give and which names nobody: not a long number. */
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?\b/gu;

/** Names shorter than this are not looked for (an initial would refuse half of every sentence). */
const NAME_MIN_LETTERS = 2;

/** Text compared without case or accents: `Zoë` and `ZOE` are one name. */
function folded(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLocaleLowerCase("en");
}

/** Whether `text` holds `word` whole: no character of `inside` right before or after it. */
function holdsWord(text: string, word: string, inside: RegExp): boolean {
  let at = text.indexOf(word);
  while (at !== -1) {
    if (!inside.test(text.charAt(at - 1)) && !inside.test(text.charAt(at + word.length))) return true;
    at = text.indexOf(word, at + 1);
  }
  return false;
}

/** Whether `reason` holds one of the person's names (letters on neither side) or their referral code. */
function namesPerson(reason: string, subject: ReasonSubject): boolean {
  const text = folded(reason);
  const names = `${subject.firstName} ${subject.lastName}`.split(/[\s-]+/u).map(folded);
  if (names.some((name) => [...name].length >= NAME_MIN_LETTERS && holdsWord(text, name, /\p{L}/u))) return true;
  const code = subject.referralCode ? folded(subject.referralCode) : "";
  return code !== "" && holdsWord(text, code, /[\p{L}\p{N}]/u);
}

/**
 * What is wrong with a reason, or null when it is one an action takes. Blank counts as missing; the length is in
 * characters (Unicode code points, so an emoji is one), of the reason as given. `subject`, when known, is the person
 * the action is about: their names and referral code are refused too.
 */
export function reasonProblem(reason: string, subject?: ReasonSubject): ReasonProblem | null {
  if (reason.trim() === "") return "required";
  if ([...reason].length > REASON_MAX_LENGTH) return "tooLong";
  if (CONTROL_CHARACTER.test(reason)) return "controlCharacter";
  // Compatibility forms as plain ones: a full-width ＠ or digit is read as the one it stands for.
  const plain = reason.normalize("NFKC");
  if (ADDRESS.test(plain) || SPELLED_ADDRESS.test(plain)) return "namesAddress";
  if (LONG_NUMBER.test(plain.replace(ISO_DATE, " "))) return "namesNumber";
  if (subject && namesPerson(plain, subject)) return "namesPerson";
  return null;
}
