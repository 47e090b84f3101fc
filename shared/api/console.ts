/**
 * The operator's console's documents (`/api/console/*`) as zod schemas: each endpoint's query, path and body, and
 * every answer. Paths, actions and error codes are constants in shared/console.ts. A refusal is a JSON:API error
 * document (errors.ts); a bad query or path parameter is 400 `parameter_invalid`, a bad reason 400 `reason_invalid`.
 */
import { z } from "zod";
import { CONSOLE_ERROR_CODE, CONSOLE_ROLES, DASHBOARD_RANGES, REASON_MAX_LENGTH } from "../console";
import { reasonProblem, type ReasonProblem } from "../console-reason";
import { SIGNUP_FIELD_MAX_LENGTH } from "../validation";

/** What a developer reads (the error's `detail`) for each way a reason is refused; the console shows its own words. */
export const REASON_DETAIL: Record<ReasonProblem, string> = {
  required: "A reason is required.",
  tooLong: `The reason may be at most ${REASON_MAX_LENGTH} characters.`,
  controlCharacter: "The reason may not hold control characters (line breaks, tabs).",
  namesAddress: "The reason may not hold an e-mail address, spelled out or not: it is kept in the audit log for good.",
  namesNumber: "The reason may not hold a phone number or another run of 7 or more digits: it is kept in the audit log for good.",
  namesPerson: "The reason may not name the person it is about, nor give their referral code: it is kept in the audit log for good.",
};

/** A reason as an action takes it (shared/console-reason.ts), trimmed; a refusal carries `reason_invalid`. */
const Reason = z
  .string({ error: REASON_DETAIL.required })
  .superRefine((reason, context) => {
    const problem = reasonProblem(reason);
    if (problem) context.addIssue({ code: "custom", message: REASON_DETAIL[problem], params: { code: CONSOLE_ERROR_CODE.reasonInvalid } });
  })
  .transform((reason) => reason.trim());

/** A keyset cursor: the `next` of the page before, a positive integer. */
const Cursor = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, { error: "takes the `next` cursor of the page before." })
  .transform(Number)
  .refine(Number.isSafeInteger, { error: "takes the `next` cursor of the page before." });

/** GET /api/console/dashboard's query. */
export const DashboardQuery = z.strictObject({
  range: z.enum(DASHBOARD_RANGES, { error: `range must be one of ${DASHBOARD_RANGES.join(", ")}.` }).optional(),
});
export type DashboardQuery = z.input<typeof DashboardQuery>;

/** GET /api/console/people's query: one address in any spelling, or a referral code. */
export const PeopleQuery = z.strictObject({
  q: z
    .string({ error: "give one address or referral code." })
    .trim()
    .min(1, { error: "give one address or referral code." })
    .max(SIGNUP_FIELD_MAX_LENGTH.email, { error: "give one address or referral code." }),
});
export type PeopleQuery = z.input<typeof PeopleQuery>;

/** GET /api/console/review's and /api/console/audit's query: the page before's `next`, absent for the first page. */
export const PageQuery = z.strictObject({ before: Cursor.optional() });
export type PageQuery = z.input<typeof PageQuery>;

/** A person's path parameter (`/api/console/people/:id…`). */
export const PersonParams = z.object({ id: z.string() });
export type PersonParams = z.infer<typeof PersonParams>;

/** The query of a route that takes no parameter (the session, a person's page). */
export const NoQuery = z.strictObject({});

/** POST body of every action, the export of a person's data among them. */
export const ActionRequest = z.object({
  /** Why, in the operator's words: required, at most REASON_MAX_LENGTH characters, no control characters. */
  reason: Reason,
});
export type ActionRequest = z.input<typeof ActionRequest>;

/** GET /api/console/session. */
export const SessionAnswer = z.object({
  /** The operator's identity from the Access JWT (its `email`, or a service token's `common_name`). */
  operator: z.string(),
  /** true on `npm start`, where a local operator is signed in without Access: the page shows a banner. */
  local: z.boolean(),
  /** What they may do: `viewer` looks, `operator` also acts (the page offers no action to a viewer). */
  role: z.enum(CONSOLE_ROLES),
});
export type SessionAnswer = z.infer<typeof SessionAnswer>;

