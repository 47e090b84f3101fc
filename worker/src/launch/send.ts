/**
 * Launch day's queue messages (env.ts: LaunchMessage), consumed beside the deliveries (delivery/queue.ts): an
 * invitation's event and its reminder, sent to Klaviyo as Create Event with the invitation's id as `unique_id`, so a
 * retried message never e-mails twice; and a batch's next pages (batches.ts). Klaviyo's answer decides a message's
 * fate as a delivery's does: sent, retried after Retry-After or the backoff, or refused and dead-lettered. The
 * invitation row records each attempt, so a batch's progress survives the Worker. docs/delivery.md: Invitations.
 */
import type { LaunchMessage, ServiceEnv } from "../env";
import { isDevelopment } from "../env";
import { errorName, log, type LogFields } from "../log";
import { readSettings } from "../settings";
import { type KlaviyoWrite, oweErasuresIfErased } from "../store/erasures";
import { meterD1 } from "../store/metered";
import { createKlaviyoEvent, DEFAULT_KLAVIYO_API_URL, type DeliveryOutcome, type KlaviyoAccount } from "../delivery/klaviyo";
import { backoffDelayS, dueAt, type Fate, retryDelayS } from "../delivery/messages";
import type { ServiceSettings } from "../../../shared/service-settings";
import { runBatch } from "./batches";
import { invitationLink } from "./tokens";

/** The launch message a queue body is, or null for any other body. */
export function launchMessageOf(body: unknown): LaunchMessage | null {
  const message = body as Partial<{ kind: unknown; invitationId: unknown; batchId: unknown }> | null;
  if ((message?.kind === "invitation" || message?.kind === "reminder") && typeof message.invitationId === "string" && message.invitationId)
    return { kind: message.kind, invitationId: message.invitationId };
  if (message?.kind === "batch" && typeof message.batchId === "string" && message.batchId)
    return { kind: "batch", batchId: message.batchId };
  return null;
}

/** An invitation as its event needs it. */
interface SendRow {
  id: string;
  person_id: string | null;
  place: number;
  state: string;
  expires_at: string;
  send_state: string;
  send_attempts: number;
  /** The token sealed (tokens.ts), from which the link is rebuilt. */
  token_sealed: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  /** Whether the invitation's batch is paused. */
  held: boolean;
}

/** One message's attempt, as the consumer settles it. */
interface LaunchAttempt {
  message: Message;
  body: LaunchMessage;
  fate: Fate;
  update?: D1PreparedStatement;
  /** The person an event named (store/erasures.ts: oweErasuresIfErased). */
  wroteTo?: KlaviyoWrite;
  line: [string, LogFields];
}

/** Ids one query binds at most: D1 takes up to 100 bound parameters a statement. */
const IDS_PER_QUERY = 100;

/**
 * The invitations of a batch of messages, with their person's address and names, and the batches paused now (through
 * the launch_batches_paused index: none read while none is paused), in one D1 batch. The ids are bound one by one,
 * not as a JSON array, since D1 counts each element json_each yields as a row read.
 */
async function readSendRows(db: D1Database, ids: string[]): Promise<Map<string, SendRow>> {
  const pages: string[][] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) pages.push(ids.slice(start, start + IDS_PER_QUERY));
  const results = await db.batch([
    db.prepare("SELECT id FROM launch_batches INDEXED BY launch_batches_paused WHERE paused_at IS NOT NULL"),
    ...pages.map((page) =>
      db
        .prepare(
          `SELECT i.id, i.person_id, i.batch_id, i.place, i.state, i.expires_at, i.send_state, i.send_attempts, i.token_sealed, p.email,
             p.first_name, p.last_name
           FROM invitations AS i LEFT JOIN signups AS p ON p.id = i.person_id WHERE i.id IN (${page.map((_, n) => `?${n + 1}`).join(", ")})`,
        )
        .bind(...page),
    ),
  ]);
  const [paused, ...invitations] = results;
  const pausedIds = new Set((paused.results as { id: string }[]).map(({ id }) => id));
  return new Map(
    invitations
      .flatMap(({ results: rows }) => rows as (Omit<SendRow, "held"> & { batch_id: string | null })[])
      .map(({ batch_id, ...row }) => [row.id, { ...row, held: batch_id !== null && pausedIds.has(batch_id) }]),
  );
}

/**
 * Consume the launch messages of a queue batch: each batch message runs its batch's next pages; each event is one
 * attempt at Klaviyo. Row updates are saved in one D1 batch before any message is settled.
 * @throws never for one message's failure
 */
