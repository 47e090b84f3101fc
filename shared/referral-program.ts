/**
 * The referral program's fixed terms (which transport runs it, when a referral counts), shared by
 * the content schema, the pages and the service's settings. No dependencies, so any side imports it.
 */

/** The only transport that runs the program: the Klaviyo transports send signups straight to Klaviyo, which knows no referrals. */
export const REFERRALS_TRANSPORT = "waitlist-api";

/**
 * When a friend's signup counts (`referrals.countAfter`): after the double opt-in, or once stored.
 * `confirmation` is recommended: a made-up or mistyped address never confirms, so it never counts.
 */
export const COUNT_AFTER = ["confirmation", "signup"] as const;

export type CountAfter = (typeof COUNT_AFTER)[number];

/** Does this `provider.transport` run the referral program? */
export function runsReferralProgram(transport: string): boolean {
  return transport === REFERRALS_TRANSPORT;
}

/**
 * Whether the program counts a referral at signup, which production refuses (the Worker answers `not_configured`,
 * `npm run deploy` refuses the build): a friend's signup with a known address changes nothing, so a prober who signs
 * up with their own code could tell a new address from one already on the list by whether their count went up.
 */
export function countsAtSignup(program: { enabled: boolean; countAfter: CountAfter }): boolean {
  return program.enabled && program.countAfter === "signup";
}
