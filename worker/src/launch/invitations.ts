/**
 * One person's invitation: invite now, revoke (an operator's, a disqualification's, an erase's), read, and check in
 * (the firm's product accepting it). Every change is conditional on the rows as they are when it runs, so two
 * requests never both apply. docs/operators.md: Launch.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { REASON_DETAIL } from "../../../shared/api/console";
import type { CheckInAnswer, Invitation } from "../../../shared/api/launch";
import { type ReasonProblem, reasonProblem } from "../../../shared/console-reason";
import { LAUNCH_AUDIT_ACTIONS } from "../../../shared/launch";
import type { ServiceSettings } from "../../../shared/service-settings";
import { appendAudit, appendStatement, type ChainTail, type NewAuditEntry } from "../console/audit-log";
import { type AuditRow, REASON_SUBJECT_COLUMNS, reasonSubjectOf, type ReasonSubjectRow } from "../console/rows";
import type { ServiceEnv } from "../env";
import { positionOf, removeManyStatements } from "../store/rank";
import { hashInvitationToken, isInvitationToken, newInvitationToken } from "./tokens";

/** One day (ms): the content counts an invitation's life and its reminder in days. */
export const DAY_MS = 86_400_000;

/** When an invitation made at `now` expires: `launch.invitationDays` later, ISO 8601 UTC. */
export function expiryOf(settings: Pick<ServiceSettings, "launch">, now: Date): string {
  return new Date(now.getTime() + settings.launch.invitationDays * DAY_MS).toISOString();
}

/** An invitations row. */
export interface InvitationRow {
  id: string;
  person_id: string | null;
  batch_id: string | null;
  place: number;
  state: Invitation["state"];
  invited_at: string;
  expires_at: string;
  accepted_at: string | null;
  expired_at: string | null;
  revoked_at: string | null;
  send_state: Invitation["send"]["state"];
  send_attempts: number;
  send_error: string | null;
  sent_at: string | null;
  reminded_at: string | null;
  /** The token sealed (tokens.ts: openInvitationToken); null for an invitation made before tokens were sealed. */
  token_sealed: string | null;
}

/** An invitations row as the console shows it. */
export function invitationOf(row: InvitationRow): Invitation {
  return {
    id: row.id,
    state: row.state,
    place: row.place,
    batchId: row.batch_id,
    invitedAt: row.invited_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    expiredAt: row.expired_at,
    revokedAt: row.revoked_at,
    send: { state: row.send_state, attempts: row.send_attempts, error: row.send_error, sentAt: row.sent_at },
  };
}

/** The person's latest invitation (signups.invitation_id), or null while they wait. */
export function currentInvitation(db: D1Database, personId: string): Promise<InvitationRow | null> {
  return db
    .prepare("SELECT i.* FROM signups AS p JOIN invitations AS i ON i.id = p.invitation_id WHERE p.id = ?1")
    .bind(personId)
    .first<InvitationRow>();
}

/** When a person may be invited alone: not disqualified, and waiting or their last invitation expired or revoked. */
const INVITE_APPLIES = `p.disqualified_at IS NULL AND (p.invitation_id IS NULL
  OR (SELECT state FROM invitations WHERE id = p.invitation_id) IN ('expired', 'revoked'))`;

/** When a person's invitation may be revoked: it is open (`invited`). */
const REVOKE_APPLIES = "EXISTS (SELECT 1 FROM invitations WHERE id = p.invitation_id AND state = 'invited')";

/** The statement that revokes the person's open invitation at `at` (nothing when it is not open): ?1 the person. */
export function revokeStatement(db: D1Database, personId: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE invitations SET state = 'revoked', revoked_at = ?2 WHERE id = (SELECT invitation_id FROM signups WHERE id = ?1) AND state = 'invited'",
    )
    .bind(personId, at);
}

/** What an invitation action needs besides its person. */
export interface InvitationContext {
  env: ServiceEnv;
  settings: ServiceSettings;
  operator: string;
  reason: string;
  now: Date;
}

/** An invitation action's result. */
export type InvitationResult =
  | { kind: "done"; invitation: InvitationRow; audit: AuditRow }
  | { kind: "not_found" }
  | { kind: "not_applicable"; detail: string }
  | { kind: "reason_invalid"; detail: string };

/** What an invitation action's audit entry records before it: the person's latest invitation (alias `p`). */
const INVITATION_BEFORE = "json_object('invitation_id', p.invitation_id)";

/**
 * The audit entry's INSERT, chained after `tail`, written only while `applies` holds for the person `p` and their
 * latest invitation is still the entry's `before` (RETURNING the entry).
 */
function auditStatement(db: D1Database, tail: ChainTail, applies: string, entry: NewAuditEntry): Promise<D1PreparedStatement> {
  return appendStatement(db, tail, entry, `FROM signups AS p WHERE p.id = ?1 AND ${applies} AND ${INVITATION_BEFORE} IS ?6`);
}