export async function consumeLaunchMessages(messages: { message: Message; body: LaunchMessage }[], env: ServiceEnv): Promise<void> {
  // The batch's cost in the log (`launch_messages`: the rows D1 read, what it bills by), to size a launch.
  const meter = meterD1(env.DB);
  await consumeMetered(messages, { ...env, DB: meter.db });
  log("launch_messages", {
    events: messages.filter(({ body }) => body.kind !== "batch").length,
    runs: messages.filter(({ body }) => body.kind === "batch").length,
    rowsRead: meter.rowsRead(),
  });
}

/** consumeLaunchMessages, through the metered binding. */
async function consumeMetered(messages: { message: Message; body: LaunchMessage }[], env: ServiceEnv): Promise<void> {
  let settings: ServiceSettings;
  let rows: Map<string, SendRow>;
  try {
    settings = await readSettings(env.ASSETS);
    const ids = messages.flatMap(({ body }) => (body.kind === "batch" ? [] : [body.invitationId]));
    rows = ids.length > 0 ? await readSendRows(env.DB, ids) : new Map<string, SendRow>();
  } catch (error) {
    log("launch_batch_failed", { reason: errorName(error), messages: messages.length });
    for (const { message } of messages) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
    return;
  }
  const account: KlaviyoAccount | null = env.KLAVIYO_PRIVATE_API_KEY
    ? { apiUrl: env.KLAVIYO_API_URL || DEFAULT_KLAVIYO_API_URL, privateApiKey: env.KLAVIYO_PRIVATE_API_KEY }
    : null;
  const attempts: LaunchAttempt[] = [];
  for (const { message, body } of messages) {
    if (body.kind === "batch") {
      try {
        const batch = await runBatch(env, settings, body.batchId);
        log("launch_batch_run", { batch: body.batchId, state: batch?.state ?? "no such batch" });
        message.ack();
      } catch (error) {
        const delayS = backoffDelayS(message.attempts);
        log("launch_batch_retry", { batch: body.batchId, reason: errorName(error), delayS });
        message.retry({ delaySeconds: delayS });
      }
      continue;
    }
    attempts.push(await attemptEvent(message, body, rows.get(body.invitationId), account, settings, env));
  }
  await sendDeadLetters(env, attempts);
  const now = new Date().toISOString();
  const updates = attempts.flatMap(({ update }) => (update ? [update] : []));
  const owe = oweErasuresIfErased(
    env.DB,
    attempts.flatMap(({ wroteTo }) => (wroteTo ? [wroteTo] : [])),
    now,
  );
  const writes = [...updates, ...owe];
  try {
    if (writes.length > 0) await env.DB.batch(writes);
  } catch (error) {
    log("launch_batch_failed", { reason: errorName(error), messages: attempts.length });
    for (const { message, update } of attempts) {
      if (update) message.retry({ delaySeconds: backoffDelayS(message.attempts) });
      else message.ack();
    }
    return;
  }
  for (const { message, fate, line } of attempts) {
    log(...line);
    if (fate.kind === "retry") message.retry({ delaySeconds: fate.delayS });
    else message.ack();
  }
}

/**
 * An invitation's send state settled: `sent` (Klaviyo took it) or `failed` (refused, or never to be sent).
 * @param attempted whether this settles an attempt at Klaviyo (counted)
 */
function markSend(db: D1Database, id: string, state: "sent" | "failed", error: string | null, attempted: boolean): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE invitations SET send_state = ?2, send_attempts = send_attempts + ?5, send_error = ?3,
         sent_at = CASE WHEN ?2 = 'sent' THEN ?4 END, send_due_at = NULL WHERE id = ?1 AND send_state = 'queued'`,
    )
    .bind(id, state, error, new Date().toISOString(), attempted ? 1 : 0);
}

/** An event of a paused batch, held until the batch is resumed (only while it is paused still). */
function holdSend(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE invitations SET send_held = 1 WHERE id = ?1 AND send_state = 'queued'
         AND EXISTS (SELECT 1 FROM launch_batches WHERE id = invitations.batch_id AND paused_at IS NOT NULL)`,
    )
    .bind(id);
}

/** A failed attempt: one more, its reason, and when the next is due. */
function markRetrying(db: D1Database, id: string, reason: string, due: string): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE invitations SET send_attempts = send_attempts + 1, send_error = ?2, send_due_at = ?3 WHERE id = ?1 AND send_state = 'queued'",
    )
    .bind(id, reason, due);
}

/**
 * One event's attempt: the invitation (while it is open and not sent yet) or its reminder (while it is open).
 * Without a private API key nothing is sent (demo): the invitation counts as sent, and in development its link is
 * logged as `demo_invitation_link`, the local run's stand-in for the e-mail.
 */
