/**
 * POST /api/console/draw/commit: the console's button that closes a giveaway draw, as `npm run waitlist -- draw
 * commit` does (shared/giveaway/commit.ts builds both): the eligible entrants frozen by pseudonym, their SHA-256 and a
 * future drand round, logged once in audit_log and answered as the draw file for the operator to publish at
 * `content/giveaway/draw.json`. Behind Cloudflare Access like every console route.
 */
import type { Context } from "hono";
import type { CommitRequest } from "../../../shared/api/draw";
import {
  checkCommitRequest,
  COMMIT_REFUSAL,
  commitAudit,
  commitmentOf,
  CommitRefused,
  DRAW_FILE_NAME,
  drawText,
  type CommitRefusalCode,
} from "../../../shared/giveaway/commit";
import type { AppEnv } from "../env";
import { errorResponse } from "../http";
import { drawCommitted, eligibleEntrants, recordCommitment } from "./entrants";

/** The status of each refusal: a malformed request is 400, one the draw's state refuses is 409. */
const REFUSAL_STATUS: Record<CommitRefusalCode, number> = {
  [COMMIT_REFUSAL.drawIdInvalid]: 400,
  [COMMIT_REFUSAL.winnersInvalid]: 400,
  [COMMIT_REFUSAL.cutoffInvalid]: 400,
  [COMMIT_REFUSAL.delayInvalid]: 400,
  [COMMIT_REFUSAL.entriesOpen]: 409,
  [COMMIT_REFUSAL.alreadyCommitted]: 409,
  [COMMIT_REFUSAL.pseudonymClash]: 409,
};

function refused(error: CommitRefused): Response {
  const pointer = error.member === undefined ? undefined : `/${error.member}`;
  return errorResponse([{ status: REFUSAL_STATUS[error.code], code: error.code, detail: error.message, pointer }]);
}

/**
 * Answer POST /api/console/draw/commit with its validated body: 201 with the draw file (JSON, as a `draw.json`
 * attachment) once its audit entry is written; 400 for a request checkCommitRequest refuses (COMMIT_REFUSAL's codes),
 * 409 while entries are open, when the draw is committed already (also by an operator a moment earlier: the audit
 * insert checks), or when two entrants share a pseudonym. Nothing is written unless the answer is 201. Reads every
 * eligible row once (ELIGIBLE_ENTRANTS_SQL).
 */
export async function handleDrawCommit(c: Context<AppEnv>, request: CommitRequest): Promise<Response> {
  const { settings } = c.var;
  const nowMs = Date.now();
  try {
    const { cutoff } = checkCommitRequest(request, nowMs);
    if (await drawCommitted(c.env.DB, request.draw))
      throw new CommitRefused(
        COMMIT_REFUSAL.alreadyCommitted,
        `Draw ${request.draw} is already committed: its commitment is never replaced.`,
      );
    const eligible = await eligibleEntrants(c.env.DB, cutoff, settings.referrals.entriesPerReferral);
    const file = await commitmentOf(request, settings.draw.chain, eligible, nowMs);
    const entry = { at: new Date(nowMs).toISOString(), operator: c.var.operator.id, ...commitAudit(file) };
    if (!(await recordCommitment(c.env.DB, entry)))
      throw new CommitRefused(
        COMMIT_REFUSAL.alreadyCommitted,
        `Draw ${request.draw} is already committed: its commitment is never replaced.`,
      );
    return new Response(drawText(file), {
      status: 201,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${DRAW_FILE_NAME}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof CommitRefused) return refused(error);
    throw error;
  }
}
