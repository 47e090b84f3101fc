/** Writes `public/service-settings.json` so that the site and its API always come from one build. Build-time only. */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isDemoBuild } from "../content/derive";
import type { SiteContent } from "../content/schema";
import { utcOffsetMinutesOf } from "../../shared/local-days";
import { DEFAULT_LAUNCH, SERVICE_SETTINGS_PATH, type ServiceSettings, type SignupPage } from "../../shared/service-settings";

/**
 * The service's settings for this content.
 * @returns null when the page does not use the service: another transport, or a demo build (which publishes no
 *   list id, and whose page sends nothing)
 */
export function serviceSettings(content: SiteContent, signupPages: SignupPage[]): ServiceSettings | null {
  const { provider, site, referrals, leaderboard, draw, launch } = content;
  if (provider.transport !== "waitlist-api" || isDemoBuild(provider) || !provider.listId) return null;
  return {
    // The site's address without a trailing slash, as the Worker builds links from it.
    siteUrl: site.url.replace(/\/+$/, ""),
    listId: provider.listId,
    // "" for none: the service then records no custom source for a signup that names none.
    source: provider.source ?? "",
    turnstileSiteKey: provider.turnstileSiteKey ?? null,
    referrals: {
      enabled: referrals.enabled,
      placesPerReferral: referrals.placesPerReferral,
      entriesPerReferral: referrals.entriesPerReferral,
      countAfter: referrals.countAfter,
    },
    draw: {
      chain: { ...draw.chain },
      id: draw.id,
      cutoff: draw.cutoff,
      winners: draw.winners,
      roundDelayHours: draw.roundDelayHours,
      relayUrl: draw.relayUrl,
    },
    leaderboard: { size: leaderboard.size },
    launch: {
      invitationDays: launch.invitationDays,
      productSignupUrl: launch.productSignupUrl,
      reminderDaysBefore: launch.reminderDaysBefore,
      backfill: launch.backfill,
      invitationMetric: DEFAULT_LAUNCH.invitationMetric,
      reminderMetric: DEFAULT_LAUNCH.reminderMetric,
    },
    // The dashboard's days are the launch moment's (its offset: the content names no other time zone).
    utcOffsetMinutes: utcOffsetMinutesOf(launch.moment),
    signupPages,
  };
}

/**
 * Write `public/service-settings.json`, or delete one a previous build left when this build does not use the
 * service (a stale file would tell a deploy, and anyone reading it, that the service is on).
 * @returns the file's path when it was written, else null
 */
export async function writeServiceSettings(publicDir: string, settings: ServiceSettings | null): Promise<string | null> {
  const file = path.join(publicDir, SERVICE_SETTINGS_PATH);
  if (!settings) {
    await rm(file, { force: true });
    return null;
  }
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  return file;
}