const Count = z.int().min(0);
const Timestamp = z.string();

/** One day's signups by source; `date` is YYYY-MM-DD in the site's time zone. */
export const DashboardDay = z.object({
  date: z.string(),
  /** Signups per source key (DashboardSource.key); a source with none that day is absent. */
  signups: z.record(z.string(), Count),
});
export type DashboardDay = z.infer<typeof DashboardDay>;

/** A source the dashboard stacks by: the site, each campaign page, and anything else (an older build's source). */
export const DashboardSource = z.object({
  /** Klaviyo's custom source of the page (service-settings.json: signupPages), or "" for signups without one. */
  key: z.string(),
  /** The page's path, e.g. `/spring/`; null for signups without a known page. */
  path: z.string().nullable(),
});
export type DashboardSource = z.infer<typeof DashboardSource>;

/** A ranked value with its count. */
export const CountedValue = z.object({ value: z.string(), signups: Count });
export type CountedValue = z.infer<typeof CountedValue>;

/** The funnel over the range; each share is of the step before, 0…1. */
export const Funnel = z.object({
  signedUp: Count,
  confirmed: Count,
  /** Came through a referral link. */
  referred: Count,
  /** Their referral counted (credited to the referrer). */
  referralCounted: Count,
  /** Counted referrals per person who signed up: referralCounted / signedUp. */
  viralCoefficient: z.number().min(0),
  /** Invitations made in the range (launch day), and of all invitations, those accepted in the range. */
  invited: Count,
  accepted: Count,
});
export type Funnel = z.infer<typeof Funnel>;

/** Delivery to Klaviyo, over everyone (not the range): how many rows are in each state now. */
export const DeliveryHealth = z.object({
  pending: Count,
  delivered: Count,
  refused: Count,
  demo: Count,
  /** created_at of the oldest pending signup (ISO 8601 UTC), or null when none is pending. */
  oldestPendingAt: Timestamp.nullable(),
  /** Messages that reached the dead-letter queue, ever. */
  deadLettered: Count,
  /** Klaviyo deletion jobs of erased people that Klaviyo refused (a 4xx: the key's scope, or the address), not done yet. */
  erasuresRefused: Count,
  /** Deletion jobs owed for over a day and not refused: Klaviyo has not taken them yet. */
  erasuresOverdue: Count,
});
export type DeliveryHealth = z.infer<typeof DeliveryHealth>;

/** One of the top referrers. */
export const ReferrerSummary = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  referralCode: z.string(),
  referrals: Count,
  flags: z.array(z.string()),
  disqualified: z.boolean(),
});
export type ReferrerSummary = z.infer<typeof ReferrerSummary>;

/** GET /api/console/dashboard. */
export const DashboardAnswer = z.object({
  range: z.enum(DASHBOARD_RANGES),
  /** The IANA time zone the days are in (the content's launch time zone). */
  timeZone: z.string(),
  /** Every day of the range in order, days without signups included (for "all": from the first signup's day). */
  days: z.array(DashboardDay),
  sources: z.array(DashboardSource),
  /** The most common utm_source and utm_campaign values in the range, most first (at most 10 each). */
  utmSources: z.array(CountedValue).max(10),
  utmCampaigns: z.array(CountedValue).max(10),
  /**
   * Signups in the range with a utm_source (utm_campaign) value not listed: beyond the first 10, or one the rollups
   * count only together (the values seen after a day's cap).
   */
  utmSourcesOther: Count,
  utmCampaignsOther: Count,
  funnel: Funnel,
  delivery: DeliveryHealth,
  /** At most 10, most referrals first, disqualified people included (marked). */
  topReferrers: z.array(ReferrerSummary).max(10),
});
export type DashboardAnswer = z.infer<typeof DashboardAnswer>;

