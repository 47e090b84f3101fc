import type { StandingAnswer, StatusInvitation } from "../../shared/api/referrals";
import { INVITATION_STATES } from "../../shared/invitations";
/**
 * A person's standing, from `GET /api/status` (a signup's answer carries none: it reaches only their inbox).
 * Whatever does not have the expected shape is no standing: never shown half.
 */

/** What the referral panel shows: a standing with every member present and checked. */
export type Standing = Required<Omit<StandingAnswer, "referralCode">>;

const isWhole = (value: unknown, min: number): value is number => Number.isInteger(value) && (value as number) >= min;

/** Is `value` an absolute http(s) address? A `javascript:` link from a tampered answer is never put in an href. */
function isWebAddress(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The standing in the status endpoint's answer, parsed JSON.
 * @returns the standing, or null when any of its five fields is missing or malformed
 */
export function standingIn(value: unknown): Standing | null {
  if (!value || typeof value !== "object") return null;
  const { referralUrl, position, referrals, entries, statusUrl } = value as Record<string, unknown>;
  if (!isWebAddress(referralUrl) || !isWebAddress(statusUrl)) return null;
  if (!isWhole(position, 1) || !isWhole(referrals, 0) || !isWhole(entries, 1)) return null;
  return { referralUrl, position, referrals, entries, statusUrl };
}

/**
 * The invitation in the status endpoint's answer, parsed JSON.
 * @returns the invitation, or null when there is none or it is malformed (an open one needs its web address)
 */
export function invitationIn(value: unknown): StatusInvitation | null {
  const invitation = (value as { invitation?: unknown } | null)?.invitation;
  if (!invitation || typeof invitation !== "object") return null;
  const { state, expiresAt, inviteUrl } = invitation as Record<string, unknown>;
  if (!(INVITATION_STATES as readonly unknown[]).includes(state) || typeof expiresAt !== "string" || Number.isNaN(Date.parse(expiresAt)))
    return null;
  if (state === "invited" && !isWebAddress(inviteUrl)) return null;
  return { state: state as StatusInvitation["state"], expiresAt, inviteUrl: state === "invited" ? (inviteUrl as string) : null };
}
