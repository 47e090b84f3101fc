/**
 * The operator's actions on one person (shared/console.ts: PERSON_ACTIONS), for the console page and
 * `npm run waitlist` alike (both POST `/api/console/people/:id/<action>`). Each action is ONE D1 batch that starts
 * with its audit_log entry, written only when the action applies to the row as it is then, and holds every change it
 * makes; so an action is never half done, and never done without its entry (chained: ./audit-log.ts). docs/operators.md: Actions.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import type { Context } from "hono";
import { type ActionAnswer, REASON_DETAIL } from "../../../shared/api/console";
import { reasonProblem } from "../../../shared/console-reason";
import { AUDIT_ACTIONS, CONSOLE_ERROR_CODE, type PersonAction } from "../../../shared/console";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { AppEnv, DeliveryMessage } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { errorName, log } from "../log";
import { revokeStatement } from "../launch/invitations";
import { hashStatusToken, newStatusToken } from "../referrals/codes";
import { creditStatements, removeStatements, withdrawStatements } from "../store/rank";
import { appendAudit, appendStatement, type AuditEnv, type ChainTail, type NewAuditEntry } from "./audit-log";
import { auditEntryOf, type AuditRow, readPerson, REASON_SUBJECT_COLUMNS, reasonSubjectOf, type ReasonSubjectRow } from "./rows";

/**
 * When each action applies, as an SQL condition on the person's row (alias `p`): the audit entry, and so the action,
 * is written only while it holds. (The dashboard's counts follow each change by themselves: migrations/0010_rollups.sql's
 * triggers.)
 */
export const APPLIES: Record<PersonAction, string> = {
  disqualify: "p.disqualified_at IS NULL",
  requalify: "p.disqualified_at IS NOT NULL",
  approve: "p.reviewed_at IS NULL AND p.disqualified_at IS NULL AND (p.flags IS NOT NULL OR p.referral_hold IS NOT NULL)",
  "send-again": "p.delivery_state IN ('pending', 'refused')",
  erase: "1",
};

/** Why an action does not apply, for the 409's detail. */
const NOT_APPLICABLE: Record<PersonAction, string> = {
  disqualify: "The person is disqualified already.",
  requalify: "The person is not disqualified.",
  approve: "Only a flagged or held person not reviewed yet and not disqualified can be approved.",
  "send-again": "Only a refused or pending signup can be sent again.",
  erase: "The person is gone already.",
};

/**
 * What the audit entry records of each action: the values that change, before and after, as SQL JSON expressions
 * over the person's row `p` (?2 is the action's time). Never an address or a name.
 */
const AUDIT_VALUES: Record<PersonAction, { before: string; after: string }> = {
  disqualify: {
    before: "json_object('disqualified_at', p.disqualified_at, 'referral_counted_at', p.referral_counted_at)",
    after: `json_object('disqualified_at', ?2, 'referral_counted_at', NULL,
      'credit_withdrawn_from', CASE WHEN p.referral_counted_at IS NOT NULL THEN p.referred_by END)`,
  },
  requalify: { before: "json_object('disqualified_at', p.disqualified_at)", after: "json_object('disqualified_at', NULL)" },
  approve: {
    before: "json_object('reviewed_at', p.reviewed_at, 'referral_hold', p.referral_hold)",
    after: "json_object('reviewed_at', ?2, 'referral_hold', NULL)",
  },
  "send-again": {
    before: "json_object('delivery_state', p.delivery_state, 'delivery_error', p.delivery_error)",
    after: "json_object('delivery_state', 'pending', 'delivery_error', NULL)",
  },
  erase: {
    before: "json_object('delivery_state', p.delivery_state, 'in_line', json(CASE WHEN p.score IS NULL THEN 'false' ELSE 'true' END))",
    after:
      "json_object('erased', json('true'), 'klaviyo_deletion', CASE WHEN p.delivery_state = 'demo' THEN 'not needed' ELSE 'queued' END)",
  },
};

/**
 * The audit entry's INSERT, chained after `tail`: written only when the person's row exists, the action applies and
 * the entry's before/after are still what the row gives (read a moment earlier), RETURNING the entry.
 */
