/** Where each transport sends signups by default; no dependencies, so the build (CSP, schema) and the page share it. */
import { SIGNUPS_ENDPOINT } from "../../shared/contract";

/** How the page sends a signup (`provider.transport`; docs/api.md "Signups: Klaviyo transports and what a visitor sees"). */
export type SignupTransport = "waitlist-api" | "client-api" | "legacy-form";

/** In the order editors are offered them: the service (needs Cloudflare), then the two for any static host. */
export const SIGNUP_TRANSPORTS = ["waitlist-api", "client-api", "legacy-form"] as const satisfies readonly SignupTransport[];

/** The default transport needs no server of our own, so a site that has not chosen the service deploys anywhere. */
export const DEFAULT_SIGNUP_TRANSPORT = "client-api" satisfies SignupTransport;

/** Klaviyo's Client API subscription endpoint; the public API key goes in `?company_id=`. */
export const CLIENT_API_ENDPOINT_URL = "https://a.klaviyo.com/client/subscriptions/";

/** The ajax endpoint of Klaviyo's legacy embedded signup form (answers scripts, not people). */
export const LEGACY_FORM_ENDPOINT_URL = "https://manage.kmail-lists.com/ajax/subscriptions/subscribe";

/** The legacy form's non-ajax endpoint answers a plain POST with a page for people: the no-JavaScript form's target. */
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
