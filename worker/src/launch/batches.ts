/**
 * "Invite the next N" (docs/operators.md: Launch): a batch row, then its invitations chosen a page at a time down the
 * line (line.ts). Each page is ONE D1 batch that claims the page on the batch row while everyone it takes is still
 * invitable as read, makes their invitations, takes them out of line (store/rank.ts) and counts them in the funnel;
 * its events go to the queue after.
 * A batch whose Worker dies goes on from the page it stopped at: the queue's `batch` message, or the cron. A paused
 * batch chooses nobody more and holds its events (send.ts); resumed, its next run releases them a page at a time.
 */
import type { LaunchBatch, LaunchPreview } from "../../../shared/api/launch";
import { LAUNCH_AUDIT_ACTIONS, type SkipReason } from "../../../shared/launch";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { AuditRow } from "../console/rows";
import type { LaunchMessage, ServiceEnv } from "../env";
import { errorName, log } from "../log";
import { removeCheckedStatement } from "../store/rank";
import { INVITABLE, LINE_PAGE_SIZE, type LineCursor, readLinePage, skippedCounts, walkPage } from "./line";
import { expiryOf } from "./invitations";
import { newInvitationToken } from "./tokens";

/** Pages one run chooses before it hands the rest to the queue: well inside D1's 1,000 queries per invocation. */
export const BATCH_PAGES_PER_RUN = 20;

/** People a preview reads per query: larger than a batch's pages, since it writes nothing. */
const PREVIEW_PAGE_SIZE = 1_000;

/** A launch_batches row. */
export interface BatchRow {
  id: string;
  idempotency_key: string;
  created_at: string;
  operator: string;
  reason: string;
  requested: number;
  invited: number;
  sent: number;
  failed: number;
  scanned: number;
  skipped_disqualified: number;
  skipped_unconfirmed: number;
  skipped_flagged: number;
  skipped_invited: number;
  after_score: number | null;
  after_referrals: number | null;
  state: LaunchBatch["state"];
  paused_at: string | null;
}

/** A batch row as the console shows it. */
export function batchOf(row: BatchRow): LaunchBatch {
  return {
    id: row.id,
    createdAt: row.created_at,
    operator: row.operator,
    reason: row.reason,
    requested: row.requested,
    invited: row.invited,
    queued: row.invited - row.sent - row.failed,
    sent: row.sent,
    failed: row.failed,
    skipped: {
      disqualified: row.skipped_disqualified,
      unconfirmed: row.skipped_unconfirmed,
      flagged: row.skipped_flagged,
      invited: row.skipped_invited,
    },
    state: row.state,
    pausedAt: row.paused_at,
  };
}

/** Who made a batch, as its audit entry's `after` adds it: an operator's press, or the cron's backfill or schedule. */
export type BatchOrigin = "operator" | "backfill" | "schedule";

/** What a new batch row holds (created_at is `at`, ISO 8601 UTC). */
export interface NewBatch {
  id: string;
  idempotencyKey: string;
  at: string;
  operator: string;
  reason: string;
  requested: number;
  origin: BatchOrigin;
}

/** One batch by id, or null. */
export function readBatch(db: D1Database, id: string): Promise<BatchRow | null> {
  return db.prepare("SELECT * FROM launch_batches WHERE id = ?1").bind(id).first<BatchRow>();
}

/** One batch by its idempotency key, or null. */
export function batchByKey(db: D1Database, key: string): Promise<BatchRow | null> {
  return db.prepare("SELECT * FROM launch_batches WHERE idempotency_key = ?1").bind(key).first<BatchRow>();
}

/**
 * Make a batch row and its `invite_batch` audit entry in one D1 batch, unless its idempotency key made one before
 * (then neither is written).
 * @returns the audit entry written, or null when the key was used already
 * @throws whatever D1 throws (nothing was written)
 */
export async function createBatch(env: ServiceEnv, batch: NewBatch): Promise<AuditRow | null> {
  const db = env.DB;
  const entry: NewAuditEntry = {
    at: batch.at,
    operator: batch.operator,
    action: LAUNCH_AUDIT_ACTIONS.batch,
    person_id: null,
    reason: batch.reason,
    before: null,
    after: JSON.stringify({
      batch_id: batch.id,
      requested: batch.requested,
      ...(batch.origin === "operator" ? {} : { [batch.origin]: true }),
    }),
  };
  const [, audit] = await appendAudit(env, async (tail) =>
    db.batch<Record<string, unknown>>([
      db
        .prepare(
          `INSERT INTO launch_batches (id, idempotency_key, created_at, operator, reason, requested) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
           ON CONFLICT (idempotency_key) DO NOTHING`,
        )
        .bind(batch.id, batch.idempotencyKey, batch.at, batch.operator, batch.reason, batch.requested),
      // Written only when the statement above made the batch its `after` names.
      await appendStatement(db, tail, entry, "WHERE EXISTS (SELECT 1 FROM launch_batches WHERE id = json_extract(?7, '$.batch_id'))"),
    ]),
  );
  return (audit.results[0] as unknown as AuditRow | undefined) ?? null;
}

