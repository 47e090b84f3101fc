/**
 * Delivery of stored signups to Klaviyo: the consumer of the `waitlist-delivery` queue, the consumer of its
 * dead-letter queue, and the cron sweep (wrangler.jsonc: `queues.consumers`, `triggers.crons`).
 *
 * A message is `{ signupId }` only; the row in D1 holds everything else, and its delivery columns record each
 * attempt. Per message: a row that is no longer `pending` is acknowledged (queues deliver at least once); without a
 * Klaviyo private API key the row becomes `demo` and nothing is sent; otherwise klaviyo.ts delivers it and the
 * outcome decides:
 * - delivered: row `delivered`, message acknowledged;
 * - throttled (429): retried after Klaviyo's Retry-After;
 * - failed (5xx, no answer, a configuration 4xx): retried with exponential backoff (backoffDelayS);
 * - refused (Klaviyo will not take the address): row `refused` with Klaviyo's reason, the message sent to the
 *   dead-letter queue, acknowledged.
 * Every attempt adds one to `delivery_attempts` and records when the next one is due.
 *
 * A `profile` message (a referral of the person's counted: their referral properties changed) sends profile-import
 * alone with referral-properties.ts's values and records nothing in the row; it is retried and dead-lettered the same
 * way. It is skipped for a row Klaviyo refused, and sends nothing without a key.
 *
 * Why a cron sweep as well as the queue's retries: a signup the service accepted must reach Klaviyo whatever
 * happens, and the queue alone cannot promise that. The route stores the row before it enqueues, so a failed send
 * leaves a row no message will ever deliver; and after `max_retries` (100, about a day of capped backoff) a message
 * goes to the dead-letter queue although its row is still `pending`. The sweep re-enqueues every `pending` row whose
 * next attempt is overdue by SWEEP_GRACE_S, so those rows go out once Klaviyo is back, while a row whose message is
 * still waiting in the queue is left alone (no duplicate traffic during a long outage). A profile update that ran out
 * of retries is marked owed on the person's row by the dead-letter consumer (`profile_update_due_at`), and the sweep
 * queues it again. A duplicate that does slip through is harmless: Klaviyo's import and subscribe are idempotent by
 * address.
 */
import type { DeliveryMessage, ServiceEnv } from "../env";
import { readSettings } from "../settings";
import type { ServiceSettings } from "../../../src/signup/service-settings";
import {
  claimOverdueDeliveries,
  clearProfileUpdatesDue,
  type DeliveryRow,
  dueProfileUpdates,
  markDelivered,
  markDemo,
  markProfileUpdateDue,
  markRefused,
  markRetrying,
  readDeliveryRows,
  saveDeliveryOutcomes,
} from "../store/delivery";
import {
  DEFAULT_KLAVIYO_API_URL,
  deliverToKlaviyo,
  type DeliveryOutcome,
  type KlaviyoAccount,
  type KlaviyoSignup,
  updateKlaviyoProfile,
} from "./klaviyo";
import { referralProperties } from "./referral-properties";

/** The dead-letter queue's name (wrangler.jsonc); its batches reach the same `queue` handler. */
export const DEAD_LETTER_QUEUE = "waitlist-delivery-dlq";

/** The first retry's delay after a failure (s); each further failure doubles it. */
export const BACKOFF_BASE_S = 5;

/**
 * The longest backoff delay (s): during an outage each signup is tried at least every 15 minutes, so it goes out
 * within minutes of Klaviyo's return, at a cost of 4 requests an hour per waiting signup.
 */
export const BACKOFF_CAP_S = 900;

/** The longest delay a queue message can be retried with (s): Cloudflare Queues' limit of 12 hours. */
export const QUEUE_MAX_DELAY_S = 43_200;

/**
 * How far past its due time a pending row must be before the sweep re-enqueues it (s). Longer than a busy queue's
 * lag, so a message that is merely late is not doubled; short enough that a lost one waits minutes, not hours.
 */
export const SWEEP_GRACE_S = 600;

/** Rows one sweep re-enqueues at most (oldest first); the rest go out on the next runs. */
export const SWEEP_MAX_ROWS = 1_000;

/** Messages per sendBatch call: Cloudflare Queues takes at most 100. */
const SEND_BATCH_MAX_MESSAGES = 100;

