/** What one signup carries: its own module, so no transport imports another for it. */
import type { AttributionProperty } from "../../shared/contract";

/** Profile properties sent with a signup (Klaviyo "profile properties"), e.g. UTM values. */
export type ProfileProperties = Partial<Record<AttributionProperty, string>>;

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
