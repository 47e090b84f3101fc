/** What one signup carries and what the service answers for it: its own module, so no transport imports another. */

/** Profile properties sent with a signup (Klaviyo "profile properties"), e.g. UTM values. */
export type ProfileProperties = Record<string, string>;

/** One signup as sent to the provider (product rule 6). Values are already trimmed. */
export interface Submission {
  email: string;
  firstName: string;
  lastName: string;
  /** Extra profile properties (waitlist-api and client-api; left out of the request when empty). */
  properties?: ProfileProperties;
  /** The referral code of the link the visitor came by (waitlist-api only, sent as `ref`). */
  referralCode?: string;
  /** Cloudflare Turnstile's token for this attempt (waitlist-api only, sent as `turnstileToken`); each is valid once. */
  turnstileToken?: string;
}

/** The service's answer for an accepted signup (201 new, 200 already listed); referral members only while the program runs. */
export interface SignupAnswer {
  /** The signup's id (a UUID). */
  id: string;
  /** When it was stored, ISO 8601 UTC. */
  createdAt: string;
  /** The person's own referral code, e.g. "K7QM2XPD". */
  referralCode?: string;
  /** Their referral link, `<site>/?ref=<code>`. */
  referralUrl?: string;
  /** Their place in line, 1 = first. */
  position?: number;
  /** Friends who joined with their link and count (see referrals.countAfter). */
  referrals?: number;
  /** Their giveaway entries: 1 + entriesPerReferral × referrals. */
  entries?: number;
  /** Their status page, `<site>/status/#t=<token>` (the token never leaves the browser in a request). */
  statusUrl?: string;
}
