/**
 * The cron sweep (wrangler.jsonc `triggers.crons`): a signup the service accepted must reach Klaviyo whatever happens,
 * and the queue alone cannot promise that (a send that failed after the insert, a message out of retries). A
 * duplicate that slips through is harmless: Klaviyo's calls are idempotent by address. docs/delivery.md: The cron sweep.
 */
import type { DeliveryMessage, ServiceEnv } from "../env";
import { log } from "../log";
import { claimOverdueDeliveries, clearProfileUpdatesDue, dueProfileUpdates } from "../store/delivery";
import { claimOverdueErasures } from "../store/erasures";
import { forgetAlreadyNoticesBefore } from "../store/referrals";

/**
 * How far past its due time a pending row must be before the sweep queues it again (s): longer than a busy queue's
 * lag, so a message that is merely late is not doubled; short enough that a lost one waits minutes, not hours.
 */
export const SWEEP_GRACE_S = 600;

/** Rows one sweep queues again at most (oldest first); the rest go out on the next runs. */
export const SWEEP_MAX_ROWS = 1_000;

/** Messages per sendBatch call: Cloudflare Queues takes at most 100. */
const SEND_BATCH_MAX_MESSAGES = 100;

/**
 * Queue every pending row overdue by SWEEP_GRACE_S again, then every owed profile update (its mark cleared once sent),
 * then every Klaviyo deletion job overdue by SWEEP_GRACE_S, and forget the "already on the list" grants of past days.
 * @param now the scheduled time (ms since the epoch)
 * @throws whatever D1 or the queue throws (rows claimed and not sent are claimed again after SWEEP_GRACE_S; owed
 *   profile updates keep their marks until they are sent)
 */
export async function sweepPendingDeliveries(env: ServiceEnv, now: number = Date.now()): Promise<void> {
  // One clock for the whole sweep: a row is overdue when it has waited past the grace.
  const at = new Date(now).toISOString();
  const overdueBefore = new Date(now - SWEEP_GRACE_S * 1000).toISOString();
  const ids = await claimOverdueDeliveries(env.DB, overdueBefore, at, SWEEP_MAX_ROWS);
  await sendAll(
    env,
    ids.map((signupId) => ({ signupId })),
  );
  const owed = await dueProfileUpdates(env.DB, at, SWEEP_MAX_ROWS);
  await sendAll(
    env,
    owed.map(({ id }) => ({ signupId: id, kind: "profile" })),
  );
  await clearProfileUpdatesDue(env.DB, owed);
  // Klaviyo deletion jobs of erased people whose message was never sent or ran out of retries.
  const erasures = await claimOverdueErasures(env.DB, overdueBefore, at, SWEEP_MAX_ROWS);
  await sendAll(
    env,
    erasures.map((signupId) => ({ signupId, kind: "erase" })),
  );
  // The notice grants of past days count for nothing any more.
  await forgetAlreadyNoticesBefore(env.DB, at.slice(0, 10));
  log("delivery_sweep", { requeued: ids.length, profileUpdates: owed.length, erasures: erasures.length });
}

/** Send messages to the delivery queue, SEND_BATCH_MAX_MESSAGES per call. */
async function sendAll(env: ServiceEnv, bodies: DeliveryMessage[]): Promise<void> {
  for (let start = 0; start < bodies.length; start += SEND_BATCH_MAX_MESSAGES) {
    await env.DELIVERY.sendBatch(bodies.slice(start, start + SEND_BATCH_MAX_MESSAGES).map((body) => ({ body })));
  }
}
