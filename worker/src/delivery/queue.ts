/**
 * The queue consumer of `waitlist-delivery`: one attempt at Klaviyo per message, whose outcome decides the message's
 * fate (ack, retry after a delay, or dead-letter). A signup's row records every attempt; a profile update records
 * nothing. docs/delivery.md.
 */
import { appendAudit, appendStatement } from "../console/audit-log";
import type { ServiceSettings } from "../../../shared/service-settings";
import { type DeliveryMessage, isDevelopment, type LaunchMessage, type ServiceEnv } from "../env";
import { consumeLaunchMessages, launchMessageOf } from "../launch/send";
import { errorName, log } from "../log";
import { readSettings } from "../settings";
import {
  type DeliveryRow,
  markDelivered,
  markDemo,
  markRefused,
  markRetrying,
  readDeliveryRows,
  saveDeliveryOutcomes,
} from "../store/delivery";
import { type ErasureRow, oweErasuresIfErased, readErasures } from "../store/erasures";
import { consumeDeadLetters } from "./dead-letters";
import { attemptErasure } from "./erasures";
import { DEFAULT_KLAVIYO_API_URL, deliverToKlaviyo, type DeliveryOutcome, type KlaviyoSignup, updateKlaviyoProfile } from "./klaviyo";
import { attemptAlreadyNotice, attemptConfirmation } from "./confirmations";
import { confirmDemoSignup, demoStatusLink } from "./demo";
import {
  ACK,
  type Attempt,
  backoffDelayS,
  DEAD_LETTER_QUEUE,
  dueAt,
  type KlaviyoTarget,
  kindOf,
  profileWriteAttempt,
  retryDelayS,
  signupIdOf,
  skippedAttempt,
} from "./messages";
import { REFERRED_BY_PROPERTY, referralProperties } from "./referral-properties";

/**
 * The queue handler: a batch of the delivery queue, or of its dead-letter queue.
 * @throws never for one message's failure: each message is acked or retried on its own
 */
export async function consumeDeliveries(batch: MessageBatch<unknown>, env: ServiceEnv): Promise<void> {
  if (batch.queue === DEAD_LETTER_QUEUE) return consumeDeadLetters(batch, env);

  const messages: { message: Message; signupId: string }[] = [];
  const launch: { message: Message; body: LaunchMessage }[] = [];
  for (const message of batch.messages) {
    const body = launchMessageOf(message.body);
    if (body) {
      launch.push({ message, body });
      continue;
    }
    const signupId = signupIdOf(message.body);
    if (signupId) messages.push({ message, signupId });
    else {
      log("delivery_message_malformed", { messageId: message.id });
      message.ack();
    }
  }
  if (launch.length > 0) await consumeLaunchMessages(launch, env);
  if (messages.length === 0) return;

  let rows: Map<string, DeliveryRow>;
  let erasures: Map<string, ErasureRow>;
  let settings: ServiceSettings;
  try {
    rows = await readDeliveryRows(
      env.DB,
      messages.map(({ signupId }) => signupId),
    );
    const erased = messages.filter(({ message }) => kindOf(message.body) === "erase").map(({ signupId }) => signupId);
    erasures = erased.length > 0 ? await readErasures(env.DB, erased) : new Map<string, ErasureRow>();
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    // D1 or the build's settings unreadable: nothing was attempted; every message tries again later.
    log("delivery_batch_failed", { reason: errorName(error), messages: messages.length });
    for (const { message } of messages) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
    return;
  }

  // Without a private API key nothing is sent: demo delivery.
  const klaviyo: KlaviyoTarget | null = env.KLAVIYO_PRIVATE_API_KEY
    ? { account: { apiUrl: env.KLAVIYO_API_URL || DEFAULT_KLAVIYO_API_URL, privateApiKey: env.KLAVIYO_PRIVATE_API_KEY }, settings }
    : null;
  const attempts = await Promise.all(
    messages.map(({ message, signupId }) => {
      const row = rows.get(signupId);
      switch (kindOf(message.body)) {
        case "profile":
          return attemptProfileUpdate(message, signupId, row, klaviyo, env.DB);
        case "confirm":
          return attemptConfirmation(message, signupId, row, klaviyo, settings, env);
        case "already":
          return attemptAlreadyNotice(message, signupId, row, klaviyo, env.DB, isDevelopment(env) ? settings : null);
        case "erase":
          return attemptErasure(message, signupId, erasures.get(signupId), klaviyo, env.DB);
        default:
          return attemptDelivery(message, signupId, row, klaviyo, env.DB, isDevelopment(env) ? settings : null);
      }
    }),
  );
  await sendDeadLetters(env, attempts);
  if (!(await saveRows(env, attempts))) return;
  await appendOutcomes(env, attempts);
  for (const { message, fate, line } of attempts) {
    log(...line);
    if (fate.kind === "retry") message.retry({ delaySeconds: fate.delayS });
    else message.ack();
  }
}

