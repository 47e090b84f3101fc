/**
 * The referral program's documents as zod schemas: GET /api/status (a person's standing, by their status token),
 * PUT /api/status/leaderboard (their choice to be shown) and GET /api/leaderboard (the top referrers).
 */
import { z } from "zod";
import { INVITATION_STATES } from "../invitations";

/** A person's standing in the referral program: part of GET /api/status's answer, never a signup's. */
export const StandingAnswer = z.object({
  referralCode: z.string(),
  /** `<siteUrl>/?ref=<code>` */
  referralUrl: z.string(),
  /** Place in line, 1 = first. */
  position: z.int().min(1),
  /** Counted referrals. */
  referrals: z.int().min(0),
  /** Giveaway entries: 1 + entriesPerReferral × referrals. */
  entries: z.int().min(1),
  /** `<siteUrl>/status/#t=<token>`: the link the request's own token makes. */
  statusUrl: z.string(),
});
export type StandingAnswer = z.infer<typeof StandingAnswer>;

/** PUT /api/status/leaderboard's answer, and part of GET /api/status's. */
export const LeaderboardChoiceAnswer = z.object({ leaderboardShown: z.boolean() });
export type LeaderboardChoiceAnswer = z.infer<typeof LeaderboardChoiceAnswer>;

/** The person's invitation on launch day, as their status page shows it. */
export const StatusInvitation = z.object({
  state: z.enum(INVITATION_STATES),
  /** When an open invitation expires (or expired), ISO 8601 UTC. */
  expiresAt: z.string(),
  /** The link to accept it while it is open (`<productSignupUrl>?invite=<token>`); null otherwise. */
  inviteUrl: z.string().nullable(),
});
export type StatusInvitation = z.infer<typeof StatusInvitation>;

/**
 * GET /api/status's answer: the standing, whether the person chose to be shown on the leaderboard, and their
 * invitation (null while they wait). Once invited they are out of line: `position` is null.
 */
export const StatusAnswer = StandingAnswer.extend(LeaderboardChoiceAnswer.shape).extend({
  position: z.int().min(1).nullable(),
  invitation: StatusInvitation.nullable(),
});
export type StatusAnswer = z.infer<typeof StatusAnswer>;

/** PUT /api/status/leaderboard's body: exactly `{ "shown": true | false }`. */
export const LeaderboardChoice = z.strictObject({
  /** true: show me on the public leaderboard; false: hide me (the default until a person chooses). */
  shown: z.boolean({ error: 'Send { "shown": true } or { "shown": false }.' }),
});
export type LeaderboardChoice = z.infer<typeof LeaderboardChoice>;

/** One row of GET /api/leaderboard. */
export const LeaderboardEntry = z.object({
  /** 1 = most counted referrals (ties: the earlier signup first). */
  rank: z.int().min(1),
  /** First name and last initial, "Jordan S."; never an address. */
  name: z.string(),
  referrals: z.int().min(0),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** GET /api/leaderboard's answer. */
export const LeaderboardAnswer = z.object({ entries: z.array(LeaderboardEntry) });
export type LeaderboardAnswer = z.infer<typeof LeaderboardAnswer>;
