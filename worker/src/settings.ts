/**
 * The build's settings for the service (`public/service-settings.json`), read through the ASSETS binding, so the site
 * and its API always come from one build.
 */
import { SERVICE_SETTINGS_PATH, ServiceSettingsSchema, type ServiceSettings } from "../../shared/service-settings";

/** The settings file is missing or malformed: the site was built without the `waitlist-api` transport. */
export class SettingsUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsUnavailable";
  }
}

/** Any host will do: the ASSETS binding serves by path. */
const ASSETS_ORIGIN = "https://assets.local";

const cache = new WeakMap<Fetcher, Promise<ServiceSettings>>();

/**
 * The build's service settings, kept per ASSETS binding for the isolate's life (a new deploy is a new isolate; a test
 * with another build's assets reads that build's file). A failed read is not kept, so it is tried again.
 * @throws SettingsUnavailable when the file is missing, not JSON or not of the schema's shape (the message names
 *   the member at fault)
 */
export function readSettings(assets: Fetcher): Promise<ServiceSettings> {
  let settings = cache.get(assets);
  if (!settings) {
    settings = load(assets);
    settings.catch(() => cache.delete(assets));
    cache.set(assets, settings);
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
  const parsed = ServiceSettingsSchema.safeParse(value);
  if (!parsed.success) throw new SettingsUnavailable(`${SERVICE_SETTINGS_PATH}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}
