/**
 * The console's giveaway draw, behind Cloudflare Access like every console route (`npm run waitlist -- draw
 * commit|run` calls the same API):
 * - POST /api/console/draw/commit: the request checked against the rules the site publishes and the Worker's clock,
 *   the draw's one `draws` row written (its key refuses a second commitment) with the chain, relay and rules it is
 *   bound to from then on (binding.ts) and the request's audit entry, and the commitment job started (job.ts);
 * - GET /api/console/draw: the rules and the job's progress.
 * POST /api/console/draw/run is run.ts's.
 */
import type { Context } from "hono";
import type { CommitRequest, Commitment, DrawState } from "../../../shared/api/draw";
import {
  checkCommitRequest,
  COMMIT_REFUSAL,
  CommitRefused,
  type CommitRefusalCode,
  DRAW_COMMIT_REQUEST_ACTION,
} from "../../../shared/giveaway/commit";
import { cutoffOf, roundOfRules, type DrawRules } from "../../../shared/giveaway/rules";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { AppEnv, ServiceEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { bindingColumns, contentBinding, type DrawBinding } from "./binding";
import { drawCommitted } from "./entrants";
import { AFTER_A_CHANGE, drawKeys, drawRow, PAGE_ROWS, PART_LINES, type DrawRow } from "./job";

/** The status of each refusal: a malformed request is 400, one the rules or the draw's state refuse is 409. */
const REFUSAL_STATUS: Record<CommitRefusalCode, number> = {
  [COMMIT_REFUSAL.drawIdInvalid]: 400,
  [COMMIT_REFUSAL.winnersInvalid]: 400,
  [COMMIT_REFUSAL.cutoffInvalid]: 400,
  [COMMIT_REFUSAL.otherDraw]: 409,
  [COMMIT_REFUSAL.otherCutoff]: 409,
  [COMMIT_REFUSAL.otherWinners]: 409,
  [COMMIT_REFUSAL.entriesOpen]: 409,
  [COMMIT_REFUSAL.roundPublished]: 409,
  [COMMIT_REFUSAL.alreadyCommitted]: 409,
  [COMMIT_REFUSAL.pseudonymClash]: 409,
};

function refused(error: CommitRefused): Response {
  const pointer = error.member === undefined ? undefined : `/${error.member}`;
  return errorResponse([{ status: REFUSAL_STATUS[error.code], code: error.code, detail: error.message, pointer }]);
}

/** The rules the site publishes (service-settings.json, from the content). */
export function rulesOf(settings: ServiceSettings): DrawRules {
  const { id, cutoff, winners, roundDelayHours } = settings.draw;
  return { id, cutoff, winners, roundDelayHours };
}

/** The DrawState of the rules and the draw's row. */
async function stateOf(env: ServiceEnv, settings: ServiceSettings, row: DrawRow | null): Promise<DrawState> {
  const rules = rulesOf(settings);
  let commitment: Commitment | null = null;
  if (row && (row.state === "published" || row.state === "drawn")) {
    const object = await env.DRAWS.get(drawKeys.commitment(row.id));
    commitment = object ? await object.json<Commitment>() : null;
  }
  return {
    rules: {
      draw: rules.id,
      cutoff: cutoffOf(rules),
      winners: rules.winners,
      roundDelayHours: rules.roundDelayHours,
      ...roundOfRules(settings.draw.chain, rules),
    },
    job: row && {
      state: row.state,
      operator: row.operator,
      requestedAt: row.requested_at,
      eligible: row.eligible,
      written: row.n,
      failure: row.failure,
      commitment,
    },
  };
}

/** A commitment request as checked: the draw's row's first values. */
interface CommitValues {
  draw: string;
  cutoff: string;
  winners: number;
  round: number;
  roundAt: string;
  operator: string;
  requestedAt: string;
}

/** The `draw_commit_request` audit entry: the rules, round, chain and relay the draw is bound to from now on. */
function requestEntry(values: CommitValues, binding: DrawBinding): NewAuditEntry {
  const { draw, cutoff, winners, round, roundAt } = values;
  return {
    at: values.requestedAt,
    operator: values.operator,
    action: DRAW_COMMIT_REQUEST_ACTION,
    person_id: null,
    reason: `Commitment of draw ${draw} requested: cut-off ${cutoff}, ${winners} winners, drand round ${round} of chain ${binding.chain.hash} from ${binding.relayUrl}.`,
    before: null,
    after: JSON.stringify({
      draw,
      cutoff,
      winners,
      roundDelayHours: binding.rules.roundDelayHours,
      round,
      roundAt,
      chain: binding.chain,
      relayUrl: binding.relayUrl,
    }),
  };
}

/**
 * Write a draw's row with its binding, and the request's audit entry in the same batch, written only when the row is.
 * Reads one row of `draws` (its key) and the audit log's last row (the chain).
 * @returns false when the draw has a row already (its commitment is never replaced)
 */
async function insertDraw(env: ServiceEnv, values: CommitValues, binding: DrawBinding): Promise<boolean> {
  const db = env.DB;
  const bound = bindingColumns(binding);
  const insert = db
    .prepare(
      "INSERT INTO draws (id, cutoff, winners, round, round_at, operator, requested_at, state, page_rows, part_lines, updated_at, " +
        "chain_hash, chain_public_key, chain_period, chain_genesis, relay_url, round_delay_hours) " +
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'listing', ?8, ?9, ?7, ?10, ?11, ?12, ?13, ?14, ?15) ON CONFLICT (id) DO NOTHING",
    )
    .bind(
      values.draw,
      values.cutoff,
      values.winners,
      values.round,
      values.roundAt,
      values.operator,
      values.requestedAt,
      PAGE_ROWS,
      PART_LINES,
      bound.chain_hash,
      bound.chain_public_key,
      bound.chain_period,
      bound.chain_genesis,
      bound.relay_url,
      bound.round_delay_hours,
    );
  const [written] = await appendAudit(env, async (tail) =>
    db.batch([insert, await appendStatement(db, tail, requestEntry(values, binding), AFTER_A_CHANGE)]),
  );
  return (written.meta.changes ?? 0) > 0;
}

