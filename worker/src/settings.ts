/**
 * The build's settings for the service (`public/service-settings.json`), read through the ASSETS binding once per
 * isolate and binding: the site and its API always come from one build, and a test that hands the Worker another
 * ASSETS binding (another build's settings) gets that build's file read fresh.
 */
import { COUNT_AFTER } from "../../src/referrals/program";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../src/signup/service-settings";

/** The settings file is missing or malformed: the site was built without the `waitlist-api` transport. */
export class SettingsUnavailable extends Error {}

/** Any host will do: the ASSETS binding serves by path. */
const ASSETS_ORIGIN = "https://assets.local";

/** Each ASSETS binding's settings, read once (a WeakMap: a binding that is gone takes its entry with it). */
const settingsByAssets = new WeakMap<Fetcher, Promise<ServiceSettings>>();

/**
 * The build's service settings, cached per ASSETS binding for the isolate's life (a new deploy is a new isolate). A
 * failed read is not cached, so a request after the cause is fixed reads the file again.
 * @throws SettingsUnavailable when the file is missing, not JSON or not of the ServiceSettings shape
 */
export function readSettings(assets: Fetcher): Promise<ServiceSettings> {
  let settings = settingsByAssets.get(assets);
  if (!settings) {
    settings = load(assets).catch((error: unknown) => {
      settingsByAssets.delete(assets);
      throw error;
    });
    settingsByAssets.set(assets, settings);
  }
  return settings;
}

async function load(assets: Fetcher): Promise<ServiceSettings> {
  const response = await assets.fetch(`${ASSETS_ORIGIN}${SERVICE_SETTINGS_PATH}`);
  if (!response.ok)
    throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH} answered ${response.status}: build the site with the waitlist-api transport.`);
  let value: unknown;
  try {
    value = await response.json();
  } catch {
    throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH} is not JSON.`);
  }
  const { siteUrl, listId, source, turnstileSiteKey } = (value ?? {}) as Partial<Record<keyof ServiceSettings, unknown>>;
  if (typeof siteUrl !== "string" || typeof listId !== "string" || typeof source !== "string")
    throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH} lacks siteUrl, listId or source.`);
  if (turnstileSiteKey !== null && typeof turnstileSiteKey !== "string")
    throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH}: turnstileSiteKey must be a string or null.`);
  const problem = referralSettingsProblem(value as Record<string, unknown>);
  if (problem) throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH}: ${problem}`);
  // The whole object is kept: later builds may add members that other modules read.
  return value as ServiceSettings;
}

const isCount = (value: unknown, min: number) => Number.isSafeInteger(value) && (value as number) >= min;

/**
 * What is wrong with the file's `referrals` and `leaderboard` members (src/signup/service-settings.ts), or null. The
 * content check holds the same rules at build time; this catches a file from an older build or edited by hand.
 */
function referralSettingsProblem({ referrals, leaderboard }: Record<string, unknown>): string | null {
  if (typeof referrals !== "object" || referrals === null) return "referrals is missing (rebuild the site).";
  const { enabled, placesPerReferral, entriesPerReferral, countAfter } = referrals as Record<string, unknown>;
  if (typeof enabled !== "boolean") return "referrals.enabled must be true or false.";
  if (!isCount(placesPerReferral, 0)) return "referrals.placesPerReferral must be a whole number of at least 0.";
  if (!isCount(entriesPerReferral, 0)) return "referrals.entriesPerReferral must be a whole number of at least 0.";
  if (!(COUNT_AFTER as readonly unknown[]).includes(countAfter)) return `referrals.countAfter must be one of ${COUNT_AFTER.join(", ")}.`;
  if (typeof leaderboard !== "object" || leaderboard === null) return "leaderboard is missing (rebuild the site).";
  if (!isCount((leaderboard as Record<string, unknown>).size, 1)) return "leaderboard.size must be a whole number of at least 1.";
  return null;
}
