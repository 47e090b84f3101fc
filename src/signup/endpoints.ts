/**
 * Where each Klaviyo transport sends signups by default. Shared by the build (schema
 * defaults, the Content-Security-Policy) and the browser code; no dependencies.
 */

/**
 * How the script sends a signup (content/site.yaml → provider.transport):
 * - `client-api`: Klaviyo's documented Client API (`POST /client/subscriptions/`), whose answer
 *   the page can read, so a refusal or a rate limit is reported instead of hidden;
 * - `legacy-form`: the form-urlencoded POST of Klaviyo's legacy embedded signup form, sent
 *   `no-cors`, so its answer is opaque and every completed request counts as accepted.
 */
export type SignupTransport = "client-api" | "legacy-form";

/** The transports, in the order editors are offered them (the first is recommended). */
export const SIGNUP_TRANSPORTS = ["client-api", "legacy-form"] as const satisfies readonly SignupTransport[];

/** Klaviyo's Client API subscription endpoint; the public API key goes in `?company_id=`. */
export const CLIENT_API_ENDPOINT_URL = "https://a.klaviyo.com/client/subscriptions/";

/** The ajax endpoint of Klaviyo's legacy embedded signup form (answers scripts, not people). */
export const LEGACY_FORM_ENDPOINT_URL = "https://manage.kmail-lists.com/ajax/subscriptions/subscribe";

/**
 * The non-ajax endpoint of the legacy embedded form: it answers a plain form POST with a
 * page for people, so the native form posts here when JavaScript is not running.
 */
export const NO_SCRIPT_FORM_URL = "https://manage.kmail-lists.com/subscriptions/subscribe";

/** The endpoint a transport uses when content/site.yaml names none. */
export function defaultEndpointUrl(transport: SignupTransport): string {
  return transport === "client-api" ? CLIENT_API_ENDPOINT_URL : LEGACY_FORM_ENDPOINT_URL;
}