/**
 * Demo delivery: the row marked `demo`; in development, the signup confirmed first (a D1 failure retries it), and
 * the person's status and referral links logged as `demo_status_link`, the local run's stand-in for the welcome
 * e-mail (demo.ts: demoStatusLink). A production Worker never logs a link.
 */
async function attemptDemo(message: Message, row: DeliveryRow, db: D1Database, demo: ServiceSettings | null): Promise<Attempt> {
  const signupId = row.id;
  const marked = { message, signupId, fate: ACK, update: markDemo(db, signupId) };
  if (demo === null) return { ...marked, line: ["delivery_demo", { id: signupId, confirmed: false }] };
  try {
    const { confirmed, referralCounted } = await confirmDemoSignup(db, signupId, demo, new Date().toISOString());
    const links = demoStatusLink(row, demo);
    if (links) log("demo_status_link", { id: signupId, ...links });
    return { ...marked, line: ["delivery_demo", { id: signupId, confirmed, referralCounted }] };
  } catch (error) {
    const delayS = backoffDelayS(message.attempts);
    return {
      message,
      signupId,
      fate: { kind: "retry", delayS },
      line: [
        "delivery_retry",
        { id: signupId, attempt: message.attempts, delayS, reason: `demo confirmation failed (${errorName(error)})` },
      ],
    };
  }
}

/**
 * Send the dead letters first: a refused row is marked only once its message is in the dead-letter queue. When that
 * queue cannot be reached, each of them becomes a retry (a signup's row stays pending with the reason).
 */
async function sendDeadLetters(env: ServiceEnv, attempts: Attempt[]): Promise<void> {
  const deadLetters = attempts.filter(({ fate }) => fate.kind === "dead-letter");
  if (deadLetters.length === 0) return;
  try {
    await env.DELIVERY_DEAD_LETTERS.sendBatch(
      deadLetters.map(({ signupId, message }) => ({
        body: { signupId, kind: kindOf(message.body), refused: true } satisfies DeliveryMessage,
      })),
    );
  } catch (error) {
    for (const attempt of deadLetters) {
      const reason = `dead-letter queue unavailable (${errorName(error)})`;
      const delayS = backoffDelayS(attempt.message.attempts);
      if (kindOf(attempt.message.body) === "signup") attempt.update = markRetrying(env.DB, attempt.signupId, reason, dueAt(delayS));
      attempt.fate = { kind: "retry", delayS };
      attempt.line = ["delivery_retry", { id: attempt.signupId, reason, delayS }];
    }
  }
}

/**
 * Append the audit entries the attempts' outcomes make (a deletion job's), one after another on the chain, once their
 * rows are saved. A failed append is logged (`erasure_audit_failed`); the outcome stands in its row and the log.
 */
async function appendOutcomes(env: ServiceEnv, attempts: Attempt[]): Promise<void> {
  for (const { audit, signupId } of attempts) {
    if (!audit) continue;
    try {
      await appendAudit(env, async (tail) => (await appendStatement(env.DB, tail, audit)).run());
    } catch (error) {
      log("erasure_audit_failed", { id: signupId, reason: errorName(error) });
    }
  }
}

/**
 * Save every row update in one batch, with the check that owes a deletion again for anyone erased while a write about
 * them was in flight (those deletion jobs are queued at once; a failed send is left to the cron sweep). When D1 fails,
 * the outcomes are not recorded: every message that had an update is retried (Klaviyo's calls are idempotent), the
 * others acked.
 * @returns whether the updates were saved
 */
