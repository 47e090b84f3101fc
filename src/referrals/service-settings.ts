/**
 * The referral program's part of the settings the build gives the waitlist service
 * (`public/service-settings.json`, written after the build when `provider.transport` is
 * waitlist-api): the rules the service ranks and counts by, from the content. Pure; build time.
 * Typed by shape, not by the content schema, so that this folder stays free of build-time imports.
 */
import type { CountAfter } from "./program";

/** The content this reads (`referrals`, `leaderboard` of content/site.yaml, validated). */
export interface ReferralSettingsSource {
  referrals: { placesPerReferral: number; entriesPerReferral: number; countAfter: CountAfter };
  leaderboard: { size: number };
}

/** The settings the service reads. */
export interface ReferralServiceSettings {
  referrals: {
    /** Places one counted referral moves a person up (score = signup order − placesPerReferral × counted referrals). */
    placesPerReferral: number;
    /** Giveaway entries one counted referral adds (entries = 1 + entriesPerReferral × counted referrals). */
    entriesPerReferral: number;
    /** When a referral counts: when the friend is stored, or once they confirm their address (double opt-in). */
    countAfter: CountAfter;
  };
  leaderboard: {
    /** Rows `GET /api/leaderboard` answers (the top N). */
    size: number;
  };
}

/**
 * The referral settings for `public/service-settings.json`.
 * @param content the validated content
 */
export function referralServiceSettings({ referrals, leaderboard }: ReferralSettingsSource): ReferralServiceSettings {
  return {
    referrals: {
      placesPerReferral: referrals.placesPerReferral,
      entriesPerReferral: referrals.entriesPerReferral,
      countAfter: referrals.countAfter,
    },
    leaderboard: { size: leaderboard.size },
  };
}