/** One row of a search or the review queue. */
export const PersonSummary = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  referralCode: z.string().nullable(),
  createdAt: Timestamp,
  confirmedAt: Timestamp.nullable(),
  disqualifiedAt: Timestamp.nullable(),
  flags: z.array(z.string()),
  /** Why their referral is held for review (`code_limit`, `domain_limit`), or null. */
  referralHold: z.string().nullable(),
});
export type PersonSummary = z.infer<typeof PersonSummary>;

/** GET /api/console/people?q=…: at most one person by address, one by referral code. */
export const PeopleAnswer = z.object({ people: z.array(PersonSummary).max(2) });
export type PeopleAnswer = z.infer<typeof PeopleAnswer>;

/** GET /api/console/review: oldest first; `next` is the `before` cursor of the following page, or null. */
export const ReviewAnswer = z.object({ people: z.array(PersonSummary), next: z.string().nullable() });
export type ReviewAnswer = z.infer<typeof ReviewAnswer>;

/** One audit_log row; never an address or a name. */
export const AuditEntry = z.object({
  id: z.int(),
  at: Timestamp,
  operator: z.string(),
  action: z.string(),
  personId: z.string().nullable(),
  reason: z.string(),
  /** What changed, as it was and as it became (JSON values), or null. */
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** GET /api/console/audit: newest first; `next` is the `before` cursor of the following page, or null. */
export const AuditAnswer = z.object({ entries: z.array(AuditEntry), next: z.string().nullable() });
export type AuditAnswer = z.infer<typeof AuditAnswer>;

/** One person the person referred. */
export const ReferredPerson = PersonSummary.extend({
  /** Their referral was credited to this person. */
  counted: z.boolean(),
});
export type ReferredPerson = z.infer<typeof ReferredPerson>;

/** GET /api/console/people/:id. */
export const PersonAnswer = PersonSummary.extend({
  source: z.string().nullable(),
  /** The UTM and attribution profile properties they came with (contract.ts: ATTRIBUTION_PROPERTIES). */
  properties: z.record(z.string(), z.string()),
  delivery: z.object({
    state: z.enum(["pending", "delivered", "refused", "demo"]),
    attempts: Count,
    error: z.string().nullable(),
    deliveredAt: Timestamp.nullable(),
  }),
  /** Place in line (1 = first); null with the referral program off. */
  position: z.int().min(1).nullable(),
  referrals: Count,
  entries: Count,
  reviewedAt: Timestamp.nullable(),
  /** Who referred them, or null. */
  referredBy: z.object({ id: z.string(), referralCode: z.string().nullable() }).nullable(),
  /** The first PERSON_REFERRED_SHOWN people they referred, oldest first, and how many there are in all. */
  referred: z.array(ReferredPerson),
  referredTotal: Count,
  /** Every console action taken on them, newest first. */
  audit: z.array(AuditEntry),
});
export type PersonAnswer = z.infer<typeof PersonAnswer>;

/** An audit entry as a person's export gives it: what was done to them and when (no operator, reason or values). */
export const ExportedAuditEntry = AuditEntry.pick({ id: true, at: true, action: true });
export type ExportedAuditEntry = z.infer<typeof ExportedAuditEntry>;

/**
 * POST /api/console/people/:id/export: the person's own stored fields by column name (EXPORT_COLUMNS of
 * worker/src/console/people.ts; never a hash, a token, the comparison key or the fair-play marks about other people's
 * networks), and what was done to them.
 */
export const PersonExport = z.object({
  exportedAt: Timestamp,
  person: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  audit: z.array(ExportedAuditEntry),
});
export type PersonExport = z.infer<typeof PersonExport>;

/** An action's answer: the person as they are now (null once erased) and the audit entry it wrote. */
export const ActionAnswer = z.object({ person: PersonAnswer.nullable(), audit: AuditEntry });
export type ActionAnswer = z.infer<typeof ActionAnswer>;
