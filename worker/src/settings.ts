/**
 * The build's settings for the service (`public/service-settings.json`), read through the ASSETS binding once per
 * isolate: the site and its API always come from one build, and a test points wrangler at whichever build it made.
 */
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../src/signup/service-settings";

/** The settings file is missing or malformed: the site was built without the `waitlist-api` transport. */
export class SettingsUnavailable extends Error {}

/** Any host will do: the ASSETS binding serves by path. */
const ASSETS_ORIGIN = "https://assets.local";

let settings: Promise<ServiceSettings> | null = null;

/**
 * The build's service settings, cached for the isolate's life (a new deploy is a new isolate). A failed read is not
 * cached, so a request after the cause is fixed reads the file again.
 * @throws SettingsUnavailable when the file is missing, not JSON or not of the ServiceSettings shape
 */
export function readSettings(assets: Fetcher): Promise<ServiceSettings> {
  settings ??= load(assets).catch((error: unknown) => {
    settings = null;
    throw error;
  });
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
  // The whole object is kept: later builds add members (referrals, leaderboard) that other modules read.
  return value as ServiceSettings;
}
