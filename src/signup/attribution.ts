/** Where a signup came from (UTM parameters, landing path, referring origin), as Klaviyo profile properties. */
import { type AttributionProperty, UTM_PARAMETERS } from "../../shared/contract";
import { ATTRIBUTION_VALUE_MAX_CHARS, keptUtmValue } from "../../shared/validation";

/** The profile properties of one signup; a value that is missing is left out, never sent empty. */
export type AttributionProperties = Partial<Record<AttributionProperty, string>>;

/** What the browser knows about how the visitor arrived. */
export interface Landing {
  /** `location.search`, e.g. "?utm_source=nba&utm_medium=paid" ("" when there is none). */
  search: string;
  /** `location.pathname`, e.g. "/nba-ads/". */
  pathname: string;
  /** `document.referrer`: the page that linked here, "" when there was none or it was withheld. */
  referrer: string;
}

/**
 * A value as it is sent: trimmed and cut to ATTRIBUTION_VALUE_MAX_CHARS characters
 * (whole characters, so an emoji is never split in half).
 * @returns the value, or undefined when nothing is left
 */
export function attributionValue(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const characters = Array.from(trimmed);
  return characters.length > ATTRIBUTION_VALUE_MAX_CHARS ? characters.slice(0, ATTRIBUTION_VALUE_MAX_CHARS).join("").trim() : trimmed;
}

/**
 * The referring site's origin (`https://news.example`), never its full URL: the path
 * and query of someone else's page can carry personal data.
 * @returns undefined for no referrer, or one that is not an http(s) URL
 */
export function referrerOrigin(referrer: string): string | undefined {
  if (!referrer) return undefined;
  try {
    const url = new URL(referrer);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The attribution properties of a signup made on this landing.
 * @returns `{ utm_source?, utm_medium?, utm_campaign?, utm_term?, utm_content?, landing_page?, referrer? }`,
 *   each value text, trimmed and at most ATTRIBUTION_VALUE_MAX_CHARS characters; a UTM value as keptUtmValue keeps it
 */
export function attributionProperties(landing: Landing): AttributionProperties {
  const query = new URLSearchParams(landing.search);
  const properties: AttributionProperties = {};
  for (const name of UTM_PARAMETERS) {
    const value = attributionValue(query.get(name));
    if (value !== undefined) properties[name] = keptUtmValue(value);
  }
  const landingPage = attributionValue(landing.pathname);
  if (landingPage !== undefined) properties.landing_page = landingPage;
  const referrer = attributionValue(referrerOrigin(landing.referrer));
  if (referrer !== undefined) properties.referrer = referrer;
  return properties;
}

/** The attribution of a signup made now, in this browser. */
export function currentAttribution(): AttributionProperties {
  return attributionProperties({ search: window.location.search, pathname: window.location.pathname, referrer: document.referrer });
}
