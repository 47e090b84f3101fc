/**
 * Launch day's wire contract, spoken by the console page, the Worker's launch routes, `npm run waitlist` and the
 * firm's product (check-in): paths, the invitation's states, its token's form and the error codes. The documents are
 * zod schemas in shared/api/launch.ts. No zod here: the status page and the stand-in /invite/ page read these too.
 */
import { CONSOLE_API } from "./console";
import { INVITE_PATH } from "./routes";

/** GET: the funnel and the recent batches (LaunchAnswer). */
export const LAUNCH_ENDPOINT = `${CONSOLE_API}/launch`;
/** GET `?count=<N>`: who "invite the next N" would invite (LaunchPreview). */
export const LAUNCH_PREVIEW_ENDPOINT = `${LAUNCH_ENDPOINT}/preview`;
/** POST a BatchRequest: invite the next N (BatchAnswer). */
export const LAUNCH_BATCHES_ENDPOINT = `${LAUNCH_ENDPOINT}/batches`;
/** PUT a ScheduleRequest: set, pause or resume the schedule (ScheduleAnswer). */
export const LAUNCH_SCHEDULE_ENDPOINT = `${LAUNCH_ENDPOINT}/schedule`;
/** POST an ActionRequest: pause or resume one batch (BatchActionAnswer). */
export const batchActionEndpoint = (id: string, action: BatchAction): string =>
  `${LAUNCH_BATCHES_ENDPOINT}/${encodeURIComponent(id)}/${action}`;
/** What an operator does to a batch: a paused batch invites nobody more and holds its unsent events. */
export const BATCH_ACTIONS = ["pause", "resume"] as const;
export type BatchAction = (typeof BATCH_ACTIONS)[number];
/** GET: the person's latest invitation (PersonInvitationAnswer). */
export const personInvitationEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/invitation`;
/** A person's invitation actions, each POSTed to `…/people/:id/<action>` with an ActionRequest (InvitationAnswer). */
export const PERSON_INVITATION_ACTIONS = ["invite", "revoke", "resend-invitation"] as const;
export type PersonInvitationAction = (typeof PERSON_INVITATION_ACTIONS)[number];
/** POST an ActionRequest: invite one person now (InvitationAnswer). */
export const personInviteEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/invite`;
/** POST an ActionRequest: revoke the person's open invitation (InvitationAnswer). */
export const personRevokeEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/revoke`;
/**
 * POST an ActionRequest: queue the open invitation's event again while Klaviyo has not taken it (InvitationAnswer).
 * It keeps the invitation's id as its unique_id, so Klaviyo records it once however often it is sent.
 */
export const personResendEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/resend-invitation`;

/** POST a CheckInRequest with `Authorization: Bearer <LAUNCH_CHECKIN_SECRET>`: the firm's product accepts an invitation. */
export const CHECK_IN_ENDPOINT = "/api/invitations/check-in";

/** The stand-in for the product's sign-up page while the content names none (`launch.productSignupUrl` empty). */
export const INVITE_PAGE_PATH = INVITE_PATH;

/** A person's state on launch day: `waiting` until invited, then their latest invitation's. */
export const PERSON_LAUNCH_STATES = ["waiting", "invited", "accepted", "expired", "revoked"] as const;
export type PersonLaunchState = (typeof PERSON_LAUNCH_STATES)[number];

export {
  INVITATION_STATES,
  INVITATION_TOKEN_LENGTH,
  INVITATION_TOKEN_PATTERN,
  INVITE_ACCEPT_ENDPOINT,
  INVITE_PARAMETER,
  LAUNCH_ERROR_CODE,
  type InvitationState,
} from "./invitations";

/** An invitation event's delivery: queued until Klaviyo took it (sent) or refused it (failed). */
export const SEND_STATES = ["queued", "sent", "failed"] as const;
export type SendState = (typeof SEND_STATES)[number];

/** Why "invite the next N" passes over someone in line. */
export const SKIP_REASONS = ["disqualified", "unconfirmed", "flagged", "invited"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The most one batch invites (people): a batch of the whole list is still a few hours at Klaviyo's steady limit. */
export const BATCH_MAX_COUNT = 1_000_000;

/** The longest idempotency key a batch takes (characters): a UUID is 36. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 100;

/**
 * How the schedule's batch of a day is keyed (`schedule:<YYYY-MM-DD>`, one a day): reserved for the cron, so that no
 * press can take a future day's key ahead and keep that day's run from inviting anyone.
 */
export const SCHEDULE_KEY_PREFIX = "schedule:";

/** The audit_log `action` of each launch action. */
export const LAUNCH_AUDIT_ACTIONS = {
  batch: "invite_batch",
  invite: "invite",
  revoke: "revoke_invitation",
  resend: "resend_invitation",
  schedule: "launch_schedule",
  pause: "pause_batch",
  resume: "resume_batch",
} as const;

/** The console's refusals of a batch action (the public pages' launch codes are LAUNCH_ERROR_CODE). */
export const BATCH_ERROR_CODE = {
  /** 404: no batch has that id. */
  batchNotFound: "batch_not_found",
  /** 409: the batch is paused (pause) or running (resume) already. */
  batchNotApplicable: "batch_not_applicable",
} as const;

/** The schedule's time of day: HH:MM, 24-hour, in the site's time zone. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Days the Launch screen's funnel by day covers, today included. */
export const LAUNCH_FUNNEL_DAYS = 30;
