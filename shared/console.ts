/**
 * The operator's console's wire contract, spoken by the `/console/` page, the Worker's `/api/console/*` routes and
 * `npm run waitlist` alike: paths, the actions and their error codes; the documents are zod schemas in
 * shared/api/console.ts. Every request is checked against Cloudflare Access (the `Cf-Access-Jwt-Assertion` JWT);
 * errors are JSON:API documents (shared/api/errors.ts).
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
/** POST an ActionRequest: one person's own stored fields, as a download (PersonExport); an audited action. */
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

/**
 * What an operator may do, from Access (worker/src/console/access.ts): a `viewer` sees the dashboard, people, the review
 * queue and the audit log; an `operator` also acts on people, exports their data and commits or records a draw.
 */
export const CONSOLE_ROLES = ["viewer", "operator"] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/**
 * An address as a role may read it: whole for an operator, who acts on people and exports their data; masked for a
 * viewer, who needs to tell people apart, not to write to them: the inbox's first character, "•••", then the domain
 * ("j•••@example.com").
 */
export function addressFor(role: ConsoleRole, email: string): string {
  if (role === "operator") return email;
  const at = email.lastIndexOf("@");
  return at <= 0 ? "•••" : `${Array.from(email.slice(0, at))[0]}•••${email.slice(at)}`;
}

/** The audit_log actions of a Klaviyo deletion job's outcome, written by the delivery queue after an erase. */
/** The audit log's action of an operator reading a person's record (their page in the console). */
export const PERSON_VIEWED_ACTION = "person_viewed";

export const ERASURE_AUDIT_ACTIONS = { done: "erasure_done", refused: "erasure_refused" } as const;

/** The audit log's `operator` of what the Worker does by itself (a deletion job's outcome). */
export const ERASURE_AUDIT_OPERATOR = "worker:klaviyo-deletion-job";

/** The longest reason an action takes (characters); one is always required. */
export const REASON_MAX_LENGTH = 500;

/** Error codes a console client branches on (JSON:API `code`). */
export const CONSOLE_ERROR_CODE = {
  /** 401: no `Cf-Access-Jwt-Assertion` (and no local operator). */
  accessTokenMissing: "access_token_missing",
  /** 401: the JWT's signature, expiry, issuer or form does not verify. */
  accessTokenInvalid: "access_token_invalid",
  /** 403: a valid JWT for another Access application (audience) or without an identity. */
  accessDenied: "access_denied",
  /** 403: a viewer asked for what only an operator may do (an action, an export, the draw). */
  operatorRoleRequired: "operator_role_required",
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
