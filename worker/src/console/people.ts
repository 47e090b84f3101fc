/**
 * The console's people routes: the signed-in operator, search by address or referral code, one person's page and
 * the export of everything stored about them (itself an audited action). docs/operators.md: People, review and the audit log.
 */
import type { Context } from "hono";
import { PeopleQuery, REASON_DETAIL } from "../../../shared/api/console";
import { reasonProblem } from "../../../shared/console-reason";
import { AUDIT_ACTIONS, CONSOLE_ERROR_CODE, PERSON_VIEWED_ACTION } from "../../../shared/console";
import { canonicalAddress } from "../../../shared/email-address";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { REFERRAL_CODE_PATTERN } from "../referrals/codes";
import { emailKey } from "../signups/email-key";
import { appendAudit, appendStatement } from "./audit-log";
import {
  readPerson,
  REASON_SUBJECT_COLUMNS,
  reasonSubjectOf,
  type ReasonSubjectRow,
  SUMMARY_COLUMNS,
  summaryOf,
  type SummaryRow,
} from "./rows";
import type { ExportedAuditEntry, PeopleAnswer, PersonExport, SessionAnswer } from "../../../shared/api/console";

/** 404 `person_not_found`. */
function personNotFound(): Response {
  return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
}

/** GET /api/console/session: SessionAnswer. */
export function handleSession(c: Context<AppEnv>): Response {
  const { id, local, role } = c.var.operator;
  const answer: SessionAnswer = { operator: id, local, role };
  return jsonResponse(200, answer);
}

const isAddress = (q: string): boolean => q.includes("@") && canonicalAddress(q).ok;

/** The search's query (shared/api/console.ts: PeopleQuery), whose `q` is an address or a referral code. */
export const PeopleSearchQuery = PeopleQuery.refine(({ q }) => isAddress(q) || REFERRAL_CODE_PATTERN.test(q), {
  path: ["q"],
  error: "is neither an address nor a referral code.",
});

/**
 * GET /api/console/people?q=…: at most one person by address (its comparison key, so any spelling of the inbox finds
 * them) and one by referral code, each through a UNIQUE index.
 */
export async function handlePeopleSearch(c: Context<AppEnv>, q: string): Promise<Response> {
  const byAddress = isAddress(q);
  const byCode = REFERRAL_CODE_PATTERN.test(q);
  const { results } = await c.env.DB.prepare(
    `SELECT ${SUMMARY_COLUMNS} FROM signups AS p WHERE p.email_key = ?1
     UNION SELECT ${SUMMARY_COLUMNS} FROM signups AS p WHERE p.referral_code = ?2`,
  )
    .bind(byAddress ? emailKey(q) : null, byCode ? q : null)
    .all<SummaryRow>();
  const answer: PeopleAnswer = { people: results.sort((a, b) => a.seq - b.seq).map((row) => summaryOf(row, c.var.operator.role)) };
  return jsonResponse(200, answer);
}

/**
 * GET /api/console/people/:id: PersonAnswer, or 404 `person_not_found`. Every read of a person's record is audited
 * (`person_viewed`, no reason asked: reading is what the role is for) before it is answered, so the log shows who saw
 * whom; a viewer reads the addresses masked (shared/console.ts: addressFor).
 */
export async function handlePerson(c: Context<AppEnv>, id: string): Promise<Response> {
  const db = c.env.DB;
  const entry = {
    person_id: id,
    at: new Date().toISOString(),
    operator: c.var.operator.id,
    action: PERSON_VIEWED_ACTION,
    reason: "",
    before: null,
    after: null,
  };
  // Written only when the person exists: a guessed id leaves no entry.
  await appendAudit(c.env, async (tail) => (await appendStatement(db, tail, entry, "FROM signups WHERE id = ?1")).run());
  const person = await readPerson(db, id, c.var.settings, c.var.operator.role);
  return person ? jsonResponse(200, person) : personNotFound();
}

/**
 * The columns a person's export gives them: what they told us, what we did with it, their standing, and their draw
 * ticket (the secret seed of their pseudonym, theirs alone to see); by name. Left out: ip_hash, status_token, status_token_hash, pending_status_token_hash and email_key (keys, not data about
 * them: one would let the export's reader act as the person), flags and referral_hold (marks that say as much about
 * other people's networks and codes as about theirs), referred_by (another person's id; the referrer's code is given),
 * and the rank tree's, the queue's and launch day's bookkeeping (invitation_id).
 */
export const EXPORT_COLUMNS = [
  "id",
  "seq",
  "email",
  "first_name",
  "last_name",
  "source",
  "properties",
  "created_at",
  "confirmed_at",
  "delivery_state",
  "delivery_attempts",
  "delivery_error",
  "delivered_at",
  "referral_code",
  "referrals",
  "referral_counted_at",
  "leaderboard_shown_at",
  "disqualified_at",
  "reviewed_at",
  "notified_again_at",
  "draw_ticket",
] as const;

/**
 * POST /api/console/people/:id/export with a checked reason: PersonExport, EXPORT_COLUMNS of their row with their
 * referrer's code, and what was done to them (ExportedAuditEntry), the `export_person` entry this request writes among
 * them (one batch: the entry exists exactly when the data left); 400 `reason_invalid` when the reason names the person;
 * 404 `person_not_found`.
 */
export async function handlePersonExport(c: Context<AppEnv>, id: string, reason: string): Promise<Response> {
  const db = c.env.DB;
  const subject = await db.prepare(`SELECT ${REASON_SUBJECT_COLUMNS} FROM signups AS p WHERE p.id = ?1`).bind(id).first<ReasonSubjectRow>();
  if (!subject) return personNotFound();
  const problem = reasonProblem(reason, reasonSubjectOf(subject));
  if (problem)
    return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.reasonInvalid, detail: REASON_DETAIL[problem], pointer: "/reason" }]);
  const at = new Date().toISOString();
  const entry = { person_id: id, at, operator: c.var.operator.id, action: AUDIT_ACTIONS.export, reason, before: null, after: null };
  const columns = EXPORT_COLUMNS.map((column) => `p.${column}`).join(", ");
  const [, person, audit] = await appendAudit(c.env, async (tail) =>
    db.batch<Record<string, unknown>>([
      await appendStatement(db, tail, entry, "FROM signups WHERE id = ?1"),
      db
        .prepare(
          `SELECT ${columns}, referrer.referral_code AS referrer_code
           FROM signups AS p LEFT JOIN signups AS referrer ON referrer.id = p.referred_by WHERE p.id = ?1`,
        )
        .bind(id),
      db.prepare("SELECT id, at, action FROM audit_log WHERE person_id = ?1 ORDER BY id DESC").bind(id),
    ]),
  );
  const row = person.results[0] as Record<string, string | number | null> | undefined;
  if (!row) return personNotFound();
  const answer: PersonExport = {
    exportedAt: at,
    person: row,
    audit: audit.results as unknown as ExportedAuditEntry[],
  };
  return jsonResponse(200, answer, { "content-disposition": `attachment; filename="person-${id}.json"` });
}
