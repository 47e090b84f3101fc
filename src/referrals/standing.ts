/**
 * A person's standing, from their signup's answer (kept for /success/) or `GET /api/status`.
 * Whatever does not have the expected shape is no standing: never shown half.
 */
import type { SignupAnswer, StandingAnswer } from "../../shared/contract";
import { keep, readKept, type VisitStorage } from "./storage";

/** What the referral panel shows: a standing with every member present and checked. */
export type Standing = Required<Omit<StandingAnswer, "referralCode">>;

export const KEPT_STANDING_KEY = "pickfund.signupStanding";

const isWhole = (value: unknown, min: number): value is number => Number.isInteger(value) && (value as number) >= min;

/** Is `value` an absolute http(s) address? A `javascript:` link from a tampered answer is never put in an href. */
function isWebAddress(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The standing in a service answer (a signup's, or the status endpoint's), parsed JSON.
 * @returns the standing, or null when any of its five fields is missing or malformed
 *   (a Klaviyo transport's signup, the honeypot's pretended answer, an older service)
 */
export function standingIn(value: unknown): Standing | null {
  if (!value || typeof value !== "object") return null;
  const { referralUrl, position, referrals, entries, statusUrl } = value as Record<string, unknown>;
  if (!isWebAddress(referralUrl) || !isWebAddress(statusUrl)) return null;
  if (!isWhole(position, 1) || !isWhole(referrals, 0) || !isWhole(entries, 1)) return null;
  return { referralUrl, position, referrals, entries, statusUrl };
}

/**
 * Keep a signup's standing for /success/. An answer without one replaces what an earlier signup
 * in this tab kept, so /success/ never shows someone else's.
 * @param answer undefined when the transport gives none
 */
export function keepSignupStanding(answer: SignupAnswer | undefined, storage?: VisitStorage | null): void {
  keep(KEPT_STANDING_KEY, JSON.stringify(standingIn(answer)), storage);
}

/**
 * The standing the last signup in this tab kept.
 * @returns it, or null when there was none (no signup in this visit, no JavaScript then, no stored answer)
 */
export function keptSignupStanding(storage?: VisitStorage | null): Standing | null {
  const text = readKept(KEPT_STANDING_KEY, storage);
  if (!text) return null;
  try {
    return standingIn(JSON.parse(text));
  } catch {
    return null;
  }
}
