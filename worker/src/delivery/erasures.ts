/**
 * An erased person's Klaviyo deletion job, as the queue consumer runs it (message kind `erase`): the Data Privacy
 * API's deletion request, retried like a delivery until Klaviyo accepts it; then the `erasures` row, the last place
 * the address was kept, is deleted. docs/operators.md: Erase.
 */
import { markErasureDone, markErasureRetrying, type ErasureRow } from "../store/erasures";
import { requestProfileDeletion, type DeliveryOutcome } from "./klaviyo";
import { ACK, type Attempt, dueAt, type KlaviyoTarget, retryDelayS, skippedAttempt } from "./messages";

/**
 * One deletion job's attempt.
 * @param row the owed job, undefined when it is done already (a message delivered twice)
 * @param klaviyo null without a private API key: nothing was ever sent, so nothing is owed
 */
export async function attemptErasure(
  message: Message,
  id: string,
  row: ErasureRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
): Promise<Attempt> {
  if (!row) return skippedAttempt(message, id, "erasure", "no deletion owed");
  if (!klaviyo)
    return { message, signupId: id, fate: ACK, update: markErasureDone(db, id, row.created_at), line: ["erasure_demo", { id }] };
  const attempt = row.attempts + 1;
  const outcome: DeliveryOutcome = await requestProfileDeletion(row.email, klaviyo.account);
  switch (outcome.kind) {
    case "delivered":
      return {
        message,
        signupId: id,
        fate: ACK,
        update: markErasureDone(db, id, row.created_at),
        line: ["erasure_requested", { id, attempt }],
      };
    case "refused":
      // Klaviyo will never take a job for this address (it cannot hold a profile with it): nothing is left to ask.
      return {
        message,
        signupId: id,
        fate: { kind: "dead-letter" },
        update: markErasureDone(db, id, row.created_at),
        line: ["erasure_refused", { id, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = retryDelayS(outcome, attempt);
      return {
        message,
        signupId: id,
        fate: { kind: "retry", delayS },
        update: markErasureRetrying(db, id, outcome.reason, dueAt(delayS)),
        line: ["erasure_retry", { id, attempt, reason: outcome.reason, delayS }],
      };
    }
  }
}
