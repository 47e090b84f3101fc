/**
 * The waitlist API's constants, spoken by the page and the Worker alike: its paths, media types, field names and the
 * error codes a client branches on. The documents themselves are zod schemas in shared/api/; a page imports only their
 * types from there (`import type`), so zod stays out of its JavaScript.
 */
import type { ValidationFailure } from "./validation";

/** POST: one signup. */
export const SIGNUPS_ENDPOINT = "/api/signups";
/** GET with `Authorization: Bearer <status token>`: one person's standing. */
export const STATUS_ENDPOINT = "/api/status";
/** GET: the top referrers. */
export const LEADERBOARD_ENDPOINT = "/api/leaderboard";
/** PUT with `Authorization: Bearer <status token>` and a LeaderboardChoice: show or hide that person on the leaderboard. */
export const STATUS_LEADERBOARD_ENDPOINT = "/api/status/leaderboard";

/** A request body from the page's script, and every successful answer. */
export const JSON_CONTENT_TYPE = "application/json";
/** A request body from the no-JavaScript form. */
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";
/** JSON:API's media type: every error answer (and Klaviyo's own API). */
export const JSON_API_CONTENT_TYPE = "application/vnd.api+json";

/** The UTM parameters a campaign link carries, sent as profile properties under the same names. */
export const UTM_PARAMETERS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

/**
 * Every profile property the page sends (`properties`): the UTM parameters, the landing page's path and the referring
 * site's origin. The service takes no other name, so a stranger cannot write into the brand's Klaviyo profiles.
 */
export const ATTRIBUTION_PROPERTIES = [...UTM_PARAMETERS, "landing_page", "referrer"] as const;

/** One of ATTRIBUTION_PROPERTIES. */
export type AttributionProperty = (typeof ATTRIBUTION_PROPERTIES)[number];

/**
 * The no-JavaScript form's field names. The names differ from the JSON members because the form also posts to
 * Klaviyo's legacy endpoint, which reads `first_name` and `last_name`; Turnstile's widget names its own field.
 */
export const FORM_FIELDS = {
  email: "email",
  firstName: "first_name",
  lastName: "last_name",
  source: "source",
  turnstileToken: "cf-turnstile-response",
  /** The path of the page that posted, where a failure leads back to. */
  page: "page",
} as const;

/** The honeypot: a field people never see, so only a bot fills it in. The same name in JSON and in the form. */
export const HONEYPOT_FIELD = "website";

/** The error code of each shared validation failure; its pointer is the failure's field (validation.ts: FAILURE_FIELD). */
export const VALIDATION_ERROR_CODE = {
  emailRequired: "email_required",
  firstNameRequired: "first_name_required",
  lastNameRequired: "last_name_required",
  invalidEmail: "invalid_email",
  firstNameInvalid: "first_name_invalid",
  lastNameInvalid: "last_name_invalid",
} as const satisfies Record<ValidationFailure, string>;

/**
 * The action the signup form's Turnstile widget declares (`action`), which siteverify reports back with the hostname
 * the widget was solved on: the Worker takes only a token solved for this action on the site's own host, so a token
 * farmed on another page of the same site key is refused.
 */
export const TURNSTILE_SIGNUP_ACTION = "signup";

/** The 403 code when Cloudflare Turnstile did not verify the visitor. */
export const TURNSTILE_FAILED_CODE = "turnstile_failed";
