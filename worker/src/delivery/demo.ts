/**
 * Demo delivery (no Klaviyo private API key; docs/deploy.md: Run it locally): nothing is sent. In development a signup
 * that demo delivery settled also counts as confirmed, recorded as a confirmation Klaviyo vouched for is
 * (delivery/confirmations.ts), so that with `countAfter: confirmation` a local run credits referrals as production
 * would once Klaviyo confirms, and the links its welcome e-mail would carry are logged instead (the signup's answer
 * carries none). A production Worker never delivers in demo: it refuses signups without the key.
 */
import { referralLink, statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { DeliveryRow } from "../store/delivery";
import { confirmPerson } from "../store/referrals";

/** What demo delivery did beyond marking the row. */
export interface DemoConfirmation {
  /** The signup now counts as confirmed. */
  confirmed: boolean;
  /** Its referral was credited to its referrer by this call. */
  referralCounted: boolean;
}

/**
 * Confirm a signup that demo delivery settled, and count the referrals it completes when the program counts after
 * confirmation (store/referrals.ts: confirmPerson, the queue's check of a webhook's hint records it the same way).
 * Repeating it changes nothing (the confirmation time and the credits are written once).
 * @param id signups.id
 * @param at ISO 8601 UTC
 * @throws whatever D1 throws (the consumer retries the message)
 */
export async function confirmDemoSignup(db: D1Database, id: string, settings: ServiceSettings, at: string): Promise<DemoConfirmation> {
  const program = settings.referrals;
  const confirmation = await confirmPerson(db, id, at, {
    placesPerReferral: program.placesPerReferral,
    confirmed: program.enabled && program.countAfter === "confirmation",
  });
  return { confirmed: confirmation.found, referralCounted: confirmation.creditedReferrerId !== null };
}

/**
 * The links a local run's e-mail would carry, for the `demo_status_link` log line: the status link (of the token the
 * row keeps until delivery settles, or of an "already on the list" notice's fresh one) and the referral link, on the
 * settings' site address (the served origin on a local run: site-origin.ts). Called in development only
 * (env.ts: isDevelopment), since the line holds the status token, a secret.
 * @returns null while the program is off, or when the row has no code or no token
 */
export function demoStatusLink(
  row: Pick<DeliveryRow, "referral_code" | "status_token">,
  settings: ServiceSettings,
): { statusUrl: string; referralUrl: string } | null {
  if (!settings.referrals.enabled || row.referral_code === null || row.status_token === null) return null;
  return { statusUrl: statusLink(settings.siteUrl, row.status_token), referralUrl: referralLink(settings.siteUrl, row.referral_code) };
}
