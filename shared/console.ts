/**
 * The operator's console's wire contract, spoken by the `/console/` page, the Worker's `/api/console/*` routes and
 * `npm run waitlist` alike: paths, the documents each answer returns, the actions and their error codes. Types and
 * constants only. Every request is checked against Cloudflare Access (the `Cf-Access-Jwt-Assertion` JWT); errors are
 * JSON:API documents (contract.ts: ErrorDocument).
 */

/** Every console endpoint starts here. */
export const CONSOLE_API = "/api/console";

/** GET: who is signed in (SessionAnswer). */
export const CONSOLE_SESSION_ENDPOINT = `${CONSOLE_API}/session`;
/** GET `?range=<DashboardRange>`: the dashboard (DashboardAnswer). */
export const CONSOLE_DASHBOARD_ENDPOINT = `${CONSOLE_API}/dashboard`;
/** GET `?q=<an address in any spelling, or a referral code>`: matching people (PeopleAnswer). */
export const CONSOLE_PEOPLE_ENDPOINT = `${CONSOLE_API}/people`;
/** GET `?before=<the oldest entry's id shown>`: the flagged or held people not reviewed yet, oldest first (ReviewAnswer). */
export const CONSOLE_REVIEW_ENDPOINT = `${CONSOLE_API}/review`;
/** GET `?before=<audit id>`: the audit log, newest first (AuditAnswer). */
export const CONSOLE_AUDIT_ENDPOINT = `${CONSOLE_API}/audit`;

/** GET: one person (PersonAnswer). */
export const personEndpoint = (id: string): string => `${CONSOLE_PEOPLE_ENDPOINT}/${encodeURIComponent(id)}`;
/** GET: every stored field of one person, as a download (PersonExport); the export is itself an audited action. */
export const personExportEndpoint = (id: string): string => `${personEndpoint(id)}/export`;
/** POST an ActionRequest: one action on one person (ActionAnswer). */
export const personActionEndpoint = (id: string, action: PersonAction): string => `${personEndpoint(id)}/${action}`;

/** The page size of the review queue and the audit log (rows). */
export const CONSOLE_PAGE_SIZE = 50;

/**
 * How many of a person's referred people their page lists (rows): few enough that a lookup reads at most 100 rows
 * with their place in line; the page says how many there are in all.
 */
export const PERSON_REFERRED_SHOWN = 20;

/** The dashboard's ranges: the last 7 or 30 days (today included, in the site's time zone), or everything. */
export const DASHBOARD_RANGES = ["7d", "30d", "all"] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

/**
 * What an operator can do to one person; each takes a reason and writes one audit_log entry in the same D1 batch.
 * - `disqualify`: out of the giveaway and off the leaderboard; the credit they earned their referrer is withdrawn.
 * - `requalify`: undoes a disqualification, the credit restored if it still qualifies.
 * - `approve`: reviewed and found fair; a held referral is credited (it counts from now on).
 * - `send-again`: a refused or stuck signup goes back to pending and is queued for delivery at once.
 * - `erase`: the row, its place in the rank tree, token and IP hash are gone; Klaviyo is asked to delete the profile.
 */
export const PERSON_ACTIONS = ["disqualify", "requalify", "approve", "send-again", "erase"] as const;
export type PersonAction = (typeof PERSON_ACTIONS)[number];

/** The audit_log `action` of each console or command-line action (draws write `draw_commit`, `draw_run`). */
export const AUDIT_ACTIONS = {
  disqualify: "disqualify",
  requalify: "requalify",
  approve: "approve",
  "send-again": "send_again",
  erase: "erase",
  export: "export_person",
} as const;

/** The longest reason an action takes (characters); one is always required. */
export const REASON_MAX_LENGTH = 500;

/** POST body of every action. */
export interface ActionRequest {
  /** Why, in the operator's words: required, at most REASON_MAX_LENGTH characters, no control characters. */
  reason: string;
}

/** An action's answer: the person as they are now (null once erased) and the audit entry it wrote. */
export interface ActionAnswer {
  person: PersonAnswer | null;
  audit: AuditEntry;
}

/** Error codes a console client branches on (JSON:API `code`). */
export const CONSOLE_ERROR_CODE = {
  /** 401: no `Cf-Access-Jwt-Assertion` (and no local operator). */
  accessTokenMissing: "access_token_missing",
  /** 401: the JWT's signature, expiry, issuer or form does not verify. */
  accessTokenInvalid: "access_token_invalid",
  /** 403: a valid JWT for another Access application (audience) or without an identity. */
  accessDenied: "access_denied",
  /** 503: production without ACCESS_TEAM_DOMAIN and ACCESS_AUD (fail closed). */
  notConfigured: "not_configured",
  /** 404: no person with that id (erased, or never there). */
  personNotFound: "person_not_found",
  /** 400: the reason is missing, too long or holds control characters. */
  reasonInvalid: "reason_invalid",
  /** 400: the range or query parameter is not one the endpoint takes. */
  parameterInvalid: "parameter_invalid",
  /** 409: the action does not apply to the person as they are (requalify someone not disqualified, …). */
  actionNotApplicable: "action_not_applicable",
} as const;

