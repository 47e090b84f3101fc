/**
 * The consumer of the dead-letter queue: one log line per dead letter (the operator's signal), then ack. A signup out
 * of retries is still `pending` for the sweep; a profile update out of retries is marked owed on the person's row.
 * Every dead letter is counted for the operator's dashboard (store/rollups.ts), in the same batch as the marks.
 */
import type { ServiceEnv } from "../env";
import { errorName, log } from "../log";
import { type DeliveryRow, markProfileUpdateDue, readDeliveryRows } from "../store/delivery";
import { deadLettersStatement } from "../store/rollups";
import { kindOf, refusedBy, signupIdOf } from "./messages";

/** Log and ack each dead letter; retry the whole batch when D1 cannot be read or written. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: ServiceEnv): Promise<void> {
  const ids = batch.messages.map((message) => signupIdOf(message.body)).filter((id): id is string => id !== null);
  let rows: Map<string, DeliveryRow>;
  try {
    rows = await readDeliveryRows(env.DB, ids);
    // A profile update that ran out of retries has no row of its own that the sweep would find: mark it owed.
    const now = new Date().toISOString();
    const owed = batch.messages.flatMap((message) => {
      const id = signupIdOf(message.body);
      return id !== null && rows.has(id) && kindOf(message.body) === "profile" && !refusedBy(message.body) ? [id] : [];
    });
    await env.DB.batch([...owed.map((id) => markProfileUpdateDue(env.DB, id, now)), deadLettersStatement(env.DB, batch.messages.length)]);
  } catch (error) {
    log("delivery_dead_letter_unread", { reason: errorName(error), messages: batch.messages.length });
    batch.retryAll();
    return;
  }
  for (const message of batch.messages) {
    const id = signupIdOf(message.body);
    const row = id === null ? undefined : rows.get(id);
    log("delivery_dead_letter", {
      id,
      kind: kindOf(message.body),
      state: row?.delivery_state ?? "no such signup",
      attempts: row?.delivery_attempts ?? null,
      reason: row?.delivery_error ?? null,
    });
    message.ack();
  }
}
