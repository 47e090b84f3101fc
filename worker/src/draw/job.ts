/**
 * The commitment job: a draw's list built within Workers' limits at any size, one queue message per step, its state in
 * the draw's `draws` row (so a step that dies is run again from the row, and the cron resumes a job whose message was
 * lost). Queue steps rather than a Workflow: the service already runs a queue with retries and a cron sweep, and a
 * step's state is a few numbers in D1 (docs/operators.md: "The giveaway draw").
 *
 * 1. listing: a page of signups.seq at a time, each eligible person's pseudonym and entries into draw_entrants (whose
 *    key sorts them and finds a repeated pseudonym);
 * 2. writing: the next PART_LINES pseudonyms in order, written to R2 as one part with its Merkle subtree root;
 * 3. publishing: the parts joined into entrants.txt (its SHA-256 taken on the way), the root from the parts' roots,
 *    and the commitment written beside it, naming the chain and rules the row is bound to (binding.ts); the audit
 *    entry (chained: console/audit-log.ts) holds the hashes.
 * Each step is guarded by the row's step counter: a message for a step already done is dropped. A job that stops for
 * good (state failed) is an audit entry too.
 */
import type { D1Database } from "@cloudflare/workers-types";
import type { Commitment } from "../../../shared/api/draw";
import { fromHex, toHex } from "../../../shared/giveaway/bytes";
import { DRAW_COMMIT_ACTION, DRAW_JOB_FAILED_ACTION } from "../../../shared/giveaway/commit";
import { serialiseCommitment } from "../../../shared/giveaway/commitment";
import { DRAW_FORMAT_2, pseudonymOf, type Entrant } from "../../../shared/giveaway/draw-file";
import { commitmentPath, LINE_BYTES, leafBytes, listLine, listPath, MAX_ENTRIES } from "../../../shared/giveaway/list";
import { leafHash, MerkleBuilder } from "../../../shared/giveaway/merkle";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { DrawJobMessage, ServiceEnv } from "../env";
import { log } from "../log";
import { meterD1 } from "../store/metered";
import { entriesOf } from "../referrals/standing";
import { bindingOf, contentBinding, type BindingColumns, type DrawBinding } from "./binding";
import { eligiblePage } from "./entrants";

/** signups.seq read per page while listing (one query, one insert). */
export const PAGE_ROWS = 2_000;
/** Pages per listing step: the step's queries stay far below the 1,000 per invocation, its CPU below 30 s. */
export const PAGES_PER_STEP = 10;
/** Lines per part of the list: a power of two, so that a part is a complete Merkle subtree (393 KB of list). */
export const PART_LINES = 2 ** 14;
/** A building job whose row has not moved for this long is sent its step again by the cron (ms). */
export const STALLED_AFTER_MS = 10 * 60_000;

/** The states in which the job still has work. */
export const BUILDING_STATES = ["listing", "writing", "publishing"] as const;

/** A `draws` row (its binding columns: binding.ts). */
export interface DrawRow extends BindingColumns {
  id: string;
  cutoff: string;
  winners: number;
  round: number;
  round_at: string;
  operator: string;
  requested_at: string;
  state: "listing" | "writing" | "publishing" | "published" | "drawn" | "failed";
  step: number;
  page_rows: number;
  part_lines: number;
  cursor: number;
  after_pseudonym: string;
  eligible: number;
  n: number;
  total_entries: number;
  list_bytes: number | null;
  list_hash: string | null;
  merkle_root: string | null;
  committed_at: string | null;
  failure: string | null;
  updated_at: string;
}

/** The commitment entry's condition (audit-log.ts: appendStatement): none yet for this draw (`?4` action, `?7` after). */
const COMMITTED_ONCE =
  "WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE action = ?4 AND json_extract(after, '$.draw') = json_extract(?7, '$.draw'))";

/** The R2 keys of a draw: its parts while building, then the published list and commitment. */
export const drawKeys = {
  part: (draw: string, part: number) => `draws/${draw}/parts/${String(part).padStart(6, "0")}.txt`,
  list: (draw: string) => `draws/${draw}/entrants.txt`,
  commitment: (draw: string) => `draws/${draw}/draw.json`,
};

/** The draw's row, or null. */
export function drawRow(db: D1Database, draw: string): Promise<DrawRow | null> {
  return db.prepare("SELECT * FROM draws WHERE id = ?1").bind(draw).first<DrawRow>();
}

