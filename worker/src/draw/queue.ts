/**
 * The queue consumer of `waitlist-draw-job`: one commitment step per message (job.ts), then the next step queued. A
 * step that throws is retried from the draw's row; the cron resumes a job whose message was lost.
 */
import type { DrawJobMessage, ServiceEnv } from "../env";
import { log, errorName } from "../log";
import { readSettings } from "../settings";
import { queueNextStep, runDrawStep } from "./job";

/** The draw job's queue (wrangler.jsonc). */
export const DRAW_JOB_QUEUE = "waitlist-draw-job";

/** A batch of the draw job's queue. */
export async function consumeDrawJob(batch: MessageBatch<unknown>, env: ServiceEnv): Promise<void> {
  const settings = await readSettings(env.ASSETS);
  for (const message of batch.messages) {
    const body = message.body as DrawJobMessage;
    try {
      if ((await runDrawStep(env, settings, body, Date.now())) === "next") await queueNextStep(env, body);
      message.ack();
    } catch (error) {
      log("draw_step_failed", { draw: body.draw, step: body.step, error: errorName(error) });
      message.retry();
    }
  }
}