async function saveRows(env: ServiceEnv, attempts: Attempt[]): Promise<boolean> {
  const now = new Date().toISOString();
  const updates = attempts.flatMap(({ update }) => (update ? [update] : []));
  const owe = oweErasuresIfErased(
    env.DB,
    attempts.flatMap(({ signupId, wroteTo }) => (wroteTo ? [{ id: signupId, email: wroteTo }] : [])),
    now,
  );
  let owedAgain: string[];
  try {
    const results = await saveDeliveryOutcomes(env.DB, [...updates, ...owe]);
    owedAgain = results.slice(updates.length).flatMap((rows) => (rows as { id: string }[]).map((row) => row.id));
  } catch (error) {
    log("delivery_batch_failed", { reason: errorName(error), messages: attempts.length });
    for (const { message, update } of attempts) {
      if (update) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
      else message.ack();
    }
    return false;
  }
  if (owedAgain.length > 0) {
    for (const id of owedAgain) log("erasure_owed_again", { id });
    try {
      await env.DELIVERY.sendBatch(owedAgain.map((signupId) => ({ body: { signupId, kind: "erase" } satisfies DeliveryMessage })));
    } catch (error) {
      log("erasure_queue_failed", { erasures: owedAgain.length, reason: errorName(error) });
    }
  }
  return true;
}

/**
 * One signup's delivery attempt: skipped unless the row is pending; demo without a key (in development also
 * confirmed: demo.ts); else Klaviyo's answer decides.
 * @param demo the build's settings when demo delivery confirms signups, else null
 */
async function attemptDelivery(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
  demo: ServiceSettings | null,
): Promise<Attempt> {
  if (!row) return { message, signupId, fate: ACK, line: ["delivery_skipped", { id: signupId, reason: "no such signup" }] };
  if (row.delivery_state !== "pending")
    return { message, signupId, fate: ACK, line: ["delivery_skipped", { id: signupId, reason: `already ${row.delivery_state}` }] };
  if (!klaviyo) return attemptDemo(message, row, db, demo);

  const attempt = row.delivery_attempts + 1;
  let outcome: DeliveryOutcome;
  try {
    const referral = await referralProperties(db, row, klaviyo.settings);
    outcome = await deliverToKlaviyo(klaviyoSignup(row, klaviyo.settings, referral), klaviyo.account);
  } catch (error) {
    outcome = { kind: "failed", status: null, reason: `position unreadable (${errorName(error)})` };
  }
  return { ...deliveryAttempt(message, signupId, attempt, outcome, db), wroteTo: row.email };
}

/** A signup delivery's fate and row update by Klaviyo's answer (`attempt` counts this one). */
function deliveryAttempt(message: Message, signupId: string, attempt: number, outcome: DeliveryOutcome, db: D1Database): Attempt {
  const id = signupId;
  switch (outcome.kind) {
    case "delivered":
      return {
        message,
        signupId,
        fate: ACK,
        update: markDelivered(db, id, new Date().toISOString()),
        line: ["delivery_delivered", { id, attempt }],
      };
    case "refused":
      return {
        message,
        signupId,
        fate: { kind: "dead-letter" },
        update: markRefused(db, id, outcome.reason),
        line: ["delivery_refused", { id, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = retryDelayS(outcome, attempt);
      return {
        message,
        signupId,
        fate: { kind: "retry", delayS },
        update: markRetrying(db, id, outcome.reason, dueAt(delayS)),
        line: [
          "delivery_retry",
          { id, attempt, status: outcome.kind === "throttled" ? 429 : outcome.status, reason: outcome.reason, delayS },
        ],
      };
    }
  }
}

/**
 * One profile update's attempt (a referral of the person's counted): nothing is recorded in the row, whose delivery
 * columns are the signup's; retried by the message's own attempts; dead-lettered when Klaviyo refuses it.
 */
async function attemptProfileUpdate(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
): Promise<Attempt> {
  const skipped = (reason: string) => skippedAttempt(message, signupId, "profile_update", reason);
  if (!row) return skipped("no such signup");
  if (row.delivery_state === "refused") return skipped("address refused by Klaviyo");
  if (!klaviyo) return skipped("demo delivery");
  let outcome: DeliveryOutcome;
  try {
    const properties = await referralProperties(db, { ...row, status_token: null }, klaviyo.settings);
    // No referrer (any more: an erased referrer's friends lose theirs): Klaviyo's copy of it goes too.
    const unset = klaviyo.settings.referrals.enabled && row.referrer_code === null ? [REFERRED_BY_PROPERTY] : [];
    outcome = await updateKlaviyoProfile({ email: row.email, properties, unset }, klaviyo.account);
  } catch (error) {
    outcome = { kind: "failed", status: null, reason: `position unreadable (${errorName(error)})` };
  }
  return { ...profileWriteAttempt(message, signupId, "profile_update", outcome, { kind: "dead-letter" }), wroteTo: row.email };
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
