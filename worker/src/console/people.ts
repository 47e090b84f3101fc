/**
 * The console's people routes: the signed-in operator, search by address or referral code, one person's page and
 * the export of everything stored about them (itself an audited action). docs/operators.md: People, review and the audit log.
 */
import type { Context } from "hono";
import { PeopleQuery } from "../../../shared/api/console";
import { AUDIT_ACTIONS, CONSOLE_ERROR_CODE } from "../../../shared/console";
import { canonicalAddress } from "../../../shared/email-address";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { REFERRAL_CODE_PATTERN } from "../referrals/codes";
import { emailKey } from "../signups/email-key";
import { appendAudit, appendStatement } from "./audit-log";
import { auditEntryOf, type AuditRow, personAuditStatement, readPerson, SUMMARY_COLUMNS, summaryOf, type SummaryRow } from "./rows";
import type { PeopleAnswer, PersonExport, SessionAnswer } from "../../../shared/api/console";

/** 404 `person_not_found`. */
function personNotFound(): Response {
  return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
}

/** GET /api/console/session: SessionAnswer. */
export function handleSession(c: Context<AppEnv>): Response {
  const answer: SessionAnswer = { operator: c.var.operator.id, local: c.var.operator.local };
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
  const answer: PeopleAnswer = { people: results.sort((a, b) => a.seq - b.seq).map(summaryOf) };
  return jsonResponse(200, answer);
}

/** GET /api/console/people/:id: PersonAnswer, or 404 `person_not_found`. */
export async function handlePerson(c: Context<AppEnv>, id: string): Promise<Response> {
  const person = await readPerson(c.env.DB, id, c.var.settings);
  return person ? jsonResponse(200, person) : personNotFound();
}

/**
 * GET /api/console/people/:id/export[?reason=…]: PersonExport, every stored column by name and the person's audit
 * entries, the `export_person` entry this request writes among them (one batch: the entry exists exactly when the data
 * left). `reason` is the query's, checked ("" when none was given).
 */
export async function handlePersonExport(c: Context<AppEnv>, id: string, reason: string): Promise<Response> {
  const db = c.env.DB;
  const at = new Date().toISOString();
  const entry = { person_id: id, at, operator: c.var.operator.id, action: AUDIT_ACTIONS.export, reason, before: null, after: null };
  const [, person, audit] = await appendAudit(db, async (tail) =>
    db.batch<Record<string, unknown>>([
      await appendStatement(db, tail, entry, "FROM signups WHERE id = ?1"),
      db.prepare("SELECT * FROM signups WHERE id = ?1").bind(id),
      personAuditStatement(db, id),
    ]),
  );
  const row = person.results[0] as Record<string, string | number | null> | undefined;
  if (!row) return personNotFound();
  const answer: PersonExport = {
    exportedAt: at,
    person: row,
    audit: (audit.results as unknown as AuditRow[]).map(auditEntryOf),
  };
  return jsonResponse(200, answer, { "content-disposition": `attachment; filename="person-${id}.json"` });
}
