/**
 * Every route of the waitlist API with the schemas of what it reads and answers, and every status it may answer: the
 * source of the OpenAPI description (openapi.ts). The service tests hold each answer they receive to it.
 */
import type { z } from "zod";
import {
  CONSOLE_API,
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_REVIEW_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
  PERSON_ACTIONS,
} from "../console";
import {
  FORM_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  LEADERBOARD_ENDPOINT,
  SIGNUPS_ENDPOINT,
  STATUS_ENDPOINT,
  STATUS_LEADERBOARD_ENDPOINT,
} from "../contract";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, DRAW_STATE_ENDPOINT, STATUS_DRAW_ENDPOINT } from "../giveaway/commit";
import {
  ActionAnswer,
  ActionRequest,
  AuditAnswer,
  DashboardAnswer,
  DashboardQuery,
  PageQuery,
  PeopleAnswer,
  PeopleQuery,
  PersonAnswer,
  PersonExport,
  PersonParams,
  NoQuery,
  ReviewAnswer,
  SessionAnswer,
} from "./console";
import {
  BATCH_ACTIONS,
  CHECK_IN_ENDPOINT,
  INVITE_ACCEPT_ENDPOINT,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
  LAUNCH_SCHEDULE_ENDPOINT,
  PERSON_INVITATION_ACTIONS,
} from "../launch";
import {
  BatchActionAnswer,
  BatchAnswer,
  BatchParams,
  BatchRequest,
  CheckInAnswer,
  CheckInRequest,
  InvitationAnswer,
  LaunchAnswer,
  LaunchPreview,
  PersonInvitationAnswer,
  PreviewQuery,
  ScheduleAnswer,
  ScheduleRequest,
} from "./launch";
import { CommitRequest, Commitment, DrawPlace, DrawState } from "./draw";
import { CONFIRMATION_WEBHOOK_PATH, ConfirmationAnswer, ConfirmationRequest } from "./hooks";
import { LeaderboardAnswer, LeaderboardChoice, LeaderboardChoiceAnswer, StatusAnswer } from "./referrals";
import { SignupAnswer, SignupForm, SignupRequest } from "./signups";

/** GET: the public API's OpenAPI description (docs/openapi.json). */
export const OPENAPI_ENDPOINT = "/api/openapi.json";

/** GET: the console API's OpenAPI description (docs/openapi-console.json), on the console's host behind Access. */
export const CONSOLE_OPENAPI_ENDPOINT = `${CONSOLE_API}/openapi.json`;

/** How a route's caller proves who it is (OpenAPI security schemes, openapi.ts). */
export type Security = "statusToken" | "webhookSecret" | "access" | "checkInSecret";

/** One success answer: its document's schema, or none (a redirect). */
export interface Answer {
  description: string;
  schema?: z.ZodType;
}

export interface ApiRoute {
  /** OpenAPI's operationId. */
  id: string;
  method: "get" | "post" | "put";
  /** The path as Hono routes it (`:id` for a path parameter). */
  path: string;
  summary: string;
  /** The capability (shared/api/<tag>.ts). */
  tag: "signups" | "referrals" | "hooks" | "console" | "draw" | "launch" | "openapi";
  security?: Security;
  /** Served by a development Worker only (404 elsewhere): in neither OpenAPI description. */
  development?: true;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The body's schema by media type. */
  body?: Partial<Record<typeof JSON_CONTENT_TYPE | typeof FORM_CONTENT_TYPE, z.ZodType>>;
  /** Success (and redirect) answers by status. */
  answers: Record<number, Answer>;
  /** The error statuses it may answer besides 405 and 500 (every route's), each with a JSON:API error document. */
  errors: number[];
}

/** What each error status means on this API. */
export const ERROR_STATUSES: Record<number, string> = {
  400: "The request's body, query or path parameter is refused (`source` points at it).",
  401: "No credentials, or credentials the service does not take.",
  403: "Refused: a page of another origin or site, a failed Turnstile check, an Access token for another application, or a viewer asking to act.",
  404: "No such resource (or the referral program is off, or a console route asked for on another host than the console's).",
  405: "The path does not take this method (`Allow` lists those it takes).",
  409: "The request does not apply to the resource as it is now.",
  410: "The resource is gone for good (an invitation expired or revoked).",
  413: "The body is over 8 KB.",
  415: "The body is of another media type (`Accept-Post` lists those taken).",
  429: "Too many requests from this network (`Retry-After`).",
  500: "The request could not be handled.",
  502: "An upstream service (the drand relay) answered something the service refuses.",
  503: "The service is not configured, or briefly unavailable (`Retry-After`).",
};

