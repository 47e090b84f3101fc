/**
 * Closing a draw: the console API's addresses, the request an operator makes (from `npm run waitlist -- draw commit`
 * or the console's button) and its checks against the published rules (rules.ts), which the Worker runs before it
 * writes anything. The commitment itself is the Worker's job (worker/src/draw/job.ts). docs/operators.md: "The
 * giveaway draw".
 */
import type { CommitRequest } from "../api/draw";
import { CONSOLE_API } from "../console";
import type { DrandChain } from "./chains";
import { cutoffOf, roundOfRules, RULE_BREACH, ruleBreaches, type DrawRules } from "./rules";
import { DRAW_ID_PATTERN } from "./draw-file";

/** POST a CommitRequest: the console's button and `draw commit`; 202 with the DrawState (worker/src/draw/commit.ts). */
export const DRAW_COMMIT_ENDPOINT = `${CONSOLE_API}/draw/commit`;
/** GET: the published rules and the commitment job's progress (DrawState). */
export const DRAW_STATE_ENDPOINT = `${CONSOLE_API}/draw`;
/** POST: draw the winners once the rules' round is published; 200 with the commitment and its result. */
export const DRAW_RUN_ENDPOINT = `${CONSOLE_API}/draw/run`;
/** GET with the status token: the person's place in the published draw (DrawPlace). */
export const STATUS_DRAW_ENDPOINT = "/api/status/draw";

/** Why running a draw is refused; the console names each in the content's words, the command line in its message. */
export const RUN_REFUSAL = {
  /** The draw is not committed and published yet. */
  notPublished: "draw_not_published",
  /** The rules' drand round is not out yet. */
  roundNotPublished: "round_not_published",
  /** The winners are drawn already, never again. */
  alreadyDrawn: "already_drawn",
  /** The relay's round did not verify (or could not be fetched): nothing was drawn. */
  beaconRefused: "beacon_refused",
  /** The content names another drand chain, relay or rules than the draw was committed with: nothing was drawn. */
  contentChanged: "content_changed",
  /** The list in storage does not give the committed SHA-256 and Merkle root: nothing was drawn. */
  listChanged: "list_changed",
} as const;
export type RunRefusalCode = (typeof RUN_REFUSAL)[keyof typeof RUN_REFUSAL];

/** Why a commitment is refused; the console names each in the content's words, the command line in its message. */
export const COMMIT_REFUSAL = {
  drawIdInvalid: "draw_id_invalid",
  winnersInvalid: "winners_invalid",
  cutoffInvalid: "cutoff_invalid",
  /** The request names another draw than the published rules. */
  otherDraw: RULE_BREACH.otherDraw,
  /** The request names another cut-off than the published rules. */
  otherCutoff: RULE_BREACH.otherCutoff,
  /** The request names another number of winners than the published rules. */
  otherWinners: RULE_BREACH.otherWinners,
  /** The cut-off has not passed: entries are still open. */
  entriesOpen: RULE_BREACH.entriesOpen,
  /** The rules' round is published already. */
  roundPublished: RULE_BREACH.roundPublished,
  /** The draw has its commitment already (the draws table's key), which is never replaced. */
  alreadyCommitted: "already_committed",
  /** Two entrants' tickets give one pseudonym in this draw. */
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

/**
 * Check a request against the published rules and the clock: the draw, cut-off and winners the rules name, after the
 * cut-off and before the rules' round is published.
 * @param nowMs Unix time in ms: the Worker's clock, which nothing else sets
 * @returns the rules' cut-off as ISO 8601 UTC, and their round
 * @throws CommitRefused when a member is malformed or a rule is broken (the first breach)
 */
export function checkCommitRequest(
  request: CommitRequest,
  chain: DrandChain,
  rules: DrawRules,
  nowMs: number,
): { cutoff: string; round: number; roundAt: string } {
  if (typeof request.draw !== "string" || !DRAW_ID_PATTERN.test(request.draw))
    throw new CommitRefused(
      COMMIT_REFUSAL.drawIdInvalid,
      `The draw's id takes lower-case letters, digits and -, starting with a letter (like launch), not ${JSON.stringify(request.draw)}.`,
      "draw",
    );
  if (!Number.isSafeInteger(request.winners) || request.winners < 1)
    throw new CommitRefused(COMMIT_REFUSAL.winnersInvalid, "The number of winners is a whole number of 1 or more.", "winners");
  if (typeof request.cutoff !== "string" || Number.isNaN(Date.parse(request.cutoff)))
    throw new CommitRefused(
      COMMIT_REFUSAL.cutoffInvalid,
      `The cut-off is an ISO 8601 time with its offset, like 2026-12-01T00:00:00Z, not ${JSON.stringify(request.cutoff)}.`,
      "cutoff",
    );
  const [breach] = ruleBreaches(chain, rules, { ...request, atMs: nowMs });
  if (breach) {
    const member = BREACH_MEMBER[breach.code];
    throw new CommitRefused(breach.code, breach.detail, member);
  }
  return { cutoff: cutoffOf(rules), ...roundOfRules(chain, rules) };
}

/** The request's member a breach is about, when one is. */
const BREACH_MEMBER: Partial<Record<CommitRefusalCode, keyof CommitRequest>> = {
  [COMMIT_REFUSAL.otherDraw]: "draw",
  [COMMIT_REFUSAL.otherCutoff]: "cutoff",
  [COMMIT_REFUSAL.otherWinners]: "winners",
};

/** The audit_log action of an accepted commitment request; its entry holds the chain, relay and rules it binds. */
export const DRAW_COMMIT_REQUEST_ACTION = "draw_commit_request";

/** The audit_log action of a published commitment; its entry holds the list's hashes (worker/src/draw/job.ts). */
export const DRAW_COMMIT_ACTION = "draw_commit";

/** The audit_log action of a commitment job that stopped for good (worker/src/draw/job.ts); one per draw. */
export const DRAW_JOB_FAILED_ACTION = "draw_job_failed";

/** The audit_log action of a drawn result; one per draw (worker/src/draw/run.ts). */
export const DRAW_RUN_ACTION = "draw_run";

/** The audit_log action of a refused run, with its RUN_REFUSAL code (worker/src/draw/run.ts). */
export const DRAW_RUN_REFUSED_ACTION = "draw_run_refused";
