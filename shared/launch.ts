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
/** POST an ActionRequest: invite one person now (InvitationAnswer). */
export const personInviteEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/invite`;
/** POST an ActionRequest: revoke the person's open invitation (InvitationAnswer). */
export const personRevokeEndpoint = (id: string): string => `${CONSOLE_API}/people/${encodeURIComponent(id)}/revoke`;

/** POST a CheckInRequest with `Authorization: Bearer <LAUNCH_CHECKIN_SECRET>`: the firm's product accepts an invitation. */
export const CHECK_IN_ENDPOINT = "/api/invitations/check-in";

/**
 * POST `{ "token" }` from the stand-in /invite/ page, same origin, no secret: the same check-in, in development only
 * (`npm start`); any other Worker answers 404, so production's /invite/ page performs nothing.
 */
export const INVITE_ACCEPT_ENDPOINT = "/api/invitations/accept";

/** The stand-in for the product's sign-up page while the content names none (`launch.productSignupUrl` empty). */
export const INVITE_PAGE_PATH = INVITE_PATH;

/** The query parameter an invitation link carries its token in: `<productSignupUrl>?invite=<token>`. */
export const INVITE_PARAMETER = "invite";

/** A person's state on launch day: `waiting` until invited, then their latest invitation's. */
export const PERSON_LAUNCH_STATES = ["waiting", "invited", "accepted", "expired", "revoked"] as const;
export type PersonLaunchState = (typeof PERSON_LAUNCH_STATES)[number];

export { INVITATION_STATES, type InvitationState } from "./invitation-states";

/** An invitation event's delivery: queued until Klaviyo took it (sent) or refused it (failed). */
export const SEND_STATES = ["queued", "sent", "failed"] as const;
export type SendState = (typeof SEND_STATES)[number];

/** Why "invite the next N" passes over someone in line. */
export const SKIP_REASONS = ["disqualified", "unconfirmed", "flagged", "invited"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Characters in an invitation token: base64url of an HMAC-SHA-256, 256 bits (over the 128 a secret link needs). */
export const INVITATION_TOKEN_LENGTH = 43;

/** A well-formed invitation token (checked before any lookup, so junk never reaches D1). */
export const INVITATION_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${INVITATION_TOKEN_LENGTH}}$`);

/** The most one batch invites (people): a batch of the whole list is still a few hours at Klaviyo's steady limit. */
export const BATCH_MAX_COUNT = 1_000_000;

/** The longest idempotency key a batch takes (characters): a UUID is 36. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 100;

/** The audit_log `action` of each launch action. */
export const LAUNCH_AUDIT_ACTIONS = { batch: "invite_batch", invite: "invite", revoke: "revoke_invitation" } as const;

/** Error codes a launch client branches on (JSON:API `code`). */
export const LAUNCH_ERROR_CODE = {
  /** 409: the person is invited already, or has accepted (invite); has no open invitation (revoke). */
  invitationNotApplicable: "invitation_not_applicable",
  /** 409: the same idempotency key was used for a different count. */
  idempotencyKeyReused: "idempotency_key_reused",
  /** 401: check-in without LAUNCH_CHECKIN_SECRET. */
  unauthorized: "unauthorized",
  /** 404: no invitation has this token (or it is malformed). */
  invitationUnknown: "invitation_unknown",
  /** 409: the invitation was accepted already. */
  invitationUsed: "invitation_used",
  /** 410: the invitation expired. */
  invitationExpired: "invitation_expired",
  /** 410: the invitation was revoked. */
  invitationRevoked: "invitation_revoked",
} as const;
