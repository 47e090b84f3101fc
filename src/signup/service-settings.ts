/**
 * The shape of `public/service-settings.json`, which the build writes and the Worker reads through
 * ASSETS. Everything in it is already public (on the page); secrets are Worker secrets, never here.
 */

import type { CountAfter } from "../referrals/program";

/** The file's path in the build output (`public/`), which is also its URL path. */
export const SERVICE_SETTINGS_PATH = "/service-settings.json";

/** The settings the Worker takes from content/site.yaml. */
export interface ServiceSettings {
  /** The site's public address, e.g. `https://example.com` (no trailing slash). */
  siteUrl: string;
  /** The Klaviyo list id signups are subscribed to. */
  listId: string;
  /** Klaviyo "custom source" of a signup that names none (the page's default). */
  source: string;
  /** Turnstile site key the page renders the widget with; null when the page has no widget. */
  turnstileSiteKey: string | null;
  /** The referral program's rules (`referrals` of content/site.yaml). */
  referrals: {
    /** false: no codes are handed out, no `ref` is credited, /api/status and /api/leaderboard answer 404. */
    enabled: boolean;
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