/** The update that ends a step: the row's other columns as given, the step counter moved on, guarded by it. */
function advance(db: D1Database, row: DrawRow, set: Record<string, unknown>, nowMs: number) {
  const columns = Object.keys(set);
  const assignments = columns.map((column, index) => `${column} = ?${index + 4}`).join(", ");
  return db
    .prepare(`UPDATE draws SET ${assignments}${columns.length ? ", " : ""}step = step + 1, updated_at = ?3 WHERE id = ?1 AND step = ?2`)
    .bind(row.id, row.step, new Date(nowMs).toISOString(), ...Object.values(set));
}

/**
 * An audit entry's condition (audit-log.ts: appendStatement) after the UPDATE before it in one batch: that it changed a
 * row. changes() counts the statement completed last on the connection, which in a batch is the one before, so only
 * the delivery whose update moved the row writes the entry, never a second delivery of the same step beside it.
 */
export const AFTER_A_CHANGE = "WHERE changes() > 0";

/**
 * Stop the job for good: the row says why (the console shows it), and the audit log, under the operator who committed,
 * in the same batch as the row's move. Reads the draw's row (its key) and the audit log's last row (the chain's tail).
 */
async function fail(env: ServiceEnv, row: DrawRow, failure: string, nowMs: number): Promise<"done"> {
  const db = env.DB;
  const entry: NewAuditEntry = {
    at: new Date(nowMs).toISOString(),
    operator: row.operator,
    action: DRAW_JOB_FAILED_ACTION,
    person_id: null,
    reason: `The commitment job of draw ${row.id} stopped (${failure}): nothing was published, and the draw id is spent.`,
    before: JSON.stringify({ draw: row.id, state: row.state, step: row.step }),
    after: JSON.stringify({ draw: row.id, state: "failed", failure }),
  };
  await appendAudit(env, async (tail) =>
    db.batch([advance(db, row, { state: "failed", failure }, nowMs), await appendStatement(db, tail, entry, AFTER_A_CHANGE)]),
  );
  log("draw_job_failed", { draw: row.id, failure });
  return "done";
}

/** Step 1: a few pages of signups into draw_entrants. */
async function listingStep(env: ServiceEnv, settings: ServiceSettings, row: DrawRow, nowMs: number): Promise<"next" | "done"> {
  const db = env.DB;
  const last = await db.prepare("SELECT coalesce(max(seq), 0) AS last FROM signups").first<{ last: number }>();
  const lastSeq = last?.last ?? 0;
  const statements = [];
  let cursor = row.cursor;
  let eligible = 0;
  for (let page = 0; page < PAGES_PER_STEP && cursor < lastSeq; page++) {
    const people = await eligiblePage(db, row.cutoff, cursor, cursor + row.page_rows);
    cursor += row.page_rows;
    if (people.length === 0) continue;
    const entrants: [string, number][] = [];
    for (const { ticket, referrals } of people) {
      const entries = Math.min(entriesOf(referrals, settings.referrals.entriesPerReferral), MAX_ENTRIES);
      entrants.push([await pseudonymOf(row.id, ticket), entries]);
    }
    eligible += entrants.length;
    statements.push(
      db
        .prepare("INSERT OR IGNORE INTO draw_entrants (draw, pseudonym, entries) SELECT ?1, value ->> 0, value ->> 1 FROM json_each(?2)")
        .bind(row.id, JSON.stringify(entrants)),
    );
  }
  const done = cursor >= lastSeq;
  const results = await db.batch([
    ...statements,
    // Writing counts parts in the cursor from 0.
    advance(db, row, { cursor: done ? 0 : cursor, eligible: row.eligible + eligible, state: done ? "writing" : "listing" }, nowMs),
  ]);
  if ((results[results.length - 1].meta.changes ?? 0) === 0) return "done"; // another delivery did this step
  const inserted = results.slice(0, -1).reduce((sum, result) => sum + (result.meta.changes ?? 0), 0);
  if (inserted !== eligible) {
    const moved = await drawRow(db, row.id);
    return fail(env, moved!, "pseudonym_clash", nowMs);
  }
  return "next";
}

/** The lines and Merkle root of a part's entrants. */
function partOf(entrants: readonly Entrant[]): { text: string; root: Uint8Array; entries: number } {
  const tree = new MerkleBuilder();
  let text = "";
  let entries = 0;
  for (const entrant of entrants) {
    const line = listLine(entrant);
    tree.add(leafHash(leafBytes(line)));
    text += line;
    entries += entrant.entries;
  }
  return { text, root: tree.root(), entries };
}

