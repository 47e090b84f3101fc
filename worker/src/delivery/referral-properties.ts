/**
 * The referral program's Klaviyo profile properties (docs/referrals.md: What Klaviyo gets).
 * `waitlist_status_url` goes with the signup's delivery only: after it only the token's hash is kept, and an update
 * leaves the property as it is.
 */
import type { D1Database } from "@cloudflare/workers-types";
import { referralLink, statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import { entriesOf } from "../referrals/standing";
import { positionOf } from "../store/rank";
import type { DeliveryRow } from "../store/delivery";

/** The profile property naming who referred the person (their referral code). */
export const REFERRED_BY_PROPERTY = "referred_by";

/**
 * A person's referral properties; {} while the program is off or when the row has no code.
 * @throws whatever D1 throws reading their position (the consumer retries the message)
 */
export async function referralProperties(
  db: D1Database,
  row: DeliveryRow,
  settings: ServiceSettings,
): Promise<Record<string, string | number>> {
  if (!settings.referrals.enabled || row.referral_code === null) return {};
  const position = await positionOf(db, row.id);
  return {
    referral_code: row.referral_code,
    referral_url: referralLink(settings.siteUrl, row.referral_code),
    ...(row.status_token === null ? {} : { waitlist_status_url: statusLink(settings.siteUrl, row.status_token) }),
    referral_count: row.referrals,
    giveaway_entries: entriesOf(row.referrals, settings.referrals.entriesPerReferral),
    ...(position === null ? {} : { waitlist_position: position.position }),
    ...(row.referrer_code === null ? {} : { [REFERRED_BY_PROPERTY]: row.referrer_code }),
  };
}
