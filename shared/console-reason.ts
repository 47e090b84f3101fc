/**
 * The rule every console action's reason follows, checked by the console page before it posts and by the Worker
 * when it reads an ActionRequest (console.ts), so the operator learns of a refusal before the request leaves.
 */
import { REASON_MAX_LENGTH } from "./console";

/** Why a reason is refused: none given, longer than REASON_MAX_LENGTH, or holding a control character. */
export type ReasonProblem = "required" | "tooLong" | "controlCharacter";

/** Control characters (C0, DEL, C1), line breaks and tabs included: a reason is one line of plain words. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * What is wrong with a reason, or null when it is one an action takes. Blank counts as missing; the length is in
 * characters (Unicode code points, so an emoji is one), of the reason as given.
 */
export function reasonProblem(reason: string): ReasonProblem | null {
  if (reason.trim() === "") return "required";
  if ([...reason].length > REASON_MAX_LENGTH) return "tooLong";
  if (CONTROL_CHARACTER.test(reason)) return "controlCharacter";
  return null;
}
