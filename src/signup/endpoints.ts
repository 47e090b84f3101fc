/**
 * Where each transport sends signups by default. Shared by the build (schema
 * defaults, the Content-Security-Policy) and the browser code; no dependencies.
 */
import { SIGNUPS_ENDPOINT } from "../../shared/contract";

/**
 * How the page sends a signup (content/site.yaml → provider.transport):
 * - `waitlist-api`: our own waitlist service, `POST /api/signups` on the site's own origin
 *   (the Worker in worker/), which stores the signup before it answers and delivers it to
 *   Klaviyo itself; the no-JavaScript form posts there too;
 * - `client-api`: Klaviyo's documented Client API (`POST /client/subscriptions/`), whose answer
 *   the page can read, so a refusal or a rate limit is reported instead of hidden;
 * - `legacy-form`: the form-urlencoded POST of Klaviyo's legacy embedded signup form, sent
 *   `no-cors`, so its answer is opaque and every completed request counts as accepted.
 */
export type SignupTransport = "waitlist-api" | "client-api" | "legacy-form";

/**
 * The transports, in the order editors are offered them: the service first (it needs the
 * site deployed to Cloudflare with its Worker), then the two that work from any static host.
 */
export const SIGNUP_TRANSPORTS = ["waitlist-api", "client-api", "legacy-form"] as const satisfies readonly SignupTransport[];

/**
 * The transport a site uses when content/site.yaml names none: Klaviyo's Client API, which
 * needs no server of our own, so a site that has not chosen the service deploys to any static host.
 */
export const DEFAULT_SIGNUP_TRANSPORT = "client-api" satisfies SignupTransport;

/** Klaviyo's Client API subscription endpoint; the public API key goes in `?company_id=`. */
export const CLIENT_API_ENDPOINT_URL = "https://a.klaviyo.com/client/subscriptions/";

/** The ajax endpoint of Klaviyo's legacy embedded signup form (answers scripts, not people). */
export const LEGACY_FORM_ENDPOINT_URL = "https://manage.kmail-lists.com/ajax/subscriptions/subscribe";

/**
 * The non-ajax endpoint of the legacy embedded form: it answers a plain form POST with a
 * page for people, so the native form posts here when JavaScript is not running.
 */
export const NO_SCRIPT_FORM_URL = "https://manage.kmail-lists.com/subscriptions/subscribe";

/**
 * The endpoint a transport's script sends to when nothing overrides it.
 * @returns an absolute URL for Klaviyo's transports, the path SIGNUPS_ENDPOINT for the service
 */
export function defaultEndpointUrl(transport: SignupTransport): string {
  if (transport === "waitlist-api") return SIGNUPS_ENDPOINT;
  return transport === "client-api" ? CLIENT_API_ENDPOINT_URL : LEGACY_FORM_ENDPOINT_URL;
}

/**
 * Where the form posts for visitors without JavaScript when nothing overrides it: the service
 * itself (it answers a form post with a redirect back to the site), or Klaviyo's non-ajax legacy endpoint.
 */
export function defaultNoScriptFormUrl(transport: SignupTransport): string {
  return transport === "waitlist-api" ? SIGNUPS_ENDPOINT : NO_SCRIPT_FORM_URL;
}