/**
 * Answer POST /api/console/draw/commit with its validated body: 202 with the DrawState once the draw's row (bound to
 * the content's chain, relay and rules) and its audit entry are written and its job queued; 400 for a malformed
 * member, 409 for a request the rules refuse (another draw, cut-off or number of winners; before the cut-off; once the
 * rules' round is published) or a draw committed already. The clock is the Worker's own: nothing a request or a
 * variable says moves it.
 */
export async function handleDrawCommit(c: Context<AppEnv>, request: CommitRequest): Promise<Response> {
  const { settings } = c.var;
  const nowMs = Date.now();
  try {
    const { cutoff, round, roundAt } = checkCommitRequest(request, settings.draw.chain, rulesOf(settings), nowMs);
    const already = () =>
      new CommitRefused(COMMIT_REFUSAL.alreadyCommitted, `Draw ${request.draw} is already committed: its commitment is never replaced.`);
    if (await drawCommitted(c.env.DB, request.draw)) throw already();
    const values: CommitValues = {
      draw: request.draw,
      cutoff,
      winners: request.winners,
      round,
      roundAt,
      operator: c.var.operator.id,
      requestedAt: new Date(nowMs).toISOString(),
    };
    if (!(await insertDraw(c.env, values, contentBinding(settings)))) throw already();
    await c.env.DRAW_JOB.send({ draw: request.draw, step: 0 });
    return jsonResponse(202, await stateOf(c.env, settings, await drawRow(c.env.DB, request.draw)));
  } catch (error) {
    if (error instanceof CommitRefused) return refused(error);
    throw error;
  }
}

/** Answer GET /api/console/draw: 200 with the rules and the job of the rules' draw (null before a commitment). */
export async function handleDrawState(c: Context<AppEnv>): Promise<Response> {
  const { settings } = c.var;
  return jsonResponse(200, await stateOf(c.env, settings, await drawRow(c.env.DB, settings.draw.id)));
}
