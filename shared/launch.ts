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

/** The audit_log `action` of each launch action. */
export const LAUNCH_AUDIT_ACTIONS = { batch: "invite_batch", invite: "invite", revoke: "revoke_invitation" } as const;
