/**
 * The referral code a friend's link brings, kept for the visit so that a later signup (after a
 * reload, on another page) is still credited. Whether a code belongs to anyone is the service's
 * business; only text that cannot be a code is dropped, so a hostile link never costs a signup.
 */
import { REFERRAL_PARAMETER } from "../../shared/referral-links";
import { keep, readKept, type VisitStorage } from "./storage";

export { REFERRAL_PARAMETER };

export const REFERRAL_CODE_KEY = "pickfund.referralCode";

/**
 * Wider than the service's codes, so their form can change without a site release, yet a pasted
 * sentence or a script is never sent on.
 */
export const REFERRAL_CODE_FORM = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The referral code in a page address's query.
 * @param search `location.search`, e.g. "?ref=K7QM2XPD&utm_source=x"
 * @returns the code (trimmed), or null when there is none or it cannot be a code
 */
export function referralCodeIn(search: string): string | null {
  const code = new URLSearchParams(search).get(REFERRAL_PARAMETER)?.trim();
  return code && REFERRAL_CODE_FORM.test(code) ? code : null;
}

/**
 * Keep this page's code for the visit; a page without one leaves the kept code. The link followed
 * last wins here; which referrer is credited is the service's first-referrer rule.
 * @param search `location.search`
 */
export function keepReferralCode(search: string, storage?: VisitStorage | null): void {
  const code = referralCodeIn(search);
  if (code) keep(REFERRAL_CODE_KEY, code, storage);
}

/**
 * The code to send with a signup made now: this page's own, else the one kept for the visit.
 * @param search `location.search`
 * @returns a code, or null when the visit came through no referral link
 */
export function referralCodeForSignup(search: string, storage?: VisitStorage | null): string | null {
  const kept = readKept(REFERRAL_CODE_KEY, storage);
  return referralCodeIn(search) ?? (kept && REFERRAL_CODE_FORM.test(kept) ? kept : null);
}
