/**
 * POST /api/console/draw/run: `npm run waitlist -- draw run` draws the winners on the operator's machine (it fetches
 * the drand round) and sends the drawn file here, where it is checked against the site's chain and the commitment in
 * the audit log before its `draw_run` entry is appended, once per draw. docs/operators.md: "The giveaway draw".
 */
import type { Context } from "hono";
import type { DrawnFile, DrawRunAnswer } from "../../../shared/api/draw";
import { DRAW_COMMIT_ACTION, DRAW_RUN_ACTION, DRAW_RUN_REFUSAL, runAudit } from "../../../shared/giveaway/commit";
import { type MismatchKind, verifyDraw } from "../../../shared/giveaway/verify";
import { appendAudit, appendStatement } from "../console/audit-log";
import { auditEntryOf, type AuditRow } from "../console/rows";
import type { AppEnv } from "../env";
import { type ApiError, errorResponse, jsonResponse } from "../http";

/** The member of the file each mismatch is about (`""`: the whole document). */
const MISMATCH_POINTER: Record<MismatchKind, string> = {
  format: "",
  chain: "/chain",
  round: "/round",
  listHash: "/listHash",
  beaconRound: "/result/beacon/round",
  randomness: "/result/beacon/randomness",
  signature: "/result/beacon/signature",
  winners: "/result/winners",
};

/**
 * Answer POST /api/console/draw/run with a validated drawn file: 201 DrawRunAnswer; 400 `draw_invalid` when it does not
 * verify against the site's chain; 409 `draw_not_committed` when the audit log holds no commitment of this draw with
 * its list hash and round, 409 `already_drawn` when it holds this draw's result already.
 */
export async function handleDrawRun(c: Context<AppEnv>, file: DrawnFile): Promise<Response> {
  const report = await verifyDraw(file, c.var.settings.draw.chain);
  if (!report.verified) {
    const [first, ...more] = report.mismatches.map((mismatch): ApiError => ({
      status: 400,
      code: DRAW_RUN_REFUSAL.drawInvalid,
      detail: `The draw does not verify: ${mismatch.detail}.`,
      pointer: MISMATCH_POINTER[mismatch.kind],
    }));
    return errorResponse([first, ...more]);
  }
  const db = c.env.DB;
  const commitment = await db
    .prepare(
      `SELECT count(*) AS n FROM audit_log WHERE action = ?1 AND json_extract(after, '$.draw') = ?2
         AND json_extract(after, '$.listHash') = ?3 AND json_extract(after, '$.round') = ?4`,
    )
    .bind(DRAW_COMMIT_ACTION, file.draw, file.listHash, file.round)
    .first<{ n: number }>();
  if (!commitment?.n)
    return errorResponse([
      {
        status: 409,
        code: DRAW_RUN_REFUSAL.notCommitted,
        detail: `The audit log holds no commitment of draw ${file.draw} with this list and round.`,
      },
    ]);
  const { before, after, ...rest } = runAudit(file);
  const entry = {
    ...rest,
    at: new Date().toISOString(),
    operator: c.var.operator.id,
    person_id: null,
    before: JSON.stringify(before),
    after: JSON.stringify(after),
  };
  const written = await appendAudit(db, async (tail) =>
    (
      await appendStatement(
        db,
        tail,
        entry,
        `WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE action = '${DRAW_RUN_ACTION}' AND json_extract(after, '$.draw') = json_extract(?7, '$.draw'))`,
      )
    ).first<AuditRow>(),
  );
  if (!written)
    return errorResponse([
      {
        status: 409,
        code: DRAW_RUN_REFUSAL.alreadyDrawn,
        detail: `Draw ${file.draw} is drawn already: its winners are never drawn again.`,
      },
    ]);
  const answer: DrawRunAnswer = { audit: auditEntryOf(written) };
  return jsonResponse(201, answer);
}