/** The newest batches, newest first. */
export async function latestBatches(db: D1Database, limit: number): Promise<BatchRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM launch_batches ORDER BY created_at DESC, id DESC LIMIT ?1")
    .bind(limit)
    .all<BatchRow>();
  return results;
}

/**
 * The idempotency key "invite the next `count`" takes now: the newest batch's id and the count. Two operators (or
 * two presses) acting on the same preview send the same key, so they make one batch; once it exists the next
 * preview names it, and so a new key.
 */
export async function previewKey(db: D1Database, count: number): Promise<string> {
  const [newest] = await latestBatches(db, 1);
  return `after:${newest?.id ?? "none"}:next:${count}`;
}

/**
 * Who "invite the next `count`" would invite now, read down the line from its head; nothing is written.
 * @returns the count, the first and last place, and the people passed over before the last, by reason
 */
export async function previewBatch(db: D1Database, count: number): Promise<Omit<LaunchPreview, "idempotencyKey">> {
  const skipped: Record<SkipReason, number> = { disqualified: 0, unconfirmed: 0, flagged: 0, invited: 0 };
  let taken = 0;
  let place = 0;
  let firstPlace: number | null = null;
  let lastPlace: number | null = null;
  let after: LineCursor | null = null;
  while (taken < count) {
    const page = await readLinePage(db, after, PREVIEW_PAGE_SIZE);
    for (const row of page) {
      place += 1;
      if (row.skip) skipped[row.skip] += 1;
      else {
        taken += 1;
        firstPlace ??= place;
        lastPlace = place;
        if (taken === count) break;
      }
    }
    if (page.length < PREVIEW_PAGE_SIZE) break;
    const last = page[page.length - 1];
    after = { score: last.score, referrals: last.referrals };
  }
  return { count: taken, firstPlace, lastPlace, skipped };
}

/** One invitation of a page, as the page's statements read it from JSON. */
interface PageInvitation {
  invitation: string;
  person: string;
  hash: string;
  /** The token sealed (tokens.ts). */
  sealed: string;
  place: number;
  /** The person's score as the line read it: the claim proves it unchanged before the tree is told. */
  score: number;
}

/** A page's invitations, as rows of its JSON (parameter ?1). */
const PAGE_ROWS = `SELECT json_extract(value, '$.invitation') AS invitation, json_extract(value, '$.person') AS person,
  json_extract(value, '$.hash') AS hash, json_extract(value, '$.sealed') AS sealed, json_extract(value, '$.place') AS place,
  json_extract(value, '$.score') AS score FROM json_each(?1)`;

/**
 * Holds once this run's claim on the page did, as an SQL condition on the statement's parameters naming the batch
 * and the run (an uncorrelated subquery: one row read per statement).
 */
function claimed(batchParam: string, runParam: string): string {
  return `(SELECT run FROM launch_batches WHERE id = ${batchParam}) = ${runParam}`;
}

/**
 * The funnel's counts for `count` invitations made at `at` (ISO 8601 UTC) by a page: what the per-row insert
 * triggers do for an invitation made alone (migrations 0014, 0018 and 0019), once per page; written only while the
 * SQL condition `guard` (on the bound `params`) holds.
 * @returns statements for the page's batch (2 statements; each reads a row or two)
 */
function countInvitedStatements(db: D1Database, count: number, at: string, guard: string, params: unknown[]): D1PreparedStatement[] {
  const [n, when] = [`?${params.length + 1}`, `?${params.length + 2}`];
  return [
    db.prepare(`UPDATE rollup_counters SET count = count + ${n} WHERE name = 'invitations_invited' AND ${guard}`).bind(...params, count),
    db
      .prepare(
        `INSERT INTO rollup_launch_days (day, state, count)
         SELECT date(${when}, utc_offset_minutes || ' minutes'), 'invited', ${n} FROM rollup_settings WHERE ${n} > 0 AND ${guard}
         ON CONFLICT (day, state) DO UPDATE SET count = count + excluded.count`,
      )
      .bind(...params, count, at),
  ];
}

/**
 * Choose one page of a batch. Its first statement claims the page only while every person it takes is still
 * invitable at the score the line read (a referral counted, an erase or another batch in between fails the claim and
 * the page is read again); every later statement writes only under that claim, so the page is all or nothing and
 * the people's tree nodes can be computed here.
 * @returns the invitation ids made (their events are the caller's to queue), and whether the batch still chooses;
 *   null when the batch is not choosing, another run claimed this page first, or someone in it changed
 */