/**
 * The retry delay after the n-th failed attempt (s): BACKOFF_BASE_S × 2^(n−1), at most BACKOFF_CAP_S
 * (5, 10, 20, 40, 80, 160, 320, 640, 900, 900 … s).
 * @param attempt 1 for the first failure
 */
export function backoffDelayS(attempt: number): number {
  return Math.min(BACKOFF_BASE_S * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_S);
}

/** One line of the Worker's log: an event with ids, counts and reasons; never an address or a name. */
function log(event: string, fields: Record<string, string | number | null> = {}): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/** A message body of the shape the route sends, or null. */
function signupIdOf(body: unknown): string | null {
  const id = (body as Partial<DeliveryMessage> | null)?.signupId;
  return typeof id === "string" && id !== "" ? id : null;
}

/** What a message asks for: the signup's delivery, or a profile update (DeliveryMessage). */
function kindOf(body: unknown): "signup" | "profile" {
  return (body as Partial<DeliveryMessage> | null)?.kind === "profile" ? "profile" : "signup";
}

/** What becomes of one message once its attempt is over. */
interface Decision {
  message: Message;
  signupId: string;
  /** The row's update, if any. */
  update?: D1PreparedStatement;
  /** Acknowledge, or retry after this many seconds. */
  settle: "ack" | { retryAfterS: number };
  /** Send the message to the dead-letter queue before settling. */
  deadLetter?: boolean;
  /** The log line, written once the decision holds. */
  line: [string, Record<string, string | number | null>];
}

/**
 * The queue handler: a batch of the delivery queue, or of its dead-letter queue.
 * @throws never for a single message's failure (each message is acknowledged or retried on its own)
 */
export async function consumeDeliveries(batch: MessageBatch<unknown>, env: ServiceEnv): Promise<void> {
  if (batch.queue === DEAD_LETTER_QUEUE) return consumeDeadLetters(batch, env);

  const messages: { message: Message; signupId: string }[] = [];
  for (const message of batch.messages) {
    const signupId = signupIdOf(message.body);
    if (signupId) messages.push({ message, signupId });
    else {
      log("delivery_message_malformed", { messageId: message.id });
      message.ack();
    }
  }
  if (messages.length === 0) return;

  let rows: Map<string, DeliveryRow>;
  let klaviyo: KlaviyoTarget | null = null;
  try {
    rows = await readDeliveryRows(
      env.DB,
      messages.map(({ signupId }) => signupId),
    );
    if (env.KLAVIYO_PRIVATE_API_KEY) {
      const account = { apiUrl: env.KLAVIYO_API_URL || DEFAULT_KLAVIYO_API_URL, privateApiKey: env.KLAVIYO_PRIVATE_API_KEY };
      klaviyo = { account, settings: await readSettings(env.ASSETS) };
    }
  } catch (error) {
    // D1 or the build's settings unreadable: nothing was attempted; every message tries again later.
    log("delivery_batch_failed", { reason: errorName(error), messages: messages.length });
    for (const { message } of messages) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
    return;
  }

  const decisions = await Promise.all(
    messages.map(({ message, signupId }) =>
      kindOf(message.body) === "profile"
        ? decideProfileUpdate(message, signupId, rows.get(signupId), klaviyo, env.DB)
        : decide(message, signupId, rows.get(signupId), klaviyo, env.DB),
    ),
  );

  // Dead letters first: a refused row is marked only once its message is in the dead-letter queue.
  const deadLetters = decisions.filter((decision) => decision.deadLetter);
  if (deadLetters.length > 0) {
    try {
      await env.DELIVERY_DEAD_LETTERS.sendBatch(
        deadLetters.map(({ signupId, message }) => ({
          body: { signupId, kind: kindOf(message.body), refused: true } satisfies DeliveryMessage,
        })),
      );
    } catch (error) {
      for (const decision of deadLetters) {
        const reason = `dead-letter queue unavailable (${errorName(error)})`;
        const delayS = backoffDelayS(decision.message.attempts);
        decision.deadLetter = false;
        // A profile update records nothing in the row; a signup's delivery stays pending with the reason.
        if (kindOf(decision.message.body) === "signup") decision.update = markRetrying(env.DB, decision.signupId, reason, dueAt(delayS));
        decision.settle = { retryAfterS: delayS };
        decision.line = ["delivery_retry", { id: decision.signupId, reason, delayS }];
      }
    }
  }

  try {
    await saveDeliveryOutcomes(
      env.DB,
      decisions.flatMap(({ update }) => (update ? [update] : [])),
    );
  } catch (error) {
    // The outcomes are not recorded: every attempted message goes again (Klaviyo's calls are idempotent).
    log("delivery_batch_failed", { reason: errorName(error), messages: messages.length });
    for (const { message, update } of decisions) {
      if (update) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
      else message.ack();
    }
    return;
  }

  for (const { message, settle, line } of decisions) {
    log(...line);
    if (settle === "ack") message.ack();
    else message.retry({ delaySeconds: settle.retryAfterS });
  }
}

