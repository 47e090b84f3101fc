/**
 * The referral program's calls to the waitlist service (`GET /api/status`, `GET /api/leaderboard`, and the status
 * page's `PUT /api/status/leaderboard`; docs/referrals.md "Endpoints"). Failures are typed so that pages pick the content's words
 * for them: the browser's own error text is never shown to a visitor.
 */
import { JSON_CONTENT_TYPE, LEADERBOARD_ENDPOINT, STATUS_ENDPOINT, STATUS_LEADERBOARD_ENDPOINT } from "../../shared/contract";
import { send } from "../api/client";
import { invitationIn, standingIn, type Standing } from "./standing";
import type { LeaderboardChoice, LeaderboardEntry, StatusInvitation } from "../../shared/api/referrals";

/** How long a read may take before it counts as failed (ms): a visitor should not watch "loading" longer on a dead connection. */
export const REFERRAL_REQUEST_TIMEOUT_MS = 10_000;

/** The service does not know the status token (401): a link cut short, or one from another site. Not worth retrying. */
export class StatusTokenRefusedError extends Error {
  constructor() {
    super("The waitlist service does not know this status token (401).");
    this.name = "StatusTokenRefusedError";
  }
}

/** The service could not be read: no connection, a timeout, a 5xx, or an answer of the wrong shape. Worth retrying. */
export class ReferralServiceError extends Error {
  /** @param status the HTTP status, or null when no answer arrived */
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ReferralServiceError";
  }
}

/**
 * Send a request to the service and read its JSON answer, within REFERRAL_REQUEST_TIMEOUT_MS.
 * @param init the method, headers and body (GET without a body when left out); `accept: application/json` is added
 * @param signal react-query's, aborted when the page no longer needs the answer
 * @returns the HTTP status and the parsed body (null when it is not JSON)
 * @throws ReferralServiceError when no answer arrived in time
 */
async function requestJson(
  path: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
  signal?: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  const headers = { accept: JSON_CONTENT_TYPE, ...init.headers };
  const answer = await send(path, { ...init, headers }, { timeoutMs: REFERRAL_REQUEST_TIMEOUT_MS, signal });
  if (!answer.answered) throw new ReferralServiceError(`${path} could not be read: ${String(answer.error)}`);
  return answer;
}

/** What the status page shows: the standing (or the invitation, once invited), and the leaderboard choice. */
export interface PersonalStatus {
  /** null once they are invited: they are out of line. */
  standing: Standing | null;
  /** Their invitation on launch day; null while they wait (or from an older service). */
  invitation: StatusInvitation | null;
  /** false until they choose to be shown (also when an older service leaves it out). */
  leaderboardShown: boolean;
}

/**
 * One person's standing, by their status token.
 * @param token the status page's token
 * @throws StatusTokenRefusedError for a 401; ReferralServiceError for any other failure
 */
export async function fetchStatus(token: string, signal?: AbortSignal): Promise<PersonalStatus> {
  const { status, body } = await requestJson(STATUS_ENDPOINT, { headers: { authorization: `Bearer ${token}` } }, signal);
  if (status === 401) throw new StatusTokenRefusedError();
  if (status !== 200) throw new ReferralServiceError(`${STATUS_ENDPOINT} answered ${status}`, status);
  const invitation = invitationIn(body);
  const standing = standingIn(body);
  if (!standing && !invitation) throw new ReferralServiceError(`${STATUS_ENDPOINT} answered 200 without a standing`, status);
  return { standing, invitation, leaderboardShown: (body as { leaderboardShown?: unknown }).leaderboardShown === true };
}

/**
 * Show or hide the person on the public leaderboard.
 * @param token the status page's token
 * @param shown true to show, false to hide
 * @returns whether they are shown now, as the service stored it
 * @throws StatusTokenRefusedError for a 401; ReferralServiceError for any other failure
 */
export async function putLeaderboardChoice(token: string, shown: boolean): Promise<boolean> {
  const choice: LeaderboardChoice = { shown };
  const { status, body } = await requestJson(STATUS_LEADERBOARD_ENDPOINT, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": JSON_CONTENT_TYPE },
    body: JSON.stringify(choice),
  });
  if (status === 401) throw new StatusTokenRefusedError();
  const stored = (body as { leaderboardShown?: unknown } | null)?.leaderboardShown;
  if (status !== 200 || typeof stored !== "boolean")
    throw new ReferralServiceError(`${STATUS_LEADERBOARD_ENDPOINT} answered ${status}`, status);
  return stored;
}

function isEntry(value: unknown): value is LeaderboardEntry {
  if (!value || typeof value !== "object") return false;
  const { rank, name, referrals } = value as Record<string, unknown>;
  return Number.isInteger(rank) && (rank as number) >= 1 && typeof name === "string" && name.trim() !== "" && Number.isInteger(referrals);
}

/**
 * The leaderboard, best first.
 * @returns its rows in rank order; a malformed row is left out rather than shown half
 * @throws ReferralServiceError when it cannot be read
 */
export async function fetchLeaderboard(signal?: AbortSignal): Promise<LeaderboardEntry[]> {
  const { status, body } = await requestJson(LEADERBOARD_ENDPOINT, { headers: {} }, signal);
  if (status !== 200) throw new ReferralServiceError(`${LEADERBOARD_ENDPOINT} answered ${status}`, status);
  const entries = (body as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) throw new ReferralServiceError(`${LEADERBOARD_ENDPOINT} answered 200 without entries`, status);
  return entries.filter(isEntry).sort((a, b) => a.rank - b.rank);
}
