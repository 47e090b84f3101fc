/**
 * What one signup carries, in a module of its own: the transports (client.ts, clientApi.ts, waitlistApi.ts) all
 * read it, and none of them should import another for it.
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