/** Where deliveries go: Klaviyo's account and the build's list and default source. */
interface KlaviyoTarget {
  account: KlaviyoAccount;
  settings: ServiceSettings;
}

/**
 * One message's attempt: what the row and the message become.
 * @param klaviyo null without a private API key: demo delivery
 */
async function decide(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
): Promise<Decision> {
  if (!row) return { message, signupId, settle: "ack", line: ["delivery_skipped", { id: signupId, reason: "no such signup" }] };
  if (row.delivery_state !== "pending")
    return { message, signupId, settle: "ack", line: ["delivery_skipped", { id: signupId, reason: `already ${row.delivery_state}` }] };
  if (!klaviyo) return { message, signupId, update: markDemo(db, signupId), settle: "ack", line: ["delivery_demo", { id: signupId }] };

  let referral: Record<string, string | number>;
  try {
    referral = await referralProperties(db, row, klaviyo.settings);
  } catch (error) {
    const reason = `position unreadable (${errorName(error)})`;
    return { message, signupId, ...consequence(db, signupId, row.delivery_attempts + 1, { kind: "failed", status: null, reason }) };
  }
  const outcome = await deliverToKlaviyo(klaviyoSignup(row, klaviyo.settings, referral), klaviyo.account);
  return { message, signupId, ...consequence(db, signupId, row.delivery_attempts + 1, outcome) };
}

/**
 * One profile update's attempt: nothing is recorded in the row (its delivery columns are the signup's); the outcome
 * decides only the message: acknowledged, retried (429 after Retry-After, else backoff by the message's own attempts)
 * or, when Klaviyo refuses it, dead-lettered.
 */
