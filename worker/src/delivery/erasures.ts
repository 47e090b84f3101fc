/**
 * An erased person's Klaviyo deletion job, as the queue consumer runs it (message kind `erase`): the Data Privacy
 * API's deletion request, retried like a delivery while Klaviyo is down or throttling; once Klaviyo takes it the
 * `erasures` row, the last place the address was kept, is deleted. A 4xx (our key's scope, or the address) is neither
 * dropped nor retried at the queue's pace: the row stays with Klaviyo's status and is asked again weekly. Either
 * outcome is an audit entry. docs/operators.md: Erase.
 */
import { ERASURE_AUDIT_ACTIONS, ERASURE_AUDIT_OPERATOR } from "../../../shared/console";
import { markErasureDone, markErasureRefused, markErasureRetrying, type ErasureRow } from "../store/erasures";
import { requestProfileDeletion, type DeliveryOutcome } from "./klaviyo";
import { ACK, type Attempt, dueAt, type KlaviyoTarget, retryDelayS, skippedAttempt } from "./messages";

/** Klaviyo's answer to a deletion job it took (Data Privacy API: 202 Accepted). */
const DELETION_ACCEPTED_STATUS = 202;

/** How long a refused job waits before Klaviyo is asked again (s): time for the operator to fix the key's scope. */
export const REFUSED_ERASURE_RETRY_S = 7 * 24 * 60 * 60;

/** The audit entry of a job's outcome: Klaviyo's status, never the address. */
function outcomeEntry(id: string, action: string, status: number, reason: string) {
  return {
    person_id: id,
    at: new Date().toISOString(),
    operator: ERASURE_AUDIT_OPERATOR,
    action,
    reason,
    before: null,
    after: JSON.stringify({ klaviyo_status: status }),
  };
}

/** Klaviyo's answer as a refusal of the job, when it is one: a 4xx other than 429. */
function refusalStatus(outcome: DeliveryOutcome): number | null {
  if (outcome.kind === "refused") return outcome.status;
  if (outcome.kind === "failed" && outcome.status !== null && outcome.status >= 400 && outcome.status < 500) return outcome.status;
  return null;
}

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
  const refused = refusalStatus(outcome);
  if (refused !== null && (outcome.kind === "refused" || outcome.kind === "failed"))
    return {
      message,
      signupId: id,
      fate: ACK,
      update: markErasureRefused(db, id, refused, outcome.reason, dueAt(REFUSED_ERASURE_RETRY_S)),
      audit: outcomeEntry(id, ERASURE_AUDIT_ACTIONS.refused, refused, `Klaviyo refused the deletion job: ${outcome.reason}`),
      line: ["erasure_refused", { id, attempt, status: refused, reason: outcome.reason }],
    };
  switch (outcome.kind) {
    case "delivered":
      return {
        message,
        signupId: id,
        fate: ACK,
        update: markErasureDone(db, id, row.created_at),
        audit: outcomeEntry(id, ERASURE_AUDIT_ACTIONS.done, DELETION_ACCEPTED_STATUS, "Klaviyo accepted the deletion job."),
        line: ["erasure_requested", { id, attempt }],
      };
    default: {
      const delayS = retryDelayS(outcome as Extract<DeliveryOutcome, { kind: "throttled" | "failed" }>, attempt);
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
