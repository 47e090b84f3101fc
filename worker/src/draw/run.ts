/**
 * POST /api/console/draw/run: the committed draw's winners, drawn only as it was committed. Before drawing, the run
 * checks the draw's state and its round's time; that the content still names the chain, relay and rules the draw's
 * row is bound to (binding.ts); that the list in R2 gives the committed SHA-256 and Merkle root; and the round's BLS
 * signature against the bound key, fetched from the bound relay. The published result is built from the row. Every
 * refusal is a `draw_run_refused` audit entry, every draw a `draw_run` one (console/audit-log.ts).
 */
import type { Context } from "hono";
import type { Commitment } from "../../../shared/api/draw";
import { beaconProblems, fetchBeacon, type Beacon } from "../../../shared/giveaway/beacon";
import { DRAW_RUN_ACTION, DRAW_RUN_REFUSED_ACTION, RUN_REFUSAL, type RunRefusalCode } from "../../../shared/giveaway/commit";
import { readBlockFrom, serialiseCommitment } from "../../../shared/giveaway/commitment";
import { digestList, type ListDigest } from "../../../shared/giveaway/digest";
import { streamWinners, type Winner } from "../../../shared/giveaway/stream-winners";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { AppEnv, ServiceEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { bindingChanges, bindingOf, contentBinding, type DrawBinding } from "./binding";
import { commitmentOf, drawKeys, drawRow, type DrawRow } from "./job";

/** Why a run is refused: its answer and its audit entry (`facts` joins the entry's `after`). */
interface RunRefusal {
  status: 409 | 502;
  code: RunRefusalCode;
  /** A sentence for the command line and the audit log's reason. */
  detail: string;
  facts?: Record<string, unknown>;
}

/** A published draw's list as the run checked it: its digest, and the R2 object it read (its etag). */
interface CheckedList {
  digest: ListDigest;
  etag: string;
}

const notPublished = (draw: string): RunRefusal => ({
  status: 409,
  code: RUN_REFUSAL.notPublished,
  detail: `Draw ${draw} is not committed and published yet.`,
});

const alreadyDrawn = (draw: string): RunRefusal => ({
  status: 409,
  code: RUN_REFUSAL.alreadyDrawn,
  detail: `Draw ${draw} is drawn: its winners are never drawn again.`,
});

/** The list was removed or replaced between the run's check and its reading a block back. */
class ListReplaced extends Error {}

/**
 * Bytes [offset, offset + length) of a draw's published list.
 * @param etag when given, the bytes of that version of the list only
 * @throws Error when the list is missing, or (ListReplaced) is no longer the version `etag` names
 */
export async function listRange(env: ServiceEnv, draw: string, offset: number, length: number, etag?: string): Promise<Uint8Array> {
  const object = await env.DRAWS.get(drawKeys.list(draw), {
    range: { offset, length },
    ...(etag ? { onlyIf: { etagMatches: etag } } : {}),
  });
  if (!object) throw new Error(`the list of draw ${draw} is missing`);
  if (!("body" in object)) throw new ListReplaced(`the list of draw ${draw} was replaced`);
  return new Uint8Array(await object.arrayBuffer());
}

/** A stream's chunks, for digestList. */
async function* chunksOf(body: ReadableStream): AsyncGenerator<Uint8Array> {
  const reader = body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
}

/**
 * The binding of a draw committed before its row kept one (migration 0020): the chain and rules its published
 * commitment names, which entrants have been able to check since, and the content's relay, which only carries the
 * round (the bound key checks it).
 * @throws Error when the published commitment is missing
 */
async function publishedBinding(env: ServiceEnv, row: DrawRow, settings: ServiceSettings): Promise<DrawBinding> {
  const object = await env.DRAWS.get(drawKeys.commitment(row.id));
  if (!object) throw new Error(`the commitment of draw ${row.id} is missing`);
  const published = await object.json<Commitment>();
  const rules = { id: row.id, cutoff: row.cutoff, winners: row.winners, roundDelayHours: published.rules.roundDelayHours };
  return { chain: { ...published.chain }, relayUrl: contentBinding(settings).relayUrl, rules };
}

/** Why a published draw cannot be run now by its binding and the content (no R2 or relay read), or null. */
function boundRefusal(row: DrawRow, binding: DrawBinding, settings: ServiceSettings, nowMs: number): RunRefusal | null {
  const changed = bindingChanges(binding, settings);
  if (changed.length > 0)
    return {
      status: 409,
      code: RUN_REFUSAL.contentChanged,
      detail: `The content's ${changed.join(", ")} differ from what draw ${row.id} was committed with: deploy the content as it was committed. Nothing was drawn.`,
      facts: { changed },
    };
  if (nowMs < Date.parse(row.round_at))
    return {
      status: 409,
      code: RUN_REFUSAL.roundNotPublished,
      detail: `Round ${row.round} is published at ${row.round_at}: run the draw after that.`,
    };
  return null;
}

/** The refusal of a list that is not the committed one (`found`: what it gives, null when it is gone or was replaced). */
function listRefusal(row: DrawRow, found: ListDigest | null): RunRefusal {
  return {
    status: 409,
    code: RUN_REFUSAL.listChanged,
    detail: `The list in storage is not the one draw ${row.id} committed to (SHA-256 ${row.list_hash}, Merkle root ${row.merkle_root}): nothing was drawn.`,
    facts: { listHash: found?.listHash ?? null, merkleRoot: found?.merkleRoot ?? null },
  };
}

/** The list in R2 read once: its digest when it gives the row's SHA-256 and Merkle root, else the refusal. */
async function committedList(env: ServiceEnv, row: DrawRow): Promise<CheckedList | RunRefusal> {
  const object = await env.DRAWS.get(drawKeys.list(row.id));
  if (!object) return listRefusal(row, null);
  const digest = await digestList(chunksOf(object.body));
  if (digest.listHash !== row.list_hash || digest.merkleRoot !== row.merkle_root) return listRefusal(row, digest);
  return { digest, etag: object.etag };
}

/** The round from the bound relay when it verifies against the bound chain's key, else the refusal. */
async function boundBeacon(binding: DrawBinding, round: number): Promise<Beacon | RunRefusal> {
  const beacon = await fetchBeacon(binding.relayUrl, binding.chain, round).catch(() => null);
  const problems = beacon ? await beaconProblems(binding.chain, beacon, round) : ["unreachable"];
  if (beacon && problems.length === 0) return beacon;
  return {
    status: 502,
    code: RUN_REFUSAL.beaconRefused,
    detail: `The relay's round ${round} is refused (${problems.join(", ")}): nothing was drawn.`,
    facts: { relayUrl: binding.relayUrl, chain: binding.chain.hash, problems },
  };
}

/** The winners `randomness` draws from the checked list; null when the list was replaced since it was checked. */
async function winnersOf(env: ServiceEnv, row: DrawRow, list: CheckedList, randomness: string): Promise<Winner[] | null> {
  // The blocks read back are of the version of the list just checked: a list replaced since is refused, not drawn.
  const range = (offset: number, length: number) => listRange(env, row.id, offset, length, list.etag);
  try {
    return await streamWinners(randomness, list.digest.sums, (block) => readBlockFrom({ range }, block), row.winners);
  } catch (error) {
    if (error instanceof ListReplaced) return null;
    throw error;
  }
}

/** Answer a refusal, its audit entry written first (which reads the audit log's last row: the chain's tail). */
async function refuseRun(c: Context<AppEnv>, draw: string, row: DrawRow | null, refusal: RunRefusal, nowMs: number): Promise<Response> {
  const db = c.env.DB;
  const entry: NewAuditEntry = {
    at: new Date(nowMs).toISOString(),
    operator: c.var.operator.id,
    action: DRAW_RUN_REFUSED_ACTION,
    person_id: null,
    reason: refusal.detail,
    before: JSON.stringify({ draw, state: row?.state ?? null, round: row?.round ?? null, listHash: row?.list_hash ?? null }),
    after: JSON.stringify({ draw, code: refusal.code, ...refusal.facts }),
  };
  await appendAudit(c.env, async (tail) => (await appendStatement(db, tail, entry)).run());
  return errorResponse([{ status: refusal.status, code: refusal.code, detail: refusal.detail }]);
}

/** The drawn result written: the row moved to drawn, the commitment (from the row) with its result, the audit entry. */
async function publishResult(
  c: Context<AppEnv>,
  row: DrawRow,
  binding: DrawBinding,
  beacon: Beacon,
  winners: Winner[],
  nowMs: number,
): Promise<Response> {
  const drawnAt = new Date(nowMs).toISOString();
  const drawn: Commitment = { ...commitmentOf(row, binding), result: { beacon, winners, drawnAt } };
  const db = c.env.DB;
  const moved = await db
    .prepare("UPDATE draws SET state = 'drawn', updated_at = ?2 WHERE id = ?1 AND state = 'published'")
    .bind(row.id, drawnAt)
    .run();
  if ((moved.meta.changes ?? 0) === 0) return refuseRun(c, row.id, row, alreadyDrawn(row.id), nowMs);
  await c.env.DRAWS.put(drawKeys.commitment(row.id), serialiseCommitment(drawn), {
    httpMetadata: { contentType: "application/json; charset=utf-8" },
  });
  const entry: NewAuditEntry = {
    at: drawnAt,
    operator: c.var.operator.id,
    action: DRAW_RUN_ACTION,
    person_id: null,
    reason: `Drand round ${row.round} drew ${winners.length} winners.`,
    before: JSON.stringify({ draw: row.id, listHash: row.list_hash, merkleRoot: row.merkle_root, round: row.round }),
    after: JSON.stringify({
      draw: row.id,
      round: beacon.round,
      randomness: beacon.randomness,
      winners,
      chain: binding.chain.hash,
      relayUrl: binding.relayUrl,
    }),
  };
  await appendAudit(c.env, async (tail) => (await appendStatement(db, tail, entry)).run());
  return jsonResponse(200, drawn);
}

/**
 * Answer POST /api/console/draw/run: 200 with the commitment and its result, written to R2 and the audit log. 409
 * before the draw is published, once drawn, while the content names another chain, relay or rules than the draw's row
 * (`content_changed`), before its round is out, and when the list in R2 is not the committed one (`list_changed`);
 * 502 when the bound relay's round does not verify against the bound key. A refusal writes nothing but its audit
 * entry.
 */
export async function handleDrawRun(c: Context<AppEnv>): Promise<Response> {
  const { settings } = c.var;
  const nowMs = Date.now();
  const draw = settings.draw.id;
  const row = await drawRow(c.env.DB, draw);
  if (!row || (row.state !== "published" && row.state !== "drawn")) return refuseRun(c, draw, row, notPublished(draw), nowMs);
  if (row.state === "drawn") return refuseRun(c, draw, row, alreadyDrawn(draw), nowMs);
  const binding = bindingOf(row) ?? (await publishedBinding(c.env, row, settings));
  const refused = boundRefusal(row, binding, settings, nowMs);
  if (refused) return refuseRun(c, draw, row, refused, nowMs);
  const list = await committedList(c.env, row);
  if ("code" in list) return refuseRun(c, draw, row, list, nowMs);
  const beacon = await boundBeacon(binding, row.round);
  if ("code" in beacon) return refuseRun(c, draw, row, beacon, nowMs);
  const winners = await winnersOf(c.env, row, list, beacon.randomness);
  if (!winners) return refuseRun(c, draw, row, listRefusal(row, null), nowMs);
  return publishResult(c, row, binding, beacon, winners, nowMs);
}
