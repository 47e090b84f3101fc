/**
 * The console's giveaway draw, behind Cloudflare Access like every console route (`npm run waitlist -- draw
 * commit|run` calls the same API):
 * - POST /api/console/draw/commit: the request checked against the rules the site publishes and the Worker's clock,
 *   the draw's one `draws` row written (its key refuses a second commitment), and the commitment job started (job.ts);
 * - GET /api/console/draw: the rules and the job's progress;
 * - POST /api/console/draw/run: once the rules' round is published, its randomness draws the winners from the list.
 */
import type { Context } from "hono";
import type { CommitRequest, Commitment, DrawState } from "../../../shared/api/draw";
import { beaconProblems, fetchBeacon } from "../../../shared/giveaway/beacon";
import {
  checkCommitRequest,
  COMMIT_REFUSAL,
  CommitRefused,
  type CommitRefusalCode,
  DRAW_RUN_ACTION,
  RUN_REFUSAL,
} from "../../../shared/giveaway/commit";
import { readBlockFrom, serialiseCommitment } from "../../../shared/giveaway/commitment";
import { LineSplitter, parseLine } from "../../../shared/giveaway/list";
import { cutoffOf, roundOfRules, type DrawRules } from "../../../shared/giveaway/rules";
import { BlockSums, streamWinners } from "../../../shared/giveaway/stream-winners";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { AppEnv, ServiceEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { drawCommitted } from "./entrants";
import { drawKeys, drawRow, PAGE_ROWS, PART_LINES, type DrawRow } from "./job";

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

/**
 * Answer POST /api/console/draw/commit with its validated body: 202 with the DrawState once the draw's row is written
 * and its job queued; 400 for a malformed member, 409 for a request the rules refuse (another draw, cut-off or number
 * of winners; before the cut-off; once the rules' round is published) or a draw committed already. The clock is the
 * Worker's own: nothing a request or a variable says moves it.
 */
export async function handleDrawCommit(c: Context<AppEnv>, request: CommitRequest): Promise<Response> {
  const { settings } = c.var;
  const nowMs = Date.now();
  try {
    const { cutoff, round, roundAt } = checkCommitRequest(request, settings.draw.chain, rulesOf(settings), nowMs);
    const already = () =>
      new CommitRefused(COMMIT_REFUSAL.alreadyCommitted, `Draw ${request.draw} is already committed: its commitment is never replaced.`);
    if (await drawCommitted(c.env.DB, request.draw)) throw already();
    const now = new Date(nowMs).toISOString();
    const written = await c.env.DB.prepare(
      "INSERT INTO draws (id, cutoff, winners, round, round_at, operator, requested_at, state, page_rows, part_lines, updated_at) " +
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'listing', ?8, ?9, ?7) ON CONFLICT (id) DO NOTHING",
    )
      .bind(request.draw, cutoff, request.winners, round, roundAt, c.var.operator.id, now, PAGE_ROWS, PART_LINES)
      .run();
    if ((written.meta.changes ?? 0) === 0) throw already();
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

/** A published list in R2 as ListSource's range reader, and one pass over it for the block sums. */
async function listSums(env: ServiceEnv, draw: string): Promise<BlockSums> {
  const object = await env.DRAWS.get(drawKeys.list(draw));
  if (!object) throw new Error(`the list of draw ${draw} is missing`);
  const sums = new BlockSums();
  const splitter = new LineSplitter((line) => sums.add(parseLine(line)?.entries ?? 1));
  const reader = object.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) splitter.push(chunk.value);
  splitter.end();
  return sums;
}

/** Bytes [offset, offset + length) of a draw's published list. */
export async function listRange(env: ServiceEnv, draw: string, offset: number, length: number): Promise<Uint8Array> {
  const object = await env.DRAWS.get(drawKeys.list(draw), { range: { offset, length } });
  if (!object) throw new Error(`the list of draw ${draw} is missing`);
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Answer POST /api/console/draw/run: 200 with the commitment and its result, written to R2 and the audit log; 409
 * before the draw is published, before its round is, or once drawn; 502 when the relay's round does not verify
 * (nothing is written then).
 */
export async function handleDrawRun(c: Context<AppEnv>): Promise<Response> {
  const { settings } = c.var;
  const row = await drawRow(c.env.DB, settings.draw.id);
  const refuse = (code: string, detail: string, status = 409) => errorResponse([{ status, code, detail }]);
  if (!row || (row.state !== "published" && row.state !== "drawn"))
    return refuse(RUN_REFUSAL.notPublished, `Draw ${settings.draw.id} is not committed and published yet.`);
  if (row.state === "drawn") return refuse(RUN_REFUSAL.alreadyDrawn, `Draw ${row.id} is drawn: its winners are never drawn again.`);
  const nowMs = Date.now();
  if (nowMs < Date.parse(row.round_at))
    return refuse(RUN_REFUSAL.roundNotPublished, `Round ${row.round} is published at ${row.round_at}: run the draw after that.`);
  const { chain, relayUrl } = settings.draw;
  const beacon = await fetchBeacon(relayUrl, chain, row.round).catch(() => null);
  const problems = beacon ? await beaconProblems(chain, beacon, row.round) : ["unreachable"];
  if (!beacon || problems.length > 0)
    return refuse(RUN_REFUSAL.beaconRefused, `The relay's round ${row.round} is refused (${problems.join(", ")}): nothing was drawn.`, 502);
  const sums = await listSums(c.env, row.id);
  const winners = await streamWinners(
    beacon.randomness,
    sums,
    (block) => readBlockFrom({ range: (offset, length) => listRange(c.env, row.id, offset, length) }, block),
    row.winners,
  );
  const object = await c.env.DRAWS.get(drawKeys.commitment(row.id));
  if (!object) throw new Error(`the commitment of draw ${row.id} is missing`);
  const drawnAt = new Date(nowMs).toISOString();
  const drawn: Commitment = { ...(await object.json<Commitment>()), result: { beacon, winners, drawnAt } };
  const moved = await c.env.DB.prepare("UPDATE draws SET state = 'drawn', updated_at = ?2 WHERE id = ?1 AND state = 'published'")
    .bind(row.id, drawnAt)
    .run();
  if ((moved.meta.changes ?? 0) === 0)
    return refuse(RUN_REFUSAL.alreadyDrawn, `Draw ${row.id} is drawn: its winners are never drawn again.`);
  await c.env.DRAWS.put(drawKeys.commitment(row.id), serialiseCommitment(drawn), {
    httpMetadata: { contentType: "application/json; charset=utf-8" },
  });
  const db = c.env.DB;
  const entry: NewAuditEntry = {
    at: drawnAt,
    operator: c.var.operator.id,
    action: DRAW_RUN_ACTION,
    person_id: null,
    reason: `Drand round ${row.round} drew ${winners.length} winners.`,
    before: JSON.stringify({ draw: row.id, listHash: row.list_hash, merkleRoot: row.merkle_root, round: row.round }),
    after: JSON.stringify({ draw: row.id, round: beacon.round, randomness: beacon.randomness, winners }),
  };
  await appendAudit(db, async (tail) => (await appendStatement(db, tail, entry)).run());
  return jsonResponse(200, drawn);
}
