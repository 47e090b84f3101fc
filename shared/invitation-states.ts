/**
 * An invitation's states, apart from the rest of launch day's rules (shared/launch.ts re-exports them) so that the
 * status and leaderboard pages, which only read a person's invitation, load none of the console's paths.
 */

/** An invitation's states. */
export const INVITATION_STATES = ["invited", "accepted", "expired", "revoked"] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];
