/**
 * The delivery queue's messages as the consumers read them, and the retry schedule they share. A message carries a
 * row's id only (env.ts: DeliveryMessage); the row in D1 holds everything else.
 */
import type { NewAuditEntry } from "../console/audit-log";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { DeliveryMessage } from "../env";
import { errorName, type LogFields } from "../log";
import type { DeliveryOutcome, KlaviyoAccount } from "./klaviyo";

/** The dead-letter queue's name (wrangler.jsonc); its batches reach the same `queue` handler. */
export const DEAD_LETTER_QUEUE = "waitlist-delivery-dlq";

/** The first retry's delay after a failure (s); each further failure doubles it. */
export const BACKOFF_BASE_S = 5;

/**
 * The longest backoff delay (s): short enough that a waiting signup goes out soon after Klaviyo's return, long enough
 * that an outage costs few requests per waiting signup.
 */
export const BACKOFF_CAP_S = 900;

/** The longest delay a queue message can be retried with (s): Cloudflare Queues' limit. */
export const QUEUE_MAX_DELAY_S = 43_200;

/** The retry delay after the n-th failed attempt (s): BACKOFF_BASE_S × 2^(n−1), at most BACKOFF_CAP_S. */
export function backoffDelayS(attempt: number): number {
  return Math.min(BACKOFF_BASE_S * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_S);
}

/** The row id of a message body of the shape the route sends, or null. */
export function signupIdOf(body: unknown): string | null {
  const id = (body as Partial<DeliveryMessage> | null)?.signupId;
  return typeof id === "string" && id !== "" ? id : null;
}

/** What a message asks for (DeliveryMessage.kind); the signup's delivery when it names nothing known. */
export function kindOf(body: unknown): NonNullable<DeliveryMessage["kind"]> {
  const kind = (body as Partial<DeliveryMessage> | null)?.kind;
  return kind === "profile" || kind === "confirm" || kind === "already" || kind === "erase" ? kind : "signup";
}

/** Whether a dead letter was sent because Klaviyo refused it, rather than because its retries ran out. */
export function refusedBy(body: unknown): boolean {
  return (body as Partial<DeliveryMessage> | null)?.refused === true;
}

/** ISO 8601 UTC time `delayS` seconds from now. */
export function dueAt(delayS: number): string {
  return new Date(Date.now() + delayS * 1000).toISOString();
}

/** A retry's delay (s): Klaviyo's Retry-After when it throttled, else the backoff; at most the queue's limit. */
export function retryDelayS(outcome: Extract<DeliveryOutcome, { kind: "throttled" | "failed" }>, attempt: number): number {
  const delayS = outcome.kind === "throttled" ? (outcome.retryAfterS ?? backoffDelayS(attempt)) : backoffDelayS(attempt);
  return Math.min(delayS, QUEUE_MAX_DELAY_S);
}

/** What becomes of a message once its attempt is over, in the queue's terms. */
export type Fate = { kind: "ack" } | { kind: "retry"; delayS: number } | { kind: "dead-letter" };

export const ACK: Fate = { kind: "ack" };

/** One message's attempt. */
export interface Attempt {
  message: Message;
  signupId: string;
  fate: Fate;
  /** The row's update, saved with the batch's others before any message is settled. */
  update?: D1PreparedStatement;
  /**
   * The address a Klaviyo write of this attempt named, whatever Klaviyo answered (a timed-out write may still land):
   * if the person was erased meanwhile, their deletion is owed again (store/erasures.ts: oweErasuresIfErased).
   */
  wroteTo?: string;
  /** The log line, written once the fate holds. */
  line: [string, LogFields];
  /** An audit entry the attempt's outcome makes (a deletion job's), appended once the rows are saved. */
  audit?: NewAuditEntry;
}

/** Where deliveries go: Klaviyo's account and the build's list and default source. */
export interface KlaviyoTarget {
  account: KlaviyoAccount;
  settings: ServiceSettings;
}

/** A message retried after a failure of ours (D1 could not be read or written): the backoff by its attempts. */
export function retryAfterError(message: Message, signupId: string, event: string, error: unknown): Attempt {
  const delayS = backoffDelayS(message.attempts);
  return {
    message,
    signupId,
    fate: { kind: "retry", delayS },
    line: [`${event}_retry`, { id: signupId, reason: errorName(error), delayS }],
  };
}

/**
 * A profile write's attempt (profile-import alone: a referrer's update, the "already on the list" notice) by Klaviyo's
 * answer: delivered, ack; refused, `refused`; throttled or failed, retried after Retry-After or the backoff. Its log
 * lines are `<event>_delivered`, `<event>_refused` and `<event>_retry`.
 */
export function profileWriteAttempt(message: Message, signupId: string, event: string, outcome: DeliveryOutcome, refused: Fate): Attempt {
  const attempt = message.attempts;
  switch (outcome.kind) {
    case "delivered":
      return { message, signupId, fate: ACK, line: [`${event}_delivered`, { id: signupId, attempt }] };
    case "refused":
      return {
        message,
        signupId,
        fate: refused,
        line: [`${event}_refused`, { id: signupId, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = retryDelayS(outcome, attempt);
      return {
        message,
        signupId,
        fate: { kind: "retry", delayS },
        line: [`${event}_retry`, { id: signupId, attempt, reason: outcome.reason, delayS }],
      };
    }
  }
}

/** A message acknowledged without an attempt, and why (`<event>_skipped`). */
export function skippedAttempt(message: Message, signupId: string, event: string, reason: string): Attempt {
  return { message, signupId, fate: ACK, line: [`${event}_skipped`, { id: signupId, reason }] };
}
