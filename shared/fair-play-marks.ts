/**
 * The words the referral program's fair-play checks write on a person (docs/referrals.md: Fair play): the flags of the `flags`
 * column and the reasons of `referral_hold`. The Worker writes them; the console names and explains them to the
 * operator in the content's words, keyed by these names.
 */

/** Flag words of the `flags` column (space-separated), for the operator's review before a draw. */
export const FLAGS = {
  /** The friend signed up from the referrer's own network (IPv4 address or IPv6 /64). */
  sameIpAsReferrer: "same_ip_as_referrer",
  /** The friend signed up from the network of an earlier friend of the same referrer. */
  sameIpAsOtherReferral: "same_ip_as_other_referral",
  /** The referrer has several friends on one domain that is not a consumer provider's (a catch-all domain). */
  domainCluster: "domain_cluster",
  /** The referrer's friends arrived in a burst. */
  burst: "burst",
} as const;

/** Why a referral is held for review instead of counted (the `referral_hold` column). */
export const HOLDS = {
  /** The code brought more referred signups within the hold window than its limit. */
  codeLimit: "code_limit",
  /** The friend's domain brought more referred signups within the hold window than its limit. */
  domainLimit: "domain_limit",
} as const;

export type FlagName = keyof typeof FLAGS;
export type HoldName = keyof typeof HOLDS;
