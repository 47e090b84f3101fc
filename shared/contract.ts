/**
 * The waitlist API's wire contract, spoken by the page and the Worker alike: its paths, media types, the documents a
 * request carries and an answer returns, and the error codes a client branches on. Types and constants only.
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

/** The JSON document POST /api/signups takes from the page's script. */
export interface SignupRequest {
  email: string;
  firstName: string;
  lastName: string;
  /** Klaviyo's "custom source" of the page; the service's default when absent. */
  source?: string;
  /** Klaviyo profile properties: UTM and attribution values. */
  properties: Partial<Record<AttributionProperty, string>>;
  /** Cloudflare Turnstile's token for this attempt. */
  turnstileToken?: string;
  /** The referral code of the link the visitor came by. */
  ref?: string;
}

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

/** One member of a JSON:API `errors` array, as the service writes it. */
export interface ErrorObject {
  /** The HTTP status, as a string (JSON:API). */
  status: string;
  /** Stable, snake_case: what clients branch on, e.g. `email_required`. */
  code: string;
  /** Plain English for a developer; never shown to a visitor. */
  detail: string;
  /** Klaviyo's errors carry a title too. */
  title?: string;
  /** A JSON pointer into the request document (`/email`), or a query parameter. */
  source?: { pointer?: string; parameter?: string };
}

/** A JSON:API error document. */
export interface ErrorDocument {
  errors: ErrorObject[];
}

/** The error code of each shared validation failure; its pointer is the failure's field (validation.ts: FAILURE_FIELD). */
export const VALIDATION_ERROR_CODE = {
  emailRequired: "email_required",
  firstNameRequired: "first_name_required",
  lastNameRequired: "last_name_required",
  invalidEmail: "invalid_email",
  firstNameInvalid: "first_name_invalid",
  lastNameInvalid: "last_name_invalid",
} as const satisfies Record<ValidationFailure, string>;

/** The 403 code when Cloudflare Turnstile did not verify the visitor. */
export const TURNSTILE_FAILED_CODE = "turnstile_failed";

/** A person's standing in the referral program: GET /api/status's answer, never a signup's. */
export interface StandingAnswer {
  referralCode: string;
  /** `<siteUrl>/?ref=<code>` */
  referralUrl: string;
  /** Place in line, 1 = first. */
  position: number;
  /** Counted referrals. */
  referrals: number;
  /** Giveaway entries: 1 + entriesPerReferral × referrals. */
  entries: number;
  /** `<siteUrl>/status/#t=<token>`: the link the request's own token makes. */
  statusUrl: string;
}

/**
 * POST /api/signups's 202 answer, one document for everyone: a newcomer, an address already on the list and a bot
 * caught by the honeypot get these very bytes, so a stranger learns nothing about anyone from it. A person's standing
 * (place in line, referral link, status link) reaches only their inbox.
 */
export type SignupAnswer = { accepted: true };

/** The only 202 answer of POST /api/signups. */
export const SIGNUP_ACCEPTED: SignupAnswer = { accepted: true };

/** GET /api/status's answer: the standing, and whether the person chose to be shown on the leaderboard. */
export type StatusAnswer = StandingAnswer & LeaderboardChoiceAnswer;

/** PUT /api/status/leaderboard's body. */
export interface LeaderboardChoice {
  /** true: show me on the public leaderboard; false: hide me (the default until a person chooses). */
  shown: boolean;
}

/** PUT /api/status/leaderboard's answer, and part of GET /api/status's. */
export interface LeaderboardChoiceAnswer {
  leaderboardShown: boolean;
}

/** One row of GET /api/leaderboard. */
export interface LeaderboardEntry {
  /** 1 = most counted referrals (ties: the earlier signup first). */
  rank: number;
  /** First name and last initial, "Jordan S."; never an address. */
  name: string;
  referrals: number;
}

/** GET /api/leaderboard's answer. */
export interface LeaderboardAnswer {
  entries: LeaderboardEntry[];
}