function auditStatement(db: D1Database, tail: ChainTail, action: PersonAction, entry: NewAuditEntry) {
  const { before, after } = AUDIT_VALUES[action];
  return appendStatement(
    db,
    tail,
    entry,
    `FROM signups AS p WHERE p.id = ?1 AND ${APPLIES[action]} AND (${before}) IS ?6 AND (${after}) IS ?7`,
  );
}

/** What an action needs besides its person. */
export interface ActionContext {
  /** The database and the audit log's signing key. */
  env: AuditEnv;
  settings: ServiceSettings;
  /** The operator's identity (console/access.ts). */
  operator: string;
  /** ISO 8601 UTC. */
  at: string;
}

/**
 * The statements of one action after its audit entry (each conditional on the row's state, so a batch whose action
 * did not apply changes nothing). ?1 is always the person's id.
 */
async function changeStatements(context: ActionContext, action: PersonAction, id: string): Promise<D1PreparedStatement[]> {
  const { env, settings, at } = context;
  const db = env.DB;
  const program = settings.referrals;
  const credit = () =>
    program.enabled ? creditStatements(db, id, program.placesPerReferral, at, { confirmed: program.countAfter === "confirmation" }) : [];
  switch (action) {
    case "disqualify":
      // The credit comes off their referrer first, while the row still says it counted.
      return [
        ...withdrawStatements(db, id, program.placesPerReferral),
        // An open invitation goes with the eligibility: its token never checks in.
        revokeStatement(db, id, at),
        db.prepare("UPDATE signups SET disqualified_at = ?2 WHERE id = ?1 AND disqualified_at IS NULL").bind(id, at),
      ];
    case "requalify":
      return [db.prepare("UPDATE signups SET disqualified_at = NULL WHERE id = ?1").bind(id), ...credit()];
    case "approve":
      return [
        db.prepare(`UPDATE signups AS p SET reviewed_at = ?2, referral_hold = NULL WHERE p.id = ?1 AND ${APPLIES.approve}`).bind(id, at),
        ...credit(),
      ];
    case "send-again": {
      // A refused row's status token was dropped; the welcome needs a link, so a new one is made (the old was never sent).
      const token = newStatusToken();
      return [
        db
          .prepare(
            `UPDATE signups AS p SET delivery_state = 'pending', delivery_error = NULL, delivery_due_at = NULL,
               status_token_hash = CASE WHEN ?2 AND status_token IS NULL AND referral_code IS NOT NULL THEN ?4 ELSE status_token_hash END,
               status_token = CASE WHEN ?2 AND status_token IS NULL AND referral_code IS NOT NULL THEN ?3 ELSE status_token END
             WHERE p.id = ?1 AND ${APPLIES["send-again"]}`,
          )
          .bind(id, program.enabled ? 1 : 0, token, await hashStatusToken(token)),
      ];
    }
    case "erase":
      return [
        // Out of line first: everyone behind moves up one place; an open invitation is revoked (its row stays, nameless).
        ...removeStatements(db, id),
        revokeStatement(db, id, at),
        // Klaviyo has the profile unless delivery was demo (nothing was sent): its deletion is owed.
        db
          .prepare(
            "INSERT INTO erasures (id, email, created_at) SELECT id, email, ?2 FROM signups WHERE id = ?1 AND delivery_state <> 'demo'",
          )
          .bind(id, at),
        // The people they referred stay, with no referrer (a dangling id would name no one); those Klaviyo has are
        // owed a profile update now (the cron sweep queues it), which removes the erased person's code from them.
        db
          .prepare(
            `UPDATE signups SET referred_by = NULL,
               profile_update_due_at = CASE WHEN delivery_state = 'delivered' THEN ?2 ELSE profile_update_due_at END
             WHERE referred_by = ?1`,
          )
          .bind(id, at),
        db.prepare("DELETE FROM signups WHERE id = ?1").bind(id),
      ];
  }
}

/** An action's result. */
export type ActionResult =
  | { kind: "done"; answer: ActionAnswer; erasureQueued: boolean }
  | { kind: "not_found" }
  | { kind: "not_applicable"; detail: string }
  | { kind: "reason_invalid"; detail: string };