async function attemptEvent(
  message: Message,
  body: Extract<LaunchMessage, { invitationId: string }>,
  row: SendRow | undefined,
  account: KlaviyoAccount | null,
  settings: ServiceSettings,
  env: ServiceEnv,
): Promise<LaunchAttempt> {
  const id = body.invitationId;
  const event = body.kind === "invitation" ? "invitation" : "invitation_reminder";
  const skipped = (reason: string, update?: D1PreparedStatement): LaunchAttempt => ({
    message,
    body,
    fate: { kind: "ack" },
    update,
    line: [`${event}_skipped`, { id, reason }],
  });
  // An event that will never go: an invitation's settles its batch's count as failed; a reminder is only skipped.
  const neverSent = (reason: string) =>
    skipped(reason, body.kind === "invitation" ? markSend(env.DB, id, "failed", `not sent: ${reason}`, false) : undefined);
  if (!row) return skipped("no such invitation");
  if (body.kind === "invitation" && row.send_state !== "queued") return skipped(`already ${row.send_state}`);
  // Its batch is paused: held until resumed (batches.ts releases it; while the pause holds, the cron leaves it).
  if (body.kind === "invitation" && row.held) return skipped("batch paused", holdSend(env.DB, id));
  if (row.state !== "invited" || row.email === null || row.person_id === null) {
    // Revoked, expired or accepted before its event went.
    return neverSent(`invitation ${row.person_id === null ? "of an erased person" : row.state}`);
  }
  // The same link each time (a retry, a resend, the reminder): Klaviyo keeps the first event of a unique_id.
  // No link for another origin than PRODUCT_SIGNUP_ORIGIN: the event never goes, and the row says why.
  const link = await invitationLink(settings, row, env);
  if ("refused" in link) return neverSent(link.refused);
  const { url } = link;
  if (!account) {
    if (isDevelopment(env)) log("demo_invitation_link", { id, kind: body.kind, inviteUrl: url });
    return {
      message,
      body,
      fate: { kind: "ack" },
      update: body.kind === "invitation" ? markSend(env.DB, id, "sent", null, false) : undefined,
      line: [`${event}_demo`, { id }],
    };
  }
  const outcome: DeliveryOutcome = await createKlaviyoEvent(
    {
      metric: body.kind === "invitation" ? settings.launch.invitationMetric : settings.launch.reminderMetric,
      email: row.email,
      firstName: row.first_name ?? "",
      lastName: row.last_name ?? "",
      properties: { invite_url: url, invite_expires_at: row.expires_at, waitlist_place: row.place },
      uniqueId: body.kind === "invitation" ? id : `${id}:reminder`,
    },
    account,
  );
  const wroteTo = { id: row.person_id, email: row.email };
  const attempt = row.send_attempts + 1;
  switch (outcome.kind) {
    case "delivered":
      return {
        message,
        body,
        fate: { kind: "ack" },
        update: body.kind === "invitation" ? markSend(env.DB, id, "sent", null, true) : undefined,
        wroteTo,
        line: [`${event}_sent`, { id, attempt }],
      };
    case "refused":
      return {
        message,
        body,
        fate: { kind: "dead-letter" },
        update: body.kind === "invitation" ? markSend(env.DB, id, "failed", outcome.reason, true) : undefined,
        wroteTo,
        line: [`${event}_refused`, { id, attempt, status: outcome.status, reason: outcome.reason }],
      };
    case "throttled":
    case "failed": {
      const delayS = retryDelayS(outcome, body.kind === "invitation" ? attempt : message.attempts);
      return {
        message,
        body,
        fate: { kind: "retry", delayS },
        update: body.kind === "invitation" ? markRetrying(env.DB, id, outcome.reason, dueAt(delayS)) : undefined,
        wroteTo,
        line: [
          `${event}_retry`,
          { id, attempt, status: outcome.kind === "throttled" ? 429 : outcome.status, reason: outcome.reason, delayS },
        ],
      };
    }
  }
}

/** Dead-letter the refused events first; when that queue cannot be reached, each becomes a retry. */
async function sendDeadLetters(env: ServiceEnv, attempts: LaunchAttempt[]): Promise<void> {
  const deadLetters = attempts.filter(({ fate }) => fate.kind === "dead-letter");
  if (deadLetters.length === 0) return;
  try {
    await env.DELIVERY_DEAD_LETTERS.sendBatch(deadLetters.map(({ body }) => ({ body: { ...body, refused: true } })));
  } catch (error) {
    for (const attempt of deadLetters) {
      const delayS = backoffDelayS(attempt.message.attempts);
      attempt.fate = { kind: "retry", delayS };
      attempt.update = undefined;
      attempt.line = [
        "invitation_retry",
        {
          id: attempt.body.kind === "batch" ? null : attempt.body.invitationId,
          reason: `dead-letter queue unavailable (${errorName(error)})`,
          delayS,
        },
      ];
    }
  }
}
