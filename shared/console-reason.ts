/**
 * The rule every console action's reason follows, checked by the console page before it posts and by the Worker
 * when it reads an ActionRequest (console.ts) and again against the person's row, so the operator learns of a refusal
 * before the request leaves. A reason stays in the audit log for good, after an erase too: so it never holds an
 * address, nor the name of the person it is about.
 */
import { REASON_MAX_LENGTH } from "./console";

/**
 * Why a reason is refused: none given, longer than REASON_MAX_LENGTH, holding a control character, an e-mail address
 * (anyone's), or the person's own first or last name.
 */
export type ReasonProblem = "required" | "tooLong" | "controlCharacter" | "namesAddress" | "namesPerson";

/** The person a reason is about, as far as the rule reads them. */
export interface ReasonSubject {
  firstName: string;
  lastName: string;
}

/** Control characters (C0, DEL, C1), line breaks and tabs included: a reason is one line of plain words. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Something shaped like an address: characters, `@`, characters (the rule errs towards refusing). */
const ADDRESS = /[^\s@]+@[^\s@]+/u;

/** Names shorter than this are not looked for (an initial would refuse half of every sentence). */
const NAME_MIN_LETTERS = 2;

/** Text compared without case or accents: `Zoë` and `ZOE` are one name. */
function folded(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLocaleLowerCase("en");
}

/** Whether `reason` holds one of the person's names as a whole word (letters on neither side). */
function namesPerson(reason: string, subject: ReasonSubject): boolean {
  const text = folded(reason);
  const names = `${subject.firstName} ${subject.lastName}`.split(/[\s-]+/u).map(folded);
  return names.some((name) => {
    if ([...name].length < NAME_MIN_LETTERS) return false;
    let at = text.indexOf(name);
    while (at !== -1) {
      const before = text.slice(0, at);
      const after = text.slice(at + name.length);
      if (!/\p{L}$/u.test(before) && !/^\p{L}/u.test(after)) return true;
      at = text.indexOf(name, at + 1);
    }
    return false;
  });
}

/**
 * What is wrong with a reason, or null when it is one an action takes. Blank counts as missing; the length is in
 * characters (Unicode code points, so an emoji is one), of the reason as given. `subject`, when known, is the person
 * the action is about: their names are refused too.
 */
export function reasonProblem(reason: string, subject?: ReasonSubject): ReasonProblem | null {
  if (reason.trim() === "") return "required";
  if ([...reason].length > REASON_MAX_LENGTH) return "tooLong";
  if (CONTROL_CHARACTER.test(reason)) return "controlCharacter";
  if (ADDRESS.test(reason)) return "namesAddress";
  if (subject && namesPerson(reason, subject)) return "namesPerson";
  return null;
}
