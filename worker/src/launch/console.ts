/**
 * The console's launch routes' handlers (`/api/console/launch*`, a person's invite and revoke): behind Cloudflare
 * Access like every console route. docs/operators.md: Launch.
 */
import type { Context } from "hono";
import type {
  BatchActionAnswer,
  BatchAnswer,
  BatchRequest,
  InvitationAnswer,
  LaunchAnswer,
  LaunchDay,
  LaunchPreview,
  PersonInvitationAnswer,
  ScheduleAnswer,
  ScheduleRequest,
} from "../../../shared/api/launch";
import { CONSOLE_ERROR_CODE } from "../../../shared/console";
import {
  BATCH_ERROR_CODE,
  LAUNCH_ERROR_CODE,
  LAUNCH_FUNNEL_DAYS,
  type BatchAction,
  type PersonInvitationAction,
} from "../../../shared/launch";
import { addDays, localDay, timeZoneName } from "../../../shared/local-days";
import { auditEntryOf } from "../console/rows";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { log } from "../log";
import { SCORE_TREE_CAPACITY } from "../store/rank";
import { readLaunchDays } from "../store/rollups";
import {
  batchByKey,
  batchOf,
  createBatch,
  latestBatches,
  previewBatch,
  previewKey,
  queueLaunchMessages,
  runBatch,
  setBatchPaused,
} from "./batches";
import {
  currentInvitation,
  invitationOf,
  invitePerson,
  resendInvitation,
  revokeInvitation,
  type InvitationContext,
  type InvitationResult,
} from "./invitations";
import { readSchedule, scheduleOf, writeSchedule } from "./schedule";

/** Batches the Launch screen lists, newest first. */
export const LAUNCH_BATCHES_SHOWN = 20;

/**
 * 200 LaunchAnswer: the funnel now from the rank tree's total and the invitation counters, the funnel by day from the
 * rollups, the latest batches and the schedule. Rows read, at 1,000,000 signups as at 10 (Server-Timing in
 * development): the tree's total 1; the counters about 10; the rollups' time zone 1; the days LAUNCH_FUNNEL_DAYS ×
 * (signup sources + 4), each range on a primary key (store/rollups.ts: readLaunchDays); the batches
 * LAUNCH_BATCHES_SHOWN (launch_batches_created); the schedule 1. So well under 10,000 while the signup pages number
 * fewer than about 300; the one exception is the first read after the site's time zone changed, which cuts the days
 * again from every row (a full scan, once), as the dashboard's does.
 */
export async function handleLaunch(c: Context<AppEnv>): Promise<Response> {
  const db = c.env.DB;
  const offset = c.var.settings.utcOffsetMinutes;
  const now = Date.now();
  const today = localDay(now, offset);
  const from = addDays(today, 1 - LAUNCH_FUNNEL_DAYS);
  const [[waiting, counters], rollups, batches, schedule] = await Promise.all([
    db.batch<{ name: string; count: number }>([
      db.prepare(`SELECT 'waiting' AS name, count FROM rank_tree WHERE node = ${SCORE_TREE_CAPACITY}`),
      db.prepare("SELECT substr(name, 13) AS name, count FROM rollup_counters WHERE name LIKE 'invitations\\_%' ESCAPE '\\'"),
    ]),
    readLaunchDays(db, from, today, offset),
    latestBatches(db, LAUNCH_BATCHES_SHOWN),
    readSchedule(db),
  ]);
  const count = (name: string) => [...waiting.results, ...counters.results].find((row) => row.name === name)?.count ?? 0;
  const answer: LaunchAnswer = {
    funnel: {
      waiting: count("waiting"),
      invited: count("invited"),
      accepted: count("accepted"),
      expired: count("expired"),
      revoked: count("revoked"),
    },
    days: everyLaunchDay(from, today, rollups),
    timeZone: timeZoneName(offset),
    batches: batches.map(batchOf),
    schedule: schedule ? scheduleOf(schedule, offset, now) : null,
  };
  return jsonResponse(200, answer, { "cache-control": "no-store" });
}

/** Every day from `from` to `to` in order, a day without a rollup row counting 0 throughout. */
function everyLaunchDay(from: string, to: string, rows: Awaited<ReturnType<typeof readLaunchDays>>): LaunchDay[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: LaunchDay[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const row = byDay.get(day);
    days.push({
      date: day,
      waiting: row?.joined ?? 0,
      invited: row?.invited ?? 0,
      accepted: row?.accepted ?? 0,
      expired: row?.expired ?? 0,
      revoked: row?.revoked ?? 0,
    });
  }
  return days;
}

/** PUT …/launch/schedule: 200 ScheduleAnswer with the schedule as set now and its audit entry. */
export async function handleSchedule(c: Context<AppEnv>, request: ScheduleRequest & { dailyCount: number }): Promise<Response> {
  const now = new Date();
  const { row, audit } = await writeSchedule(c.env, request, { operator: c.var.operator.id, now });
  log("launch_schedule_set", { dailyCount: row.daily_count, timeOfDay: row.time_of_day, paused: row.paused, audit: audit.id });
  const answer: ScheduleAnswer = { schedule: scheduleOf(row, c.var.settings.utcOffsetMinutes, now.getTime()), audit: auditEntryOf(audit) };
  return jsonResponse(200, answer);
}