/** The audit entry of `action` on the person, its `after` as given. */
function entryOf(context: InvitationContext, action: string, personId: string, before: string, after: object): NewAuditEntry {
  const { now, operator, reason } = context;
  return { at: now.toISOString(), operator, action, person_id: personId, reason, before, after: JSON.stringify(after) };
}

/**
 * Whether the person exists, what their entry's reason does wrong (it may not name them), whether `condition` holds
 * for them now, and their entry's `before`.
 */
async function applies(
  db: D1Database,
  personId: string,
  condition: string,
  reason: string,
): Promise<"not_found" | { problem: ReasonProblem | null; applies: boolean; before: string }> {
  const row = await db
    .prepare(`SELECT ${condition} AS applies, ${INVITATION_BEFORE} AS before, ${REASON_SUBJECT_COLUMNS} FROM signups AS p WHERE p.id = ?1`)
    .bind(personId)
    .first<{ applies: number; before: string } & ReasonSubjectRow>();
  if (!row) return "not_found";
  const problem = reasonProblem(reason, reasonSubjectOf(row));
  return { problem, applies: Boolean(row.applies), before: row.before };
}

/**
 * Invite one person now (their page, the command line), whatever their place: a new invitation, the person out of
 * line, the audit entry, in one batch. Its event is the caller's to queue.
 * @returns `done` with the invitation; `reason_invalid` when the reason names them; `not_applicable` when they are
 *   disqualified, invited or accepted already
 * @throws whatever D1 throws (nothing was written)
 */
export async function invitePerson(context: InvitationContext, personId: string): Promise<InvitationResult> {
  const { env, settings, now } = context;
  const db = env.DB;
  const check = await applies(db, personId, INVITE_APPLIES, context.reason);
  if (check === "not_found") return { kind: "not_found" };
  if (check.problem) return { kind: "reason_invalid", detail: REASON_DETAIL[check.problem] };
  if (!check.applies)
    return { kind: "not_applicable", detail: "Only a person who is not disqualified and not invited or accepted already can be invited." };
  // Their place now; someone out of line (an expired or revoked invitation) keeps the place they were invited at.
  const place = (await positionOf(db, personId))?.position ?? (await currentInvitation(db, personId))?.place ?? 1;
  const id = crypto.randomUUID();
  const token = await newInvitationToken(id, env);
  const expiresAt = expiryOf(settings, now);
  const [leave, clearScore] = removeManyStatements(db, "SELECT person_id FROM invitations WHERE id = ?1", [id]);
  const entry = entryOf(context, LAUNCH_AUDIT_ACTIONS.invite, personId, check.before, { invitation_id: id, expires_at: expiresAt });
  const results = await appendAudit(context.env, async (tail) =>
    db.batch<Record<string, unknown>>([
      await auditStatement(db, tail, INVITE_APPLIES, entry),
      db
        .prepare(
          `INSERT INTO invitations (id, person_id, token_hash, token_sealed, place, invited_at, expires_at)
           SELECT ?2, p.id, ?3, ?7, ?4, ?5, ?6 FROM signups AS p WHERE p.id = ?1 AND ${INVITE_APPLIES}`,
        )
        .bind(personId, id, token.hash, place, now.toISOString(), expiresAt, token.sealed),
      leave,
      db
        .prepare("UPDATE signups SET invitation_id = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM invitations WHERE id = ?2)")
        .bind(personId, id),
      clearScore,
    ]),
  );
  const audit = results[0].results[0] as unknown as AuditRow | undefined;
  if (!audit) return { kind: "not_applicable", detail: "The person changed meanwhile; look again." };
  const invitation = await db.prepare("SELECT * FROM invitations WHERE id = ?1").bind(id).first<InvitationRow>();
  return { kind: "done", invitation: invitation!, audit };
}

/**
 * Revoke the person's open invitation: its token never checks in again. They stay out of line.
 * @returns `done` with the invitation; `reason_invalid` when the reason names them; `not_applicable` when they have
 *   no open invitation
 * @throws whatever D1 throws (nothing was written)
 */
export async function revokeInvitation(context: InvitationContext, personId: string): Promise<InvitationResult> {
  const db = context.env.DB;
  const check = await applies(db, personId, REVOKE_APPLIES, context.reason);
  if (check === "not_found") return { kind: "not_found" };
  if (check.problem) return { kind: "reason_invalid", detail: REASON_DETAIL[check.problem] };
  if (!check.applies) return { kind: "not_applicable", detail: "The person has no open invitation." };
  const at = context.now.toISOString();
  const entry = entryOf(context, LAUNCH_AUDIT_ACTIONS.revoke, personId, check.before, { revoked_at: at });
  const results = await appendAudit(context.env, async (tail) =>
    db.batch<Record<string, unknown>>([await auditStatement(db, tail, REVOKE_APPLIES, entry), revokeStatement(db, personId, at)]),
  );
  const audit = results[0].results[0] as unknown as AuditRow | undefined;
  if (!audit) return { kind: "not_applicable", detail: "The person has no open invitation." };
  return { kind: "done", invitation: (await currentInvitation(db, personId))!, audit };
}