/** Step 2: the next part of the list. */
async function writingStep(env: ServiceEnv, row: DrawRow, nowMs: number): Promise<"next" | "done"> {
  const db = env.DB;
  const { results } = await db
    .prepare("SELECT pseudonym, entries FROM draw_entrants WHERE draw = ?1 AND pseudonym > ?2 ORDER BY pseudonym LIMIT ?3")
    .bind(row.id, row.after_pseudonym, row.part_lines)
    .all<Entrant>();
  if (results.length === 0) {
    await advance(db, row, { state: "publishing" }, nowMs).run();
    return "next";
  }
  const part = partOf(results);
  await env.DRAWS.put(drawKeys.part(row.id, row.cursor), part.text, { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
  const [, moved] = await db.batch([
    db
      .prepare("INSERT OR REPLACE INTO draw_parts (draw, part, lines, root) VALUES (?1, ?2, ?3, ?4)")
      .bind(row.id, row.cursor, results.length, toHex(part.root)),
    advance(
      db,
      row,
      {
        cursor: row.cursor + 1,
        n: row.n + results.length,
        total_entries: row.total_entries + part.entries,
        after_pseudonym: results[results.length - 1].pseudonym,
        state: results.length < row.part_lines ? "publishing" : "writing",
      },
      nowMs,
    ),
  ]);
  return (moved.meta.changes ?? 0) === 0 ? "done" : "next";
}

/** The Merkle root of the whole list from its parts' roots (every part but the last is complete). */
export function rootOfParts(parts: readonly { lines: number; root: string }[], partLines: number): Uint8Array {
  const tree = new MerkleBuilder();
  const level = Math.log2(partLines);
  for (const { lines, root } of parts) {
    if (lines === partLines) tree.add(fromHex(root), level);
    else tree.addLast(fromHex(root), lines);
  }
  return tree.root();
}

/** The parts of a draw's list, in order. */
export async function partsOf(db: D1Database, draw: string): Promise<{ part: number; lines: number; root: string }[]> {
  const { results } = await db
    .prepare("SELECT part, lines, root FROM draw_parts WHERE draw = ?1 ORDER BY part")
    .bind(draw)
    .all<{ part: number; lines: number; root: string }>();
  return results;
}

/** The parts joined into one object, hashed on the way: its SHA-256. */
async function joinParts(env: ServiceEnv, row: DrawRow, parts: readonly { part: number }[]): Promise<string> {
  const bytes = row.n * LINE_BYTES;
  const digest = new crypto.DigestStream("SHA-256");
  const hashing = digest.getWriter();
  const { readable, writable } = new FixedLengthStream(bytes);
  const stored = env.DRAWS.put(drawKeys.list(row.id), readable, { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
  const writer = writable.getWriter();
  for (const { part } of parts) {
    const object = await env.DRAWS.get(drawKeys.part(row.id, part));
    if (!object) throw new Error(`part ${part} of draw ${row.id} is missing`);
    const reader = object.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      await hashing.write(chunk.value);
      await writer.write(chunk.value);
    }
  }
  await writer.close();
  await hashing.close();
  await stored;
  return toHex(new Uint8Array(await digest.digest));
}

/**
 * The format 2 commitment of a published draw, from its row and its binding alone: never from today's content, which a
 * deploy can change after the commitment.
 * @returns the commitment with no result
 * @throws Error when the row has no list hashes or commitment time (it is not published)
 */
export function commitmentOf(row: DrawRow, binding: DrawBinding): Commitment {
  const { list_hash: listHash, merkle_root: merkleRoot, committed_at: committedAt, list_bytes: listBytes } = row;
  if (listHash === null || merkleRoot === null || committedAt === null || listBytes === null)
    throw new Error(`draw ${row.id} is not published`);
  return {
    format: DRAW_FORMAT_2,
    draw: row.id,
    rules: { cutoff: row.cutoff, winners: row.winners, roundDelayHours: binding.rules.roundDelayHours },
    committedAt,
    chain: { ...binding.chain },
    round: row.round,
    roundAt: row.round_at,
    n: row.n,
    totalEntries: row.total_entries,
    listHash,
    merkleRoot,
    listUrl: listPath(row.id),
    listBytes,
    result: null,
  };
}

/** The `draw_commit` audit entry of a published commitment: its hashes, round and rules. */
function commitEntry(row: DrawRow, commitment: Commitment): NewAuditEntry {
  const after = {
    draw: row.id,
    listHash: commitment.listHash,
    merkleRoot: commitment.merkleRoot,
    n: row.n,
    totalEntries: row.total_entries,
    listBytes: commitment.listBytes,
    round: row.round,
    roundAt: row.round_at,
    cutoff: row.cutoff,
    winnerCount: row.winners,
    commitmentUrl: commitmentPath(row.id),
  };
  return {
    at: commitment.committedAt,
    operator: row.operator,
    action: DRAW_COMMIT_ACTION,
    person_id: null,
    reason: `Entries closed at ${row.cutoff}: the list of ${row.n} entrants (${row.total_entries} entries) and drand round ${row.round} committed.`,
    before: null,
    after: JSON.stringify(after),
  };
}

/** Step 3: the list and its commitment published; the audit entry. */
async function publishingStep(env: ServiceEnv, settings: ServiceSettings, row: DrawRow, nowMs: number): Promise<"done"> {
  const db = env.DB;
  if (row.n !== row.eligible) return fail(env, row, "pseudonym_clash", nowMs);
  const parts = await partsOf(db, row.id);
  const listHash = await joinParts(env, row, parts);
  const merkleRoot = toHex(rootOfParts(parts, row.part_lines));
  // The list must be out before the round it is drawn by: a commitment published later could be chosen to suit it.
  const publishedMs = Date.now();
  if (publishedMs >= Date.parse(row.round_at)) return fail(env, row, "round_published", nowMs);
  const published = {
    list_hash: listHash,
    merkle_root: merkleRoot,
    list_bytes: row.n * LINE_BYTES,
    committed_at: new Date(publishedMs).toISOString(),
  };
  // A draw committed before its row kept a binding publishes the content's, as it did then.
  const commitment = commitmentOf({ ...row, ...published }, bindingOf(row) ?? contentBinding(settings));
  await env.DRAWS.put(drawKeys.commitment(row.id), serialiseCommitment(commitment), {
    httpMetadata: { contentType: "application/json; charset=utf-8" },
  });
  // The row's move and the commitment's entry in one batch, the entry once per draw whoever runs the step.
  await appendAudit(env, async (tail) =>
    db.batch([
      advance(db, row, { state: "published", ...published }, nowMs),
      await appendStatement(db, tail, commitEntry(row, commitment), COMMITTED_ONCE),
    ]),
  );
  return "done";
}

/**
 * Run the step a message names, if it is still the row's next step.
 * @param nowMs Unix time in ms (the row's updated_at)
 * @returns "next" when another step follows (the caller queues it), "done" when the job ended or the message was stale
 * @throws Error from D1 or R2: the message is retried, and the step runs again from the row
 */
export async function runDrawStep(
  env: ServiceEnv,
  settings: ServiceSettings,
  message: DrawJobMessage,
  nowMs: number,
): Promise<"next" | "done"> {
  // Each step's cost in the log (`draw_step`: the rows D1 read, what it bills by), to size a draw before launch day.
  const meter = meterD1(env.DB);
  const metered: ServiceEnv = { ...env, DB: meter.db };
  const row = await drawRow(metered.DB, message.draw);
  if (!row || row.step !== message.step) return "done";
  let outcome: "next" | "done" = "done";
  switch (row.state) {
    case "listing":
      outcome = await listingStep(metered, settings, row, nowMs);
      break;
    case "writing":
      outcome = await writingStep(metered, row, nowMs);
      break;
    case "publishing":
      outcome = await publishingStep(metered, settings, row, nowMs);
      break;
    default:
      return "done";
  }
  log("draw_step", { draw: row.id, step: row.step, state: row.state, rowsRead: meter.rowsRead() });
  return outcome;
}

/** Queue the step after `message`'s. */
export async function queueNextStep(env: ServiceEnv, message: DrawJobMessage): Promise<void> {
  await env.DRAW_JOB.send({ draw: message.draw, step: message.step + 1 });
}

/**
 * The cron's part: a building job whose row has not moved for STALLED_AFTER_MS is sent its step again (its message
 * was lost, or ran out of retries).
 */
export async function resumeStalledDraws(env: ServiceEnv, nowMs: number): Promise<void> {
  const { results } = await env.DB.prepare(
    `SELECT id, step FROM draws WHERE state IN (${BUILDING_STATES.map((state) => `'${state}'`).join(", ")}) AND updated_at < ?1`,
  )
    .bind(new Date(nowMs - STALLED_AFTER_MS).toISOString())
    .all<{ id: string; step: number }>();
  for (const { id, step } of results) {
    log("draw_job_resumed", { draw: id, step });
    await env.DRAW_JOB.send({ draw: id, step });
  }
}
