/**
 * What the public pages read of an invitation: its states, its token's form, the stand-in /invite/ page's accept path
 * and the error codes. Apart from the rest of launch day's contract (shared/launch.ts re-exports them) so that the
 * status, leaderboard and /invite/ pages load none of the console's paths.
 */

/** An invitation's states. */
export const INVITATION_STATES = ["invited", "accepted", "expired", "revoked"] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/**
 * POST `{ "token" }` from the stand-in /invite/ page, same origin, no secret: the same check-in, in development only
 * (`npm start`); any other Worker answers 404, so production's /invite/ page performs nothing.
 */
export const INVITE_ACCEPT_ENDPOINT = "/api/invitations/accept";

/** The query parameter an invitation link carries its token in: `<productSignupUrl>?invite=<token>`. */
export const INVITE_PARAMETER = "invite";

/** Characters in an invitation token: base64url of 256 random bits (over the 128 a secret link needs). */
export const INVITATION_TOKEN_LENGTH = 43;

/** A well-formed invitation token (checked before any lookup, so junk never reaches D1). */
export const INVITATION_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${INVITATION_TOKEN_LENGTH}}$`);

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
