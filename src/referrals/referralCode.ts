/**
 * The referral code a friend's link brings (`/?ref=CODE`, or a campaign page with `?ref=CODE`),
 * kept for the visit so that a visitor who lands, reads and signs up later (after a reload,
 * or on another page of the site) is still credited to that friend.
 *
 * Whether the code belongs to anyone is the service's business: an unknown code is ignored
 * there, not refused. Only text that cannot be a code at all is dropped here, so a broken
 * or hostile link never costs the visitor their signup.
 */
import { REFERRAL_PARAMETER } from "../../shared/referral-links";
import { keep, readKept, type VisitStorage } from "./storage";

export { REFERRAL_PARAMETER };

/** The sessionStorage key of the kept code. */
export const REFERRAL_CODE_KEY = "pickfund.referralCode";

/**
 * What a referral code can look like: letters, digits, `-` and `_`, at most 32 characters.
 * The service's codes are 8 characters from an unambiguous alphabet; the margin leaves room to
 * change that without a site release, while a pasted sentence or a script is never sent on.
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
 * Keep the code of this page's address for the visit. A page without one keeps the code kept
 * earlier; a page with another code replaces it (the link the visitor followed last wins, as
 * they would expect; which referrer is credited is then the service's first-referrer rule).
 * @param search `location.search` of the page being viewed
 */
export function keepReferralCode(search: string, storage?: VisitStorage | null): void {
  const code = referralCodeIn(search);
  if (code) keep(REFERRAL_CODE_KEY, code, storage);
}

/**
 * The code to send with a signup made now: this page's own, else the one kept for the visit.
 * @param search `location.search` of the page the form is on
 * @returns a code, or null when the visit came through no referral link
 */
export function referralCodeForSignup(search: string, storage?: VisitStorage | null): string | null {
  const kept = readKept(REFERRAL_CODE_KEY, storage);
  return referralCodeIn(search) ?? (kept && REFERRAL_CODE_FORM.test(kept) ? kept : null);
}