/** GET /api/console/session. */
export interface SessionAnswer {
  /** The operator's identity from the Access JWT (its `email`, or a service token's `common_name`). */
  operator: string;
  /** true on `npm start`, where a local operator is signed in without Access: the page shows a banner. */
  local: boolean;
}

/** One day's signups by source; `date` is YYYY-MM-DD in the site's time zone. */
export interface DashboardDay {
  date: string;
  /** Signups per source key (DashboardSource.key); a source with none that day is absent. */
  signups: Record<string, number>;
}

/** A source the dashboard stacks by: the site, each campaign page, and anything else (an older build's source). */
export interface DashboardSource {
  /** Klaviyo's custom source of the page (service-settings.json: signupPages), or "" for signups without one. */
  key: string;
  /** The page's path, e.g. `/spring/`; null for signups without a known page. */
  path: string | null;
}

/** A ranked value with its count. */
export interface CountedValue {
  value: string;
  signups: number;
}

/** The funnel over the range; each share is of the step before, 0…1. */
export interface Funnel {
  signedUp: number;
  confirmed: number;
  /** Came through a referral link. */
  referred: number;
  /** Their referral counted (credited to the referrer). */
  referralCounted: number;
  /** Counted referrals per person who signed up: referralCounted / signedUp. */
  viralCoefficient: number;
}

/** Delivery to Klaviyo, over everyone (not the range): how many rows are in each state now. */
export interface DeliveryHealth {
  pending: number;
  delivered: number;
  refused: number;
  demo: number;
  /** created_at of the oldest pending signup (ISO 8601 UTC), or null when none is pending. */
  oldestPendingAt: string | null;
  /** Messages that reached the dead-letter queue, ever. */
  deadLettered: number;
}

/** One of the top referrers. */
export interface ReferrerSummary {
  id: string;
  firstName: string;
  lastName: string;
  referralCode: string;
  referrals: number;
  flags: string[];
  disqualified: boolean;
}

/** GET /api/console/dashboard. */
export interface DashboardAnswer {
  range: DashboardRange;
  /** The IANA time zone the days are in (the content's launch time zone). */
  timeZone: string;
  /** Every day of the range in order, days without signups included (for "all": from the first signup's day). */
  days: DashboardDay[];
  sources: DashboardSource[];
  /** The most common utm_source and utm_campaign values in the range, most first (at most 10 each). */
  utmSources: CountedValue[];
  utmCampaigns: CountedValue[];
  /**
   * Signups in the range with a utm_source (utm_campaign) value not listed: beyond the first 10, or one the rollups
   * count only together (the values seen after a day's cap).
   */
  utmSourcesOther: number;
  utmCampaignsOther: number;
  funnel: Funnel;
  delivery: DeliveryHealth;
  /** At most 10, most referrals first, disqualified people included (marked). */
  topReferrers: ReferrerSummary[];
}

/** One row of a search or the review queue. */
export interface PersonSummary {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  referralCode: string | null;
  createdAt: string;
  confirmedAt: string | null;
  disqualifiedAt: string | null;
  flags: string[];
  /** Why their referral is held for review (`code_limit`, `domain_limit`), or null. */
  referralHold: string | null;
}

/** GET /api/console/people?q=…: at most one person by address, one by referral code. */
export interface PeopleAnswer {
  people: PersonSummary[];
}

/** GET /api/console/review: oldest first; `next` is the `before` cursor of the following page, or null. */
export interface ReviewAnswer {
  people: PersonSummary[];
  next: string | null;
}

/** One person the person referred. */
export interface ReferredPerson extends PersonSummary {
  /** Their referral was credited to this person. */
  counted: boolean;
}

/** GET /api/console/people/:id. */
export interface PersonAnswer extends PersonSummary {
  source: string | null;
  /** The UTM and attribution profile properties they came with (contract.ts: ATTRIBUTION_PROPERTIES). */
  properties: Record<string, string>;
  delivery: { state: "pending" | "delivered" | "refused" | "demo"; attempts: number; error: string | null; deliveredAt: string | null };
  /** Place in line (1 = first); null with the referral program off. */
  position: number | null;
  referrals: number;
  entries: number;
  reviewedAt: string | null;
  /** Who referred them, or null. */
  referredBy: { id: string; referralCode: string | null } | null;
  /** The first PERSON_REFERRED_SHOWN people they referred, oldest first, and how many there are in all. */
  referred: ReferredPerson[];
  referredTotal: number;
  /** Every console action taken on them, newest first. */
  audit: AuditEntry[];
}

/** GET /api/console/people/:id/export: every stored column of the row, by column name, and its audit entries. */
export interface PersonExport {
  exportedAt: string;
  person: Record<string, string | number | null>;
  audit: AuditEntry[];
}

/** One audit_log row; never an address or a name. */
export interface AuditEntry {
  id: number;
  at: string;
  operator: string;
  action: string;
  personId: string | null;
  reason: string;
  /** What changed, as it was and as it became (JSON values), or null. */
  before: unknown;
  after: unknown;
}

/** GET /api/console/audit: newest first; `next` is the `before` cursor of the following page, or null. */
export interface AuditAnswer {
  entries: AuditEntry[];
  next: string | null;
}