async function choosePage(
  env: ServiceEnv,
  settings: ServiceSettings,
  batch: BatchRow,
  now: Date,
): Promise<{ invitationIds: string[]; choosing: boolean } | null> {
  const db = env.DB;
  const wanted = batch.requested - batch.invited;
  const after =
    batch.after_score === null || batch.after_referrals === null ? null : { score: batch.after_score, referrals: batch.after_referrals };
  const walk = wanted > 0 ? await walkPage(db, after, wanted) : { taken: [], read: [], ended: true };
  const finished = walk.ended || walk.taken.length === wanted;
  const invitations: PageInvitation[] = await Promise.all(
    walk.taken.map(async (row) => {
      const invitation = crypto.randomUUID();
      const { hash, sealed } = await newInvitationToken(invitation, env);
      return { invitation, person: row.id, hash, sealed, place: batch.scanned + walk.read.indexOf(row) + 1, score: row.score };
    }),
  );
  const skipped = skippedCounts(walk.read);
  const last = walk.read.at(-1);
  const run = crypto.randomUUID();
  const json = JSON.stringify(invitations);
  const at = now.toISOString();
  const expiresAt = expiryOf(settings, now);
  const results = await db.batch<{ id: string }>([
    db
      .prepare(
        `UPDATE launch_batches SET run = ?3, scanned = scanned + ?4, after_score = coalesce(?5, after_score),
           after_referrals = coalesce(?6, after_referrals), skipped_disqualified = skipped_disqualified + ?7,
           skipped_unconfirmed = skipped_unconfirmed + ?8, skipped_flagged = skipped_flagged + ?9,
           skipped_invited = skipped_invited + ?10, invited = invited + ?11,
           state = CASE WHEN ?12 THEN 'sending' ELSE state END
         WHERE id = ?2 AND scanned = ?13 AND state = 'choosing'
           AND NOT EXISTS (SELECT 1 FROM (${PAGE_ROWS}) AS j LEFT JOIN signups AS p ON p.id = j.person
             WHERE p.id IS NULL OR p.score IS NOT j.score OR NOT (${INVITABLE}))`,
      )
      .bind(
        json,
        batch.id,
        run,
        walk.read.length,
        last?.score ?? null,
        last?.referrals ?? null,
        skipped.disqualified,
        skipped.unconfirmed,
        skipped.flagged,
        skipped.invited,
        invitations.length,
        finished ? 1 : 0,
        batch.scanned,
      ),
    db
      .prepare(
        `INSERT INTO invitations (id, person_id, token_hash, token_sealed, batch_id, place, invited_at, expires_at)
         SELECT j.invitation, j.person, j.hash, j.sealed, ?2, j.place, ?4, ?5 FROM (${PAGE_ROWS}) AS j WHERE ${claimed("?2", "?3")}
         RETURNING id`,
      )
      .bind(json, batch.id, run, at, expiresAt),
    removeCheckedStatement(
      db,
      invitations.map(({ score }) => score),
      claimed("?1", "?2"),
      [batch.id, run],
    ),
    db
      .prepare(
        `UPDATE signups SET invitation_id = j.invitation, score = NULL FROM (${PAGE_ROWS}) AS j
         WHERE signups.id = j.person AND ${claimed("?2", "?3")}`,
      )
      .bind(json, batch.id, run),
    ...countInvitedStatements(db, invitations.length, at, claimed("?1", "?2"), [batch.id, run]),
    db.prepare("UPDATE launch_batches SET state = 'done' WHERE id = ?1 AND state = 'sending' AND sent + failed >= invited").bind(batch.id),
  ]);
  if ((results[0].meta.changes ?? 0) === 0) return null;
  return { invitationIds: results[1].results.map((row) => row.id), choosing: !finished };
}

/**
 * Send messages to the delivery queue, LINE_PAGE_SIZE per call (Cloudflare Queues takes at most 100 a call).
 * @returns whether every send succeeded (a failure is logged; the cron sweep resumes what was not sent)
 */
export async function queueLaunchMessages(env: ServiceEnv, bodies: LaunchMessage[]): Promise<boolean> {
  try {
    for (let start = 0; start < bodies.length; start += LINE_PAGE_SIZE)
      await env.DELIVERY.sendBatch(bodies.slice(start, start + LINE_PAGE_SIZE).map((body) => ({ body })));
    return true;
  } catch (error) {
    log("launch_queue_failed", { messages: bodies.length, reason: errorName(error) });
    return false;
  }
}