async function decideProfileUpdate(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
): Promise<Decision> {
  const skipped = (reason: string): Decision => ({
    message,
    signupId,
    settle: "ack",
    line: ["profile_update_skipped", { id: signupId, reason }],
  });
  if (!row) return skipped("no such signup");
  if (row.delivery_state === "refused") return skipped("address refused by Klaviyo");
  if (!klaviyo) return skipped("demo delivery");
  const attempt = message.attempts;
  let outcome: DeliveryOutcome;
  try {
    const properties = await referralProperties(db, { ...row, status_token: null }, klaviyo.settings);
    outcome = await updateKlaviyoProfile({ email: row.email, properties }, klaviyo.account);
  } catch (error) {
    outcome = { kind: "failed", status: null, reason: `position unreadable (${errorName(error)})` };
  }
  switch (outcome.kind) {
    case "delivered":
      return { message, signupId, settle: "ack", line: ["profile_update_delivered", { id: signupId, attempt }] };
    case "refused":
      return {
        message,
        signupId,
        settle: "ack",
        deadLetter: true,
        line: ["profile_update_refused", { id: signupId, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = Math.min(
        outcome.kind === "throttled" ? (outcome.retryAfterS ?? backoffDelayS(attempt)) : backoffDelayS(attempt),
        QUEUE_MAX_DELAY_S,
      );
      return {
        message,
        signupId,
        settle: { retryAfterS: delayS },
        line: ["profile_update_retry", { id: signupId, attempt, reason: outcome.reason, delayS }],
      };
    }
  }
}

/** What an attempt's outcome does to the row and the message. */
function consequence(
  db: D1Database,
  id: string,
  attempt: number,
  outcome: DeliveryOutcome,
): Pick<Decision, "update" | "settle" | "deadLetter" | "line"> {
  switch (outcome.kind) {
    case "delivered":
      return { update: markDelivered(db, id, new Date().toISOString()), settle: "ack", line: ["delivery_delivered", { id, attempt }] };
    case "refused":
      return {
        update: markRefused(db, id, outcome.reason),
        settle: "ack",
        deadLetter: true,
        line: ["delivery_refused", { id, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = Math.min(
        outcome.kind === "throttled" ? (outcome.retryAfterS ?? backoffDelayS(attempt)) : backoffDelayS(attempt),
        QUEUE_MAX_DELAY_S,
      );
      return {
        update: markRetrying(db, id, outcome.reason, dueAt(delayS)),
        settle: { retryAfterS: delayS },
        line: [
          "delivery_retry",
          { id, attempt, status: outcome.kind === "throttled" ? 429 : outcome.status, reason: outcome.reason, delayS },
        ],
      };
    }
  }
}

/**
 * A row as Klaviyo receives it: the signup's custom source, else the build's; the list from the build; the stored
 * properties and the referral program's (which win over a stored property of the same name).
 */
function klaviyoSignup(row: DeliveryRow, settings: ServiceSettings, referral: Record<string, string | number>): KlaviyoSignup {
  return {
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    customSource: row.source || settings.source || null,
    listId: settings.listId,
    properties: { ...storedProperties(row.properties), ...referral },
  };
}

/** The stored properties JSON as string pairs; anything else in it is left out. */
function storedProperties(json: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** ISO 8601 UTC time `delayS` seconds from now. */
function dueAt(delayS: number): string {
  return new Date(Date.now() + delayS * 1000).toISOString();
}

/** An error's name for the log (its message could quote a request). */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * The dead-letter queue's consumer: one log line per dead letter (the operator's signal), then acknowledged. A
 * dead letter is a refused signup (its row says `refused` and why), a refused profile update (`refused` in the body),
 * or a message that ran out of retries: a signup's row is still `pending`, and the sweep sends it again once it is
 * overdue; a profile update is marked owed on the person's row, and the sweep sends it again. The row is the lasting
 * record; the log line carries its id, state, attempts and reason, never personal data.
 */
async function consumeDeadLetters(batch: MessageBatch<unknown>, env: ServiceEnv): Promise<void> {
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
    if (owed.length > 0) await env.DB.batch(owed.map((id) => markProfileUpdateDue(env.DB, id, now)));
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

/** Was this dead letter sent because Klaviyo refused it (DeliveryMessage.refused), not because its retries ran out? */
function refusedBy(body: unknown): boolean {
  return (body as Partial<DeliveryMessage> | null)?.refused === true;
}

/**
 * The cron sweep: re-enqueue every `pending` row whose delivery is overdue by SWEEP_GRACE_S (at most SWEEP_MAX_ROWS
 * per run, oldest first). Claiming sets each row's due time to now, so the next run leaves it alone unless it is
 * overdue again. Then every profile update owed since its dead letter (at most SWEEP_MAX_ROWS, earliest first) is
 * queued again and its mark cleared.
 * @param now the scheduled time (ms since the epoch)
 * @throws whatever D1 or the queue throws (the rows claimed and not sent are claimed again after SWEEP_GRACE_S; owed
 *   profile updates keep their marks until they are sent)
 */
export async function sweepPendingDeliveries(env: ServiceEnv, now: number = Date.now()): Promise<void> {
  const ids = await claimOverdueDeliveries(
    env.DB,
    new Date(now - SWEEP_GRACE_S * 1000).toISOString(),
    new Date(now).toISOString(),
    SWEEP_MAX_ROWS,
  );
  await sendAll(
    env,
    ids.map((signupId) => ({ signupId })),
  );
  // Profile updates owed since their dead letter (consumeDeadLetters): queued again, then their marks cleared.
  const owed = await dueProfileUpdates(env.DB, new Date(now).toISOString(), SWEEP_MAX_ROWS);
  await sendAll(
    env,
    owed.map(({ id }) => ({ signupId: id, kind: "profile" })),
  );
  await clearProfileUpdatesDue(env.DB, owed);
  log("delivery_sweep", { requeued: ids.length, profileUpdates: owed.length });
}

/** Send messages to the delivery queue, SEND_BATCH_MAX_MESSAGES per call. */
async function sendAll(env: ServiceEnv, bodies: DeliveryMessage[]): Promise<void> {
  for (let start = 0; start < bodies.length; start += SEND_BATCH_MAX_MESSAGES) {
    await env.DELIVERY.sendBatch(bodies.slice(start, start + SEND_BATCH_MAX_MESSAGES).map((body) => ({ body })));
  }
}
