/**
 * The launch schedule (docs/operators.md: Launch): up to N invited a day at a time of day in the site's time zone,
 * run by the cron as a batch whose idempotency key names the local day, so however many ticks see the time pass the
 * day makes one batch; set, paused and resumed from the Launch screen with a reason and an audit entry.
 */
import type { LaunchSchedule, ScheduleRequest } from "../../../shared/api/launch";
import { LAUNCH_AUDIT_ACTIONS, SCHEDULE_KEY_PREFIX } from "../../../shared/launch";
import { addDays, localDay } from "../../../shared/local-days";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type NewAuditEntry } from "../console/audit-log";
import type { AuditRow } from "../console/rows";
import type { ServiceEnv } from "../env";
import { log } from "../log";
import { createBatch, runBatch } from "./batches";

/** The launch_schedule row. */
export interface ScheduleRow {
  daily_count: number;
  time_of_day: string;
  paused: number;
  updated_at: string;
  operator: string;
  reason: string;
}

/** The operator the schedule's batches are recorded under. */
export const SCHEDULE_OPERATOR = "schedule";

/** The schedule, or null until an operator sets one (1 row read). */
export function readSchedule(db: D1Database): Promise<ScheduleRow | null> {
  return db.prepare("SELECT * FROM launch_schedule WHERE id = 1").first<ScheduleRow>();
}

/** The moment (ms since the epoch) of `timeOfDay` (HH:MM) on a local day (YYYY-MM-DD) at a UTC offset. */
function momentOf(day: string, timeOfDay: string, utcOffsetMinutes: number): number {
  return Date.parse(`${day}T${timeOfDay}:00Z`) - utcOffsetMinutes * 60_000;
}

/**
 * The local day whose run is due at `now`, or null: its time has passed, and the schedule was last written before
 * it (a time already past when an operator sets or resumes the schedule waits for the next day).
 */
function dueDay(row: ScheduleRow, utcOffsetMinutes: number, now: number): string | null {
  if (row.paused) return null;
  const today = localDay(now, utcOffsetMinutes);
  const moment = momentOf(today, row.time_of_day, utcOffsetMinutes);
  return now >= moment && Date.parse(row.updated_at) <= moment ? today : null;
}

/** The schedule as the Launch screen shows it: with its next run (ISO 8601 UTC), none while paused. */
export function scheduleOf(row: ScheduleRow, utcOffsetMinutes: number, now: number): LaunchSchedule {
  let nextRunAt: string | null = null;
  if (!row.paused) {
    const today = localDay(now, utcOffsetMinutes);
    const todays = momentOf(today, row.time_of_day, utcOffsetMinutes);
    const next =
      now < todays && Date.parse(row.updated_at) <= todays ? todays : momentOf(addDays(today, 1), row.time_of_day, utcOffsetMinutes);
    nextRunAt = new Date(next).toISOString();
  }
  return {
    dailyCount: row.daily_count,
    timeOfDay: row.time_of_day,
    paused: row.paused !== 0,
    nextRunAt,
    updatedAt: row.updated_at,
    operator: row.operator,
    reason: row.reason,
  };
}

/**
 * Set the whole schedule (pausing is `paused: true`), with its `launch_schedule` audit entry holding the schedule
 * before and after, in one D1 batch.
 * @throws whatever D1 throws (nothing was written)
 */
export async function writeSchedule(
  env: ServiceEnv,
  request: ScheduleRequest & { dailyCount: number },
  entry: { operator: string; now: Date },
): Promise<{ row: ScheduleRow; audit: AuditRow }> {
  const at = entry.now.toISOString();
  const paused = request.paused ? 1 : 0;
  const audited = (row: { daily_count: number; time_of_day: string; paused: number } | null) =>
    row && JSON.stringify({ daily_count: row.daily_count, time_of_day: row.time_of_day, paused: row.paused !== 0 });
  const db = env.DB;
  const [audit, saved] = await appendAudit(env, async (tail) => {
    const auditEntry: NewAuditEntry = {
      at,
      operator: entry.operator,
      action: LAUNCH_AUDIT_ACTIONS.schedule,
      person_id: null,
      reason: request.reason,
      before: audited(await readSchedule(db)),
      after: audited({ daily_count: request.dailyCount, time_of_day: request.timeOfDay, paused }),
    };
    return db.batch<Record<string, unknown>>([
      await appendStatement(db, tail, auditEntry),
      db
        .prepare(
          `INSERT INTO launch_schedule (id, daily_count, time_of_day, paused, updated_at, operator, reason) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)
           ON CONFLICT (id) DO UPDATE SET daily_count = excluded.daily_count, time_of_day = excluded.time_of_day,
             paused = excluded.paused, updated_at = excluded.updated_at, operator = excluded.operator, reason = excluded.reason
           RETURNING *`,
        )
        .bind(request.dailyCount, request.timeOfDay, paused, at, entry.operator, request.reason),
    ]);
  });
  return { row: saved.results[0] as unknown as ScheduleRow, audit: audit.results[0] as unknown as AuditRow };
}

/**
 * The cron's part: when today's run is due, invite up to the day's count as a batch of the schedule's (its key
 * SCHEDULE_KEY_PREFIX and the local day, so one a day), with its audit entry, and choose its first pages.
 * @returns the people invited by this tick's run (0 when none was due or the day's batch exists)
 * @throws whatever D1 throws (the next tick tries again; the key keeps it to one batch)
 */
export async function runSchedule(env: ServiceEnv, settings: ServiceSettings, now: number): Promise<number> {
  const row = await readSchedule(env.DB);
  const day = row ? dueDay(row, settings.utcOffsetMinutes, now) : null;
  if (!row || !day) return 0;
  const id = crypto.randomUUID();
  const made = await createBatch(env, {
    id,
    idempotencyKey: `${SCHEDULE_KEY_PREFIX}${day}`,
    at: new Date(now).toISOString(),
    operator: SCHEDULE_OPERATOR,
    reason: `Schedule of ${row.operator}: ${row.reason}`,
    requested: row.daily_count,
    origin: "schedule",
  });
  if (!made) return 0;
  const batch = await runBatch(env, settings, id, new Date(now));
  log("launch_scheduled_batch", { batch: id, day, requested: row.daily_count, invited: batch?.invited ?? 0 });
  return batch?.invited ?? 0;
}
