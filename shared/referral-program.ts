/**
 * The referral program's fixed terms, shared by the content schema (build time), the
 * pages and the service's settings: which transport runs it, and when a referral counts.
 * No dependencies, so both the build and the browser may import it.
 */

/**
 * The signup transport whose service runs the program: our own waitlist service
 * (`provider.transport: waitlist-api`). Only it gives each signup a referral code, a
 * place in line and a status page; the Klaviyo transports send signups straight to
 * Klaviyo, which knows nothing of referrals.
 */
export const REFERRALS_TRANSPORT = "waitlist-api";

/**
 * When a friend's signup counts for the person who referred them (`referrals.countAfter`):
 * - `confirmation`: once the friend has confirmed their address (the list's double opt-in);
 * - `signup`: as soon as the friend is stored.
 * The first is recommended: a made-up or mistyped address never confirms, so it never counts.
 */
export const COUNT_AFTER = ["confirmation", "signup"] as const;

/** One of COUNT_AFTER. */
export type CountAfter = (typeof COUNT_AFTER)[number];

/**
 * Does this transport run the referral program?
 * @param transport `provider.transport` from the content
 */
export function runsReferralProgram(transport: string): boolean {
  return transport === REFERRALS_TRANSPORT;
}
