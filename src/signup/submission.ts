/**
 * What one signup carries, and what the waitlist service answers for it, in a module of its own: the
 * transports (client.ts, clientApi.ts, waitlistApi.ts) and the checks (validation.ts) all read it, and
 * none of them should import another for it.
 */

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

/**
 * What the waitlist service answers for an accepted signup (201 for a new person, 200 for an address already
 * on the list): the row's id and creation time (ISO 8601), and, once the referral program is on, the person's
 * own referral code and links, place in line, counted referrals and giveaway entries.
 */
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