/**
 * Choose up to BATCH_PAGES_PER_RUN pages of a batch, queueing each page's invitation events as it goes; when the
 * batch still chooses after them, its next run is queued (a `batch` message).
 * @returns the batch as it is now, or null when there is no such batch
 * @throws whatever D1 throws (the pages written stay written; the next run goes on from them)
 */
export async function runBatch(
  env: ServiceEnv,
  settings: ServiceSettings,
  batchId: string,
  now: Date = new Date(),
): Promise<BatchRow | null> {
  if (!(await releaseHeld(env, batchId))) return readBatch(env.DB, batchId);
  for (let page = 0; page < BATCH_PAGES_PER_RUN; page += 1) {
    const batch = await readBatch(env.DB, batchId);
    if (!batch || batch.state !== "choosing" || batch.paused_at !== null) return batch;
    const chosen = await choosePage(env, settings, batch, now);
    if (chosen === null) {
      const current = await readBatch(env.DB, batchId);
      // The same page unclaimed: someone in it changed between the read and the claim, so read it again.
      if (current?.state === "choosing" && current.scanned === batch.scanned) continue;
      return current;
    }
    await queueLaunchMessages(
      env,
      chosen.invitationIds.map((invitationId) => ({ kind: "invitation", invitationId })),
    );
    log("launch_page", { batch: batchId, invited: chosen.invitationIds.length });
    if (!chosen.choosing) return readBatch(env.DB, batchId);
  }
  await queueLaunchMessages(env, [{ kind: "batch", batchId }]);
  return readBatch(env.DB, batchId);
}

/**
 * Queue again the events a paused batch held, once it runs again: BATCH_PAGES_PER_RUN pages of them at most, through
 * the invitations_held index; when more remain, the batch's next run is queued.
 * @returns whether all are released (false: the batch is paused still, or more remain for the next run)
 */
async function releaseHeld(env: ServiceEnv, batchId: string): Promise<boolean> {
  for (let page = 0; page < BATCH_PAGES_PER_RUN; page += 1) {
    const { results } = await env.DB.prepare(
      `UPDATE invitations SET send_held = 0 WHERE id IN (
         SELECT id FROM invitations WHERE batch_id = ?1 AND send_held = 1 LIMIT ?2
       ) AND NOT EXISTS (SELECT 1 FROM launch_batches WHERE id = ?1 AND paused_at IS NOT NULL) RETURNING id`,
    )
      .bind(batchId, LINE_PAGE_SIZE)
      .all<{ id: string }>();
    await queueLaunchMessages(
      env,
      results.map(({ id }) => ({ kind: "invitation", invitationId: id })),
    );
    if (results.length < LINE_PAGE_SIZE) {
      if (results.length === 0 && page === 0) {
        const batch = await readBatch(env.DB, batchId);
        if (batch?.paused_at) return false;
      }
      return true;
    }
  }
  await queueLaunchMessages(env, [{ kind: "batch", batchId }]);
  return false;
}

/**
 * Pause or resume a batch, with its audit entry, in one D1 batch: paused, it chooses nobody more and its events not
 * sent yet are held; resumed, its next run (queued here) chooses on and releases them.
 * @returns the batch and the entry; null when there is no such batch or it is already so
 * @throws whatever D1 throws (nothing was written)
 */
export async function setBatchPaused(
  env: ServiceEnv,
  batchId: string,
  pause: boolean,
  entry: { operator: string; reason: string; now: Date },
): Promise<{ batch: BatchRow; audit: AuditRow } | null> {
  const db = env.DB;
  const at = entry.now.toISOString();
  const audited: NewAuditEntry = {
    at,
    operator: entry.operator,
    action: pause ? LAUNCH_AUDIT_ACTIONS.pause : LAUNCH_AUDIT_ACTIONS.resume,
    person_id: null,
    reason: entry.reason,
    before: JSON.stringify({ batch_id: batchId, paused: !pause }),
    after: JSON.stringify({ batch_id: batchId, paused: pause }),
  };
  const [changed, audit] = await appendAudit(env, async (tail) =>
    db.batch<Record<string, unknown>>([
      db
        .prepare(
          `UPDATE launch_batches SET paused_at = CASE WHEN ?2 THEN ?3 END
           WHERE id = ?1 AND (paused_at IS NULL) = (?2 = 1) RETURNING id`,
        )
        .bind(batchId, pause ? 1 : 0, at),
      // Written only when the statement above changed the batch.
      await appendStatement(db, tail, audited, "WHERE changes() > 0"),
    ]),
  );
  const row = audit.results[0] as unknown as AuditRow | undefined;
  if (changed.results.length === 0 || !row) return null;
  if (!pause) await queueLaunchMessages(env, [{ kind: "batch", batchId }]);
  return { batch: (await readBatch(db, batchId))!, audit: row };
}