/**
 * Run one action on one person: the audit entry, the change and the rollups in one batch.
 * @param reason checked already (shared/api/console.ts: ActionRequest)
 * @returns `done` with the person as they are now (null once erased) and the audit entry; `not_found` when no row
 *   has that id; `reason_invalid` when the reason names the person; `not_applicable` when the action does not apply to
 *   the row as it is
 * @throws whatever D1 throws (nothing was written)
 */
export async function runAction(context: ActionContext, action: PersonAction, id: string, reason: string): Promise<ActionResult> {
  const { env, at, operator } = context;
  const db = env.DB;
  const { before, after } = AUDIT_VALUES[action];
  return appendAudit<ActionResult>(env, async (tail) => {
    const read = `SELECT ${APPLIES[action]} AS applies, ${before} AS before, ${after} AS after, ${REASON_SUBJECT_COLUMNS}
      FROM signups AS p WHERE p.id = ?1`;
    // D1 refuses a value bound to no parameter: the time only where the entry records it.
    const row = await db
      .prepare(read)
      .bind(...(read.includes("?2") ? [id, at] : [id]))
      .first<{ applies: number; before: string | null; after: string | null } & ReasonSubjectRow>();
    if (!row) return { kind: "not_found" };
    const problem = reasonProblem(reason, reasonSubjectOf(row));
    if (problem) return { kind: "reason_invalid", detail: REASON_DETAIL[problem] };
    if (!row.applies) return { kind: "not_applicable", detail: NOT_APPLICABLE[action] };

    const entry: NewAuditEntry = {
      person_id: id,
      at,
      operator,
      action: AUDIT_ACTIONS[action],
      reason,
      before: row.before,
      after: row.after,
    };
    const change = await changeStatements(context, action, id);
    const results = await db.batch<Record<string, unknown>>([await auditStatement(db, tail, action, entry), ...change]);
    const written = results[0].results[0] as unknown as AuditRow | undefined;
    if (!written) {
      // Another request changed the row between the read and the batch; the batch changed nothing.
      const gone = action === "erase";
      return gone ? { kind: "not_found" } : { kind: "not_applicable", detail: NOT_APPLICABLE[action] };
    }
    // An erase's erasures INSERT comes after the audit entry, the rank tree's statements and the revocation (changeStatements).
    const erasureQueued = action === "erase" && (results[2 + removeStatements(db, id).length].meta.changes ?? 0) > 0;
    const person = action === "erase" ? null : await readPerson(db, id, context.settings, "operator");
    return { kind: "done", answer: { person, audit: auditEntryOf(written) }, erasureQueued };
  });
}

/**
 * Send a message to the delivery queue now; when the send fails the row waits for the cron sweep (logged).
 * @returns whether it was sent
 */
async function queueNow(c: Context<AppEnv>, message: DeliveryMessage): Promise<boolean> {
  try {
    await c.env.DELIVERY.send(message);
    return true;
  } catch (error) {
    log("console_queue_failed", { id: message.signupId, kind: message.kind ?? "signup", reason: errorName(error) });
    return false;
  }
}

/**
 * Answer POST `/api/console/people/:id/<action>` for the person `id` with the request's checked reason: 200
 * ActionAnswer; 400 `reason_invalid` when the reason names the person; 404 `person_not_found`; 409
 * `action_not_applicable`. Needs consoleAccess and withSettings.
 */
export async function handleAction(c: Context<AppEnv>, action: PersonAction, id: string, reason: string): Promise<Response> {
  const context: ActionContext = { env: c.env, settings: c.var.settings, operator: c.var.operator.id, at: new Date().toISOString() };
  const result = await runAction(context, action, id, reason);
  if (result.kind === "not_found")
    return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
  if (result.kind === "not_applicable")
    return errorResponse([{ status: 409, code: CONSOLE_ERROR_CODE.actionNotApplicable, detail: result.detail }]);
  if (result.kind === "reason_invalid")
    return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.reasonInvalid, detail: result.detail, pointer: "/reason" }]);
  log("console_action", { action: AUDIT_ACTIONS[action], id, audit: result.answer.audit.id });
  if (action === "send-again") await queueNow(c, { signupId: id });
  if (result.erasureQueued) await queueNow(c, { signupId: id, kind: "erase" });
  return jsonResponse(200, result.answer);
}
