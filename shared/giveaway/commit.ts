/**
 * Closing a draw: the request an operator makes (from `npm run waitlist -- draw commit` or the console's button), its
 * checks, and the commitment built from the eligible entrants: the draw file and its audit entry. The eligibility rule
 * itself is SQL (worker/src/draw/entrants.ts), read by both. docs/operators.md: "The giveaway draw".
 */
import type { CommitRequest } from "../api/draw";
import { CONSOLE_API } from "../console";
import type { DrandChain } from "./chains";
import { firstRoundAfter, roundTimeMs } from "./rounds";
import {
  DRAW_FORMAT,
  DRAW_ID_PATTERN,
  listHashOf,
  pseudonymOf,
  serialiseDraw,
  sortEntrants,
  type DrawFile,
  type Entrant,
} from "./draw-file";

/** POST a CommitRequest: the console's button; 201 with the draw file (worker/src/draw/commit.ts). */
export const DRAW_COMMIT_ENDPOINT = `${CONSOLE_API}/draw/commit`;

/** POST a drawn draw file (`draw run`): its audit entry, written by the Worker once the file checks (worker/src/draw/run.ts). */
export const DRAW_RUN_ENDPOINT = `${CONSOLE_API}/draw/run`;

/** Why a drawn file is not recorded. */
export const DRAW_RUN_REFUSAL = {
  /** The file does not verify against the site's chain (its list, round, signature or winners). */
  drawInvalid: "draw_invalid",
  /** The audit log holds no commitment with this draw's list and round. */
  notCommitted: "draw_not_committed",
  /** The audit log already holds this draw's result, which is never replaced. */
  alreadyDrawn: "already_drawn",
} as const;

/** The delay the commitment's round takes unless the operator names another, minutes. */
export const DEFAULT_DELAY_MINUTES = 60;

/** Why a commitment is refused; the console names each in the content's words, the command line in its message. */
export const COMMIT_REFUSAL = {
  drawIdInvalid: "draw_id_invalid",
  winnersInvalid: "winners_invalid",
  cutoffInvalid: "cutoff_invalid",
  delayInvalid: "delay_invalid",
  /** The cut-off has not passed: entries are still open. */
  entriesOpen: "entries_open",
  /** The audit log (or the draw file) already holds this draw's commitment, which is never replaced. */
  alreadyCommitted: "already_committed",
  /** Two entrants' referral codes give one pseudonym in this draw: commit under another id. */
  pseudonymClash: "pseudonym_clash",
} as const;
export type CommitRefusalCode = (typeof COMMIT_REFUSAL)[keyof typeof COMMIT_REFUSAL];

/**
 * A commitment refused before anything was written: `code` for a page, `message` for a terminal, and `member` the
 * request's member at fault when one is (the API's `source.pointer`).
 */
export class CommitRefused extends Error {
  constructor(
    readonly code: CommitRefusalCode,
    message: string,
    readonly member?: keyof CommitRequest,
  ) {
    super(message);
    this.name = "CommitRefused";
  }
}

/** One eligible person as the store reads them: their referral code (the pseudonym's seed) and entries at the cut-off. */
export interface EligibleEntrant {
  referralCode: string;
  entries: number;
}

/**
 * The request's cut-off as ISO 8601 UTC, checked against the clock.
 * @param nowMs Unix time in ms
 * @throws CommitRefused when a member is malformed or the cut-off is still to come
 */
export function checkCommitRequest(request: CommitRequest, nowMs: number): { cutoff: string; delayMs: number } {
  if (typeof request.draw !== "string" || !DRAW_ID_PATTERN.test(request.draw))
    throw new CommitRefused(
      COMMIT_REFUSAL.drawIdInvalid,
      `The draw's id takes lower-case letters, digits and -, starting with a letter (like launch), not ${JSON.stringify(request.draw)}.`,
      "draw",
    );
  if (!Number.isSafeInteger(request.winners) || request.winners < 1)
    throw new CommitRefused(COMMIT_REFUSAL.winnersInvalid, "The number of winners is a whole number of 1 or more.", "winners");
  const cutoffMs = typeof request.cutoff === "string" ? Date.parse(request.cutoff) : Number.NaN;
  if (Number.isNaN(cutoffMs))
    throw new CommitRefused(
      COMMIT_REFUSAL.cutoffInvalid,
      `The cut-off is an ISO 8601 time with its offset, like 2026-12-01T00:00:00Z, not ${JSON.stringify(request.cutoff)}.`,
      "cutoff",
    );
  if (typeof request.delayMinutes !== "number" || !Number.isFinite(request.delayMinutes) || request.delayMinutes < 1)
    throw new CommitRefused(COMMIT_REFUSAL.delayInvalid, "The delay before the round is a number of minutes, 1 or more.", "delayMinutes");
  const cutoff = new Date(cutoffMs).toISOString();
  if (cutoffMs > nowMs)
    throw new CommitRefused(COMMIT_REFUSAL.entriesOpen, `Entries are open until ${cutoff}: commit the draw after the cut-off.`);
  return { cutoff, delayMs: request.delayMinutes * 60_000 };
}