/** When a person's invitation may be sent again: it is open and Klaviyo has not taken its event. */
const RESEND_APPLIES = "EXISTS (SELECT 1 FROM invitations WHERE id = p.invitation_id AND state = 'invited' AND send_state <> 'sent')";

/**
 * Send the person's open invitation again (their page): its event queued once more under the SAME unique_id (the
 * invitation's id), so Klaviyo records it once however often it goes, and a person never gets the same invitation
 * twice. Only while Klaviyo has not taken it: a sent one a person lost is revoked and invited anew (a new id, a new
 * link). The event is the caller's to queue.
 * @returns `done` with the invitation; `reason_invalid` when the reason names them; `not_applicable` when there is no
 *   open invitation or its event was sent
 * @throws whatever D1 throws (nothing was written)
 */
export async function resendInvitation(context: InvitationContext, personId: string): Promise<InvitationResult> {
  const db = context.env.DB;
  const check = await applies(db, personId, RESEND_APPLIES, context.reason);
  const refusal = "Only an open invitation whose event Klaviyo has not taken can be sent again; revoke and invite anew instead.";
  if (check === "not_found") return { kind: "not_found" };
  if (check.problem) return { kind: "reason_invalid", detail: REASON_DETAIL[check.problem] };
  if (!check.applies) return { kind: "not_applicable", detail: refusal };
  const current = "(SELECT invitation_id FROM signups WHERE id = ?1)";
  const entry = entryOf(context, LAUNCH_AUDIT_ACTIONS.resend, personId, check.before, { send_state: "queued" });
  const results = await appendAudit(context.env, async (tail) =>
    db.batch<Record<string, unknown>>([
      await auditStatement(db, tail, RESEND_APPLIES, entry),
      db
        .prepare(
          `UPDATE invitations SET send_state = 'queued', send_error = NULL, send_due_at = NULL, send_held = 0
           WHERE id = ${current} AND state = 'invited' AND send_state <> 'sent' AND changes() > 0`,
        )
        .bind(personId),
      // A batch that counted it failed is sending again until it settles.
      db
        .prepare(
          `UPDATE launch_batches SET state = 'sending' WHERE state = 'done'
             AND id = (SELECT batch_id FROM invitations WHERE id = ${current}) AND sent + failed < invited`,
        )
        .bind(personId),
    ]),
  );
  const audit = results[0].results[0] as unknown as AuditRow | undefined;
  if (!audit) return { kind: "not_applicable", detail: refusal };
  return { kind: "done", invitation: (await currentInvitation(db, personId))!, audit };
}

/** A check-in's result: the person, or why the token is refused. */
export type CheckInResult =
  { kind: "accepted"; answer: CheckInAnswer } | { kind: "unknown" } | { kind: "used" } | { kind: "expired" } | { kind: "revoked" };

/** The invitations a token may name: made with a random token (one made before could be computed from its id). */
const SEALED = "token_sealed IS NOT NULL";

/**
 * Accept the invitation whose token this is, at `now`: once, while it is open and not past its expiry. The token is
 * found by its SHA-256 through the UNIQUE index, so no secret is compared in code. A refusal changes nothing.
 * @throws whatever D1 throws (nothing was written)
 */
export async function checkIn(db: D1Database, token: unknown, now: Date): Promise<CheckInResult> {
  if (!isInvitationToken(token)) return { kind: "unknown" };
  const hash = await hashInvitationToken(token);
  const at = now.toISOString();
  const [accepted, person] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `UPDATE invitations SET state = 'accepted', accepted_at = ?2 WHERE token_hash = ?1 AND ${SEALED} AND state = 'invited' AND expires_at > ?2 RETURNING place`,
      )
      .bind(hash, at),
    db
      .prepare(
        `SELECT p.email, p.first_name, p.last_name FROM invitations AS i JOIN signups AS p ON p.id = i.person_id
         WHERE i.token_hash = ?1 AND i.state = 'accepted' AND i.accepted_at = ?2`,
      )
      .bind(hash, at),
  ]);
  const place = accepted.results[0] as { place: number } | undefined;
  const row = person.results[0] as { email: string; first_name: string; last_name: string } | undefined;
  if (place && row)
    return { kind: "accepted", answer: { email: row.email, firstName: row.first_name, lastName: row.last_name, place: place.place } };
  const found = await db
    .prepare(`SELECT state FROM invitations WHERE token_hash = ?1 AND ${SEALED}`)
    .bind(hash)
    .first<{ state: Invitation["state"] }>();
  if (!found) return { kind: "unknown" };
  if (found.state === "accepted") return { kind: "used" };
  if (found.state === "revoked") return { kind: "revoked" };
  return { kind: "expired" };
}