/** POST …/batches/:id/pause or …/resume: 200 BatchActionAnswer; 404 `batch_not_found`; 409 when it is so already. */
export async function handleBatchAction(c: Context<AppEnv>, id: string, action: BatchAction, reason: string): Promise<Response> {
  const done = await setBatchPaused(c.env, id, action === "pause", { operator: c.var.operator.id, reason, now: new Date() });
  if (!done) {
    const exists = await c.env.DB.prepare("SELECT 1 FROM launch_batches WHERE id = ?1").bind(id).first();
    return exists
      ? errorResponse([
          {
            status: 409,
            code: BATCH_ERROR_CODE.batchNotApplicable,
            detail: `The batch is ${action === "pause" ? "paused" : "running"} already.`,
          },
        ])
      : errorResponse([{ status: 404, code: BATCH_ERROR_CODE.batchNotFound, detail: "No batch has that id." }]);
  }
  log(`launch_batch_${action}`, { batch: id, audit: done.audit.id });
  return jsonResponse(200, { batch: batchOf(done.batch), audit: auditEntryOf(done.audit) } satisfies BatchActionAnswer);
}

/** GET …/people/:id/invitation: 200 PersonInvitationAnswer; 404 `person_not_found`. */
export async function handlePersonInvitation(c: Context<AppEnv>, id: string): Promise<Response> {
  const exists = await c.env.DB.prepare("SELECT 1 FROM signups WHERE id = ?1").bind(id).first();
  if (!exists) return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
  const row = await currentInvitation(c.env.DB, id);
  return jsonResponse(200, { invitation: row ? invitationOf(row) : null } satisfies PersonInvitationAnswer, {
    "cache-control": "no-store",
  });
}

/** 200 LaunchPreview for "invite the next `count`". */
export async function handlePreview(c: Context<AppEnv>, count: number): Promise<Response> {
  const [preview, idempotencyKey] = await Promise.all([previewBatch(c.env.DB, count), previewKey(c.env.DB, count)]);
  return jsonResponse(200, { ...preview, idempotencyKey } satisfies LaunchPreview);
}

/**
 * Invite the next N: 201 BatchAnswer with the batch made now (its first pages chosen, the rest queued); 200 with the
 * batch this idempotency key made before (a double press: nothing more is done); 409 `idempotency_key_reused` when
 * that batch asked for another count.
 */
export async function handleBatch(c: Context<AppEnv>, request: BatchRequest & { count: number }): Promise<Response> {
  const db = c.env.DB;
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  const entry = await createBatch(c.env, {
    id,
    idempotencyKey: request.idempotencyKey,
    at,
    operator: c.var.operator.id,
    reason: request.reason,
    requested: request.count,
    origin: "operator",
  });
  if (!entry) {
    const existing = await batchByKey(db, request.idempotencyKey);
    if (!existing || existing.requested !== request.count)
      return errorResponse([
        {
          status: 409,
          code: LAUNCH_ERROR_CODE.idempotencyKeyReused,
          detail: "This idempotency key made a batch of another count.",
          pointer: "/idempotencyKey",
        },
      ]);
    return jsonResponse(200, { batch: batchOf(existing), audit: null } satisfies BatchAnswer);
  }
  log("launch_batch", { batch: id, requested: request.count, audit: entry.id });
  const batch = await runBatch(c.env, c.var.settings, id);
  return jsonResponse(201, { batch: batchOf(batch!), audit: auditEntryOf(entry) } satisfies BatchAnswer);
}

/**
 * An invitation action's answer: 200 InvitationAnswer, 400 `reason_invalid` (the reason names the person), 404
 * `person_not_found`, 409 `invitation_not_applicable`.
 */
function invitationAnswer(result: InvitationResult): Response {
  if (result.kind === "reason_invalid")
    return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.reasonInvalid, detail: result.detail, pointer: "/reason" }]);
  if (result.kind === "not_found")
    return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
  if (result.kind === "not_applicable")
    return errorResponse([{ status: 409, code: LAUNCH_ERROR_CODE.invitationNotApplicable, detail: result.detail }]);
  return jsonResponse(200, { invitation: invitationOf(result.invitation), audit: auditEntryOf(result.audit) } satisfies InvitationAnswer);
}

/** What a person's invitation action does, by its path's last segment. */
const PERSON_ACTIONS: Record<
  PersonInvitationAction,
  { run: (context: InvitationContext, id: string) => Promise<InvitationResult>; queue: boolean }
> = {
  invite: { run: invitePerson, queue: true },
  revoke: { run: revokeInvitation, queue: false },
  "resend-invitation": { run: resendInvitation, queue: true },
};

/**
 * POST …/people/:id/invite, …/revoke, …/resend-invitation: the action with its reason and audit entry; invite and
 * resend then queue the invitation's event.
 */
export async function handlePersonAction(
  c: Context<AppEnv>,
  id: string,
  action: PersonInvitationAction,
  reason: string,
): Promise<Response> {
  const { run, queue } = PERSON_ACTIONS[action];
  const result = await run({ env: c.env, settings: c.var.settings, operator: c.var.operator.id, reason, now: new Date() }, id);
  if (result.kind === "done") {
    log(`launch_${action.replace("-", "_")}`, { id, invitation: result.invitation.id, audit: result.audit.id });
    if (queue) await queueLaunchMessages(c.env, [{ kind: "invitation", invitationId: result.invitation.id }]);
  }
  return invitationAnswer(result);
}
