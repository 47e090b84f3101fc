/**
 * Launch day's part of the cron (wrangler.jsonc `triggers.crons`): open invitations past their expiry become
 * `expired` (and with `launch.backfill` the next people in line are invited in their place), the one reminder goes
 * to those still invited `launch.reminderDaysBefore` days before expiry, the schedule's batch of the day
 * (schedule.ts), and what a dead Worker left undone resumes:
 * events never queued, batches still choosing. docs/operators.md: Launch.
 */
import type { ServiceSettings } from "../../../shared/service-settings";
import type { ServiceEnv } from "../env";
import { errorName, log } from "../log";
import { readSettings } from "../settings";
import { createBatch, runBatch, queueLaunchMessages } from "./batches";
import { runSchedule } from "./schedule";
import { DAY_MS } from "./invitations";

/** Invitations one run expires, reminds or queues again at most (oldest first); the rest go on the next runs. */
export const LAUNCH_SWEEP_MAX_ROWS = 1_000;

/**
 * How long an invitation's event may wait unsent before the cron queues it again (s): longer than a large batch
 * takes at Klaviyo's steady limit, so an event merely waiting its turn is not doubled (a doubled one is harmless:
 * its unique_id is recorded once, and a sent invitation is never sent again).
 */
export const LAUNCH_SWEEP_GRACE_S = 3_600;

/** The operator the cron's own batches are recorded under. */
export const CRON_OPERATOR = "cron";

/**
 * Run launch day's part of one cron tick.
 * @param now the scheduled time (ms since the epoch)
 * @throws whatever D1 throws (each step is safe to run again on the next tick)
 */
export async function runLaunchSchedule(env: ServiceEnv, now: number): Promise<void> {
  let settings: ServiceSettings;
  try {
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    log("launch_schedule_skipped", { reason: errorName(error) });
    return;
  }
  const db = env.DB;
  const at = new Date(now).toISOString();

  // 1. Expiry: open invitations past their time, oldest first.
  const { results: expired } = await db
    .prepare(
      `UPDATE invitations SET state = 'expired', expired_at = ?1 WHERE id IN (
         SELECT id FROM invitations WHERE state = 'invited' AND expires_at <= ?1 ORDER BY expires_at LIMIT ?2
       ) RETURNING id`,
    )
    .bind(at, LAUNCH_SWEEP_MAX_ROWS)
    .all<{ id: string }>();

  // 2. Backfill: as many of the next people in line as expired, as a batch of the cron's (one per tick: its key).
  let backfilled = 0;
  if (settings.launch.backfill && expired.length > 0) {
    const id = crypto.randomUUID();
    const made = await createBatch(env, {
      id,
      idempotencyKey: `backfill:${at}`,
      at,
      operator: CRON_OPERATOR,
      reason: `Backfill: ${expired.length} invitations expired`,
      requested: expired.length,
      origin: "backfill",
    });
    if (made) backfilled = (await runBatch(env, settings, id, new Date(now)))?.invited ?? 0;
  }

  // 3. The schedule: today's batch, once its time has passed.
  const scheduled = await runSchedule(env, settings, now);

  // 4. The one reminder, to those still invited whose expiry is near; marked first, so a tick never reminds twice.
  let reminded: { id: string }[] = [];
  if (settings.launch.reminderDaysBefore > 0) {
    const remindBefore = new Date(now + settings.launch.reminderDaysBefore * DAY_MS).toISOString();
    ({ results: reminded } = await db
      .prepare(
        `UPDATE invitations SET reminded_at = ?1 WHERE id IN (
           SELECT id FROM invitations WHERE state = 'invited' AND expires_at <= ?2 AND reminded_at IS NULL AND send_state = 'sent'
           ORDER BY expires_at LIMIT ?3
         ) RETURNING id`,
      )
      .bind(at, remindBefore, LAUNCH_SWEEP_MAX_ROWS)
      .all<{ id: string }>());
    await queueLaunchMessages(
      env,
      reminded.map(({ id }) => ({ kind: "reminder", invitationId: id })),
    );
  }

  // 5. Events never queued, or out of retries: claimed (their due time becomes now) and queued again.
  const overdueBefore = new Date(now - LAUNCH_SWEEP_GRACE_S * 1000).toISOString();
  const { results: unsent } = await db
    .prepare(
      `UPDATE invitations SET send_due_at = ?2 WHERE id IN (
         SELECT id FROM invitations WHERE send_state = 'queued' AND state = 'invited' AND send_held = 0
           AND coalesce(send_due_at, invited_at) < ?1
         ORDER BY invited_at LIMIT ?3
       ) RETURNING id`,
    )
    .bind(overdueBefore, at, LAUNCH_SWEEP_MAX_ROWS)
    .all<{ id: string }>();
  await queueLaunchMessages(
    env,
    unsent.map(({ id }) => ({ kind: "invitation", invitationId: id })),
  );

  // 6. Batches still choosing: their next run (a second run beside a live one claims no page twice).
  const { results: choosing } = await db
    .prepare("SELECT id FROM launch_batches WHERE state = 'choosing' AND paused_at IS NULL")
    .all<{ id: string }>();
  await queueLaunchMessages(
    env,
    choosing.map(({ id }) => ({ kind: "batch", batchId: id })),
  );
  log("launch_schedule", {
    expired: expired.length,
    backfilled,
    scheduled,
    reminded: reminded.length,
    requeued: unsent.length,
    choosing: choosing.length,
  });
}