/**
 * The commitment: every eligible entrant by pseudonym with their entries, sorted, the list's SHA-256, and the first
 * round of `chain` published at least the request's delay after `nowMs` (a round nobody can know yet).
 * @param nowMs Unix time in ms: the commitment's time
 * @throws CommitRefused when the request does not check (checkCommitRequest) or two entrants share a pseudonym
 */
export async function commitmentOf(
  request: CommitRequest,
  chain: DrandChain,
  eligible: readonly EligibleEntrant[],
  nowMs: number,
): Promise<DrawFile> {
  const { cutoff, delayMs } = checkCommitRequest(request, nowMs);
  const entrants: Entrant[] = [];
  for (const person of eligible)
    entrants.push({ pseudonym: await pseudonymOf(request.draw, person.referralCode), entries: person.entries });
  if (new Set(entrants.map((entrant) => entrant.pseudonym)).size !== entrants.length)
    throw new CommitRefused(
      COMMIT_REFUSAL.pseudonymClash,
      `Two entrants share a pseudonym in draw ${request.draw}: commit under another draw id.`,
    );
  const round = firstRoundAfter(chain, nowMs, delayMs);
  return {
    format: DRAW_FORMAT,
    draw: request.draw,
    winnerCount: request.winners,
    cutoff,
    committedAt: new Date(nowMs).toISOString(),
    chain,
    round,
    roundAt: new Date(roundTimeMs(chain, round)).toISOString(),
    listHash: await listHashOf(entrants),
    entrants: sortEntrants(entrants),
    result: null,
  };
}

/** The audit_log action of a commitment; the store refuses a second one for the same draw by it. */
export const DRAW_COMMIT_ACTION = "draw_commit";

/** A commitment's audit entry: its reason and `after` (no name, no address, no referral code). */
export function commitAudit(file: DrawFile): { action: string; reason: string; after: Record<string, unknown> } {
  return {
    action: DRAW_COMMIT_ACTION,
    reason: `Entries closed at ${file.cutoff}: the list of ${file.entrants.length} entrants and drand round ${file.round} committed.`,
    after: {
      draw: file.draw,
      listHash: file.listHash,
      round: file.round,
      roundAt: file.roundAt,
      entrants: file.entrants.length,
      entries: file.entrants.reduce((sum, { entries }) => sum + entries, 0),
      winnerCount: file.winnerCount,
      cutoff: file.cutoff,
    },
  };
}

/** The audit_log action of a drawn result; one per draw. */
export const DRAW_RUN_ACTION = "draw_run";

/** A drawn file's audit entry: the commitment it drew from and the outcome (pseudonyms only). */
export function runAudit(file: DrawFile & { result: NonNullable<DrawFile["result"]> }): {
  action: string;
  reason: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
} {
  const { beacon, winners } = file.result;
  return {
    action: DRAW_RUN_ACTION,
    reason: `Drand round ${file.round} drew ${winners.length} winners.`,
    before: { draw: file.draw, listHash: file.listHash, round: file.round },
    after: { draw: file.draw, round: beacon.round, randomness: beacon.randomness, winners },
  };
}

/** The name the console's download takes: the site's draw file is `content/giveaway/draw.json`. */
export const DRAW_FILE_NAME = "draw.json";

/** The draw file's text, as it is written to the repository and downloaded from the console. */
export function drawText(file: DrawFile): string {
  return serialiseDraw(file);
}