/** 429 too: every status token is checked under the status rate limit (worker/src/referrals/status.ts). */
const STATUS_TOKEN_ERRORS = [401, 403, 404, 429, 503];
/** 404 too: every console route is 404 on any host but the console's own (worker/src/hosts.ts). */
const CONSOLE_ERRORS = [400, 401, 403, 404, 503];
const BODY_ERRORS = [400, 413, 415];

const PERSON_ROUTE = `${CONSOLE_PEOPLE_ENDPOINT}/:id`;

export const API_ROUTES: readonly ApiRoute[] = [
  {
    id: "createSignup",
    method: "post",
    path: SIGNUPS_ENDPOINT,
    summary: "Join the waitlist (the page's JSON, or the no-JavaScript form, which is answered with redirects).",
    tag: "signups",
    body: { [JSON_CONTENT_TYPE]: SignupRequest, [FORM_CONTENT_TYPE]: SignupForm },
    answers: {
      202: { description: "Accepted (the same answer for everyone).", schema: SignupAnswer },
      303: { description: "The form's answer: to the success page, or back to its page at `#signup-error-<key>`." },
    },
    errors: [...BODY_ERRORS, 403, 429, 503],
  },
  {
    id: "getStatus",
    method: "get",
    path: STATUS_ENDPOINT,
    summary: "A person's standing, by the status token of their link.",
    tag: "referrals",
    security: "statusToken",
    answers: { 200: { description: "The standing.", schema: StatusAnswer } },
    errors: STATUS_TOKEN_ERRORS,
  },
  {
    id: "chooseLeaderboard",
    method: "put",
    path: STATUS_LEADERBOARD_ENDPOINT,
    summary: "Show or hide the person on the public leaderboard.",
    tag: "referrals",
    security: "statusToken",
    body: { [JSON_CONTENT_TYPE]: LeaderboardChoice },
    answers: { 200: { description: "The choice, stored.", schema: LeaderboardChoiceAnswer } },
    errors: [...BODY_ERRORS, ...STATUS_TOKEN_ERRORS],
  },
  {
    id: "getLeaderboard",
    method: "get",
    path: LEADERBOARD_ENDPOINT,
    summary: "The top referrers who chose to be shown.",
    tag: "referrals",
    answers: { 200: { description: "The board (cached for a minute).", schema: LeaderboardAnswer } },
    errors: [403, 404, 503],
  },
  {
    id: "confirmFromKlaviyo",
    method: "post",
    path: CONFIRMATION_WEBHOOK_PATH,
    summary: "Klaviyo's flow says someone confirmed their address; they are queued for a check with Klaviyo's API.",
    tag: "hooks",
    security: "webhookSecret",
    body: { [JSON_CONTENT_TYPE]: ConfirmationRequest },
    answers: {
      200: { description: "The address is not on the waitlist.", schema: ConfirmationAnswer },
      202: { description: "Queued for the check.", schema: ConfirmationAnswer },
    },
    errors: [...BODY_ERRORS, 401, 503],
  },
  {
    id: "getSession",
    method: "get",
    path: CONSOLE_SESSION_ENDPOINT,
    summary: "Who is signed in to the console.",
    tag: "console",
    security: "access",
    query: NoQuery,
    answers: { 200: { description: "The operator.", schema: SessionAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "getDashboard",
    method: "get",
    path: CONSOLE_DASHBOARD_ENDPOINT,
    summary: "The dashboard over a range of days.",
    tag: "console",
    security: "access",
    query: DashboardQuery,
    answers: { 200: { description: "The dashboard.", schema: DashboardAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "searchPeople",
    method: "get",
    path: CONSOLE_PEOPLE_ENDPOINT,
    summary: "Find a person by any spelling of their address, or by their referral code.",
    tag: "console",
    security: "access",
    query: PeopleQuery,
    answers: { 200: { description: "At most one person by address and one by code.", schema: PeopleAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "getReviewQueue",
    method: "get",
    path: CONSOLE_REVIEW_ENDPOINT,
    summary: "The flagged or held people not reviewed yet, oldest first, a page at a time.",
    tag: "console",
    security: "access",
    query: PageQuery,
    answers: { 200: { description: "One page.", schema: ReviewAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "getAuditLog",
    method: "get",
    path: CONSOLE_AUDIT_ENDPOINT,
    summary: "The audit log, newest first, a page at a time.",
    tag: "console",
    security: "access",
    query: PageQuery,
    answers: { 200: { description: "One page.", schema: AuditAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "getPerson",
    method: "get",
    path: PERSON_ROUTE,
    summary: "One person's page.",
    tag: "console",
    security: "access",
    params: PersonParams,
    query: NoQuery,
    answers: { 200: { description: "The person.", schema: PersonAnswer } },
    errors: [...CONSOLE_ERRORS, 404],
  },
  {
    id: "exportPerson",
    method: "post",
    path: `${PERSON_ROUTE}/export`,
    summary: "One person's own stored fields, as a download: an action, with its reason (one audit entry).",
    tag: "console",
    security: "access",
    params: PersonParams,
    body: { [JSON_CONTENT_TYPE]: ActionRequest },
    answers: { 200: { description: "The export.", schema: PersonExport } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 404],
  },
  ...PERSON_ACTIONS.map((action): ApiRoute => ({
    id: `${action.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Person`,
    method: "post",
    path: `${PERSON_ROUTE}/${action}`,
    summary: `The \`${action}\` action on one person, with its reason (one audit entry).`,
    tag: "console",
    security: "access",
    params: PersonParams,
    body: { [JSON_CONTENT_TYPE]: ActionRequest },
    answers: { 200: { description: "The person as they are now (null once erased) and the audit entry.", schema: ActionAnswer } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 404, 409],
  })),
  {
    id: "commitDraw",
    method: "post",
    path: DRAW_COMMIT_ENDPOINT,
    summary: "Close a giveaway draw: freeze its entrants and commit to a future drand round.",
    tag: "draw",
    security: "access",
    body: { [JSON_CONTENT_TYPE]: CommitRequest },
    answers: { 202: { description: "Accepted: the commitment job runs; its progress as GET answers it.", schema: DrawState } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 409],
  },
  {
    id: "getLaunch",
    method: "get",
    path: LAUNCH_ENDPOINT,
    summary: "Launch day: people by state (waiting, invited, accepted, expired, revoked) and the latest batches.",
    tag: "launch",
    security: "access",
    query: NoQuery,
    answers: { 200: { description: "The funnel and the batches.", schema: LaunchAnswer } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "previewBatch",
    method: "get",
    path: LAUNCH_PREVIEW_ENDPOINT,
    summary: "Who inviting the next N would invite now: how many, first and last place, who is skipped and why.",
    tag: "launch",
    security: "access",
    query: PreviewQuery,
    answers: { 200: { description: "The preview, with the idempotency key to invite with.", schema: LaunchPreview } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "createBatch",
    method: "post",
    path: LAUNCH_BATCHES_ENDPOINT,
    summary: "Invite the next N in line, with a reason (one audit entry); the same idempotency key makes one batch.",
    tag: "launch",
    security: "access",
    body: { [JSON_CONTENT_TYPE]: BatchRequest },
    answers: {
      200: { description: "The batch this idempotency key made before.", schema: BatchAnswer },
      201: { description: "The batch, made now (its first pages chosen, the rest queued).", schema: BatchAnswer },
    },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 409],
  },
  {
    id: "setSchedule",
    method: "put",
    path: LAUNCH_SCHEDULE_ENDPOINT,
    summary: "Set, pause or resume the schedule (up to N a day at a time of day), with a reason (one audit entry).",
    tag: "launch",
    security: "access",
    body: { [JSON_CONTENT_TYPE]: ScheduleRequest },
    answers: { 200: { description: "The schedule as it is now and the audit entry.", schema: ScheduleAnswer } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS],
  },
  ...BATCH_ACTIONS.map((action): ApiRoute => ({
    id: `${action}Batch`,
    method: "post",
    path: `${LAUNCH_BATCHES_ENDPOINT}/:id/${action}`,
    summary:
      action === "pause"
        ? "Pause a batch, with a reason: it invites nobody more and holds its events not sent yet."
        : "Resume a paused batch, with a reason: it chooses on and sends what it held.",
    tag: "launch",
    security: "access",
    params: BatchParams,
    body: { [JSON_CONTENT_TYPE]: ActionRequest },
    answers: { 200: { description: "The batch as it is now and the audit entry.", schema: BatchActionAnswer } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 404, 409],
  })),
  {
    id: "getPersonInvitation",
    method: "get",
    path: `${PERSON_ROUTE}/invitation`,
    summary: "The person's latest invitation, or null while they wait.",
    tag: "launch",
    security: "access",
    params: PersonParams,
    answers: { 200: { description: "Their invitation.", schema: PersonInvitationAnswer } },
    errors: [...CONSOLE_ERRORS, 404],
  },
  ...PERSON_INVITATION_ACTIONS.map((action): ApiRoute => ({
    id: { invite: "inviteInvitation", revoke: "revokeInvitation", "resend-invitation": "resendInvitation" }[action],
    method: "post",
    path: `${PERSON_ROUTE}/${action}`,
    summary: {
      invite: "Invite one person now, with a reason (one audit entry).",
      revoke: "Revoke the person's open invitation, with a reason.",
      "resend-invitation": "Queue the open invitation's event again while Klaviyo has not taken it (the same unique_id), with a reason.",
    }[action],
    tag: "launch",
    security: "access",
    params: PersonParams,
    body: { [JSON_CONTENT_TYPE]: ActionRequest },
    answers: { 200: { description: "The invitation as it is now and the audit entry.", schema: InvitationAnswer } },
    errors: [...CONSOLE_ERRORS, ...BODY_ERRORS, 404, 409],
  })),
  {
    id: "checkIn",
    method: "post",
    path: CHECK_IN_ENDPOINT,
    summary: "The firm's product accepts an invitation by its token and learns whom it was for.",
    tag: "launch",
    security: "checkInSecret",
    body: { [JSON_CONTENT_TYPE]: CheckInRequest },
    answers: { 200: { description: "Accepted now.", schema: CheckInAnswer } },
    errors: [...BODY_ERRORS, 401, 404, 409, 410, 429, 503],
  },
  {
    id: "acceptInvitation",
    method: "post",
    path: INVITE_ACCEPT_ENDPOINT,
    summary: "Development only: the stand-in /invite/ page accepts an invitation (the same check-in, no secret).",
    tag: "launch",
    development: true,
    body: { [JSON_CONTENT_TYPE]: CheckInRequest },
    answers: { 200: { description: "Accepted now.", schema: CheckInAnswer } },
    errors: [...BODY_ERRORS, 403, 404, 409, 410],
  },
  {
    id: "getDraw",
    method: "get",
    path: DRAW_STATE_ENDPOINT,
    summary: "The published rules of the giveaway draw and its commitment job's progress.",
    tag: "draw",
    security: "access",
    answers: { 200: { description: "The rules and the job (null before a commitment).", schema: DrawState } },
    errors: CONSOLE_ERRORS,
  },
  {
    id: "runDraw",
    method: "post",
    path: DRAW_RUN_ENDPOINT,
    summary: "Draw the winners of the committed draw from its drand round, once that round is published.",
    tag: "draw",
    security: "access",
    answers: { 200: { description: "The commitment with its result, as published.", schema: Commitment } },
    errors: [...CONSOLE_ERRORS, 409, 502],
  },
  {
    id: "getDrawPlace",
    method: "get",
    path: STATUS_DRAW_ENDPOINT,
    summary: "The person's place in the published giveaway draw: their ticket, line, entries and audit path.",
    tag: "referrals",
    security: "statusToken",
    answers: { 200: { description: "Their place and its proof.", schema: DrawPlace } },
    errors: STATUS_TOKEN_ERRORS,
  },
  {
    id: "getOpenApi",
    method: "get",
    path: OPENAPI_ENDPOINT,
    summary: "This description: the public API's routes.",
    tag: "openapi",
    answers: { 200: { description: "OpenAPI 3.1." } },
    errors: [],
  },
  {
    id: "getConsoleOpenApi",
    method: "get",
    path: CONSOLE_OPENAPI_ENDPOINT,
    summary: "This description: the console API's routes.",
    tag: "openapi",
    security: "access",
    query: NoQuery,
    answers: { 200: { description: "OpenAPI 3.1." } },
    errors: CONSOLE_ERRORS,
  },
];

/** Who a route is for: the site's visitors and the services it works with, the console's operators, or development. */
export type Audience = "public" | "console" | "development";

/** A route's audience: development when flagged so, the console's when Access guards it, else public. */
export function audienceOf(route: ApiRoute): Audience {
  if (route.development) return "development";
  return route.security === "access" ? "console" : "public";
}
