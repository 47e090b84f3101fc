/**
 * The console's people routes: the signed-in operator, search by address or referral code, one person's page and
 * the export of everything stored about them (itself an audited action). README: The operator's console.
 */
import type { Context } from "hono";
import { AUDIT_ACTIONS, CONSOLE_ERROR_CODE } from "../../../shared/console";
import { canonicalAddress } from "../../../shared/email-address";
import { SIGNUP_FIELD_MAX_LENGTH } from "../../../shared/validation";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { REFERRAL_CODE_PATTERN } from "../referrals/codes";
import { emailKey } from "../signups/email-key";
import { reasonProblem } from "./actions";
import {
  AUDIT_COLUMNS,
  auditEntryOf,
  type AuditRow,
  personAuditStatement,
  readPerson,
  SUMMARY_COLUMNS,
  summaryOf,
  type SummaryRow,
} from "./rows";
import type { PeopleAnswer, PersonExport, SessionAnswer } from "../../../shared/api/console";

/** A 400 `parameter_invalid` naming the query parameter. */
export function parameterInvalid(name: string, detail: string): Response {
  return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.parameterInvalid, detail: `${name}: ${detail}` }]);
}

/** 404 `person_not_found`. */
export function personNotFound(): Response {
  return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
}

/** GET /api/console/session: SessionAnswer. */
export function handleSession(c: Context<AppEnv>): Response {
  const answer: SessionAnswer = { operator: c.var.operator.id, local: c.var.operator.local };
  return jsonResponse(200, answer);
}

/**
 * GET /api/console/people?q=…: at most one person by address (its comparison key, so any spelling of the inbox finds
 * them) and one by referral code, each through a UNIQUE index. 400 `parameter_invalid` for a `q` that is neither.
 */
export async function handlePeopleSearch(c: Context<AppEnv>): Promise<Response> {
  const unknown = Object.keys(c.req.queries()).find((name) => name !== "q");
  if (unknown !== undefined) return parameterInvalid(unknown, "is not a parameter of the search.");
  const queries = c.req.queries("q") ?? [];
  if (queries.length !== 1) return parameterInvalid("q", "give one address or referral code.");
  const q = queries[0].trim();
  if (q === "" || q.length > SIGNUP_FIELD_MAX_LENGTH.email) return parameterInvalid("q", "give one address or referral code.");
  const byAddress = q.includes("@") && canonicalAddress(q).ok;
  const byCode = REFERRAL_CODE_PATTERN.test(q);
  if (!byAddress && !byCode) return parameterInvalid("q", "is neither an address nor a referral code.");
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
export async function handlePerson(c: Context<AppEnv>): Promise<Response> {
  const unknown = Object.keys(c.req.queries())[0];
  if (unknown !== undefined) return parameterInvalid(unknown, "is not a parameter of a person's page.");
  const person = await readPerson(c.env.DB, c.req.param("id") ?? "", c.var.settings);
  return person ? jsonResponse(200, person) : personNotFound();
}

/**
 * GET /api/console/people/:id/export[?reason=…]: PersonExport, every stored column by name and the person's audit entries, the
 * `export_person` entry this request writes among them (one batch: the entry exists exactly when the data left).
 */
export async function handlePersonExport(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const unknown = Object.keys(c.req.queries()).find((name) => name !== "reason");
  if (unknown !== undefined) return parameterInvalid(unknown, "is not a parameter of the export.");
  // The reason is optional here (a download link has none); when given it is held to an action's rules.
  const reasons = c.req.queries("reason") ?? [];
  const reason = reasons.length === 1 ? reasons[0].trim() : "";
  const problem = reasons.length > 1 ? "Give one reason." : reason === "" ? null : reasonProblem(reason);
  if (problem) return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.reasonInvalid, detail: problem }]);
  const db = c.env.DB;
  const at = new Date().toISOString();
  const [, person, audit] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `INSERT INTO audit_log (at, operator, action, person_id, reason, before, after)
         SELECT ?2, ?3, ?4, id, ?5, NULL, NULL FROM signups WHERE id = ?1 RETURNING ${AUDIT_COLUMNS}`,
      )
      .bind(id, at, c.var.operator.id, AUDIT_ACTIONS.export, reason),
    db.prepare("SELECT * FROM signups WHERE id = ?1").bind(id),
    personAuditStatement(db, id),
  ]);
  const row = person.results[0] as Record<string, string | number | null> | undefined;
  if (!row) return personNotFound();
  const answer: PersonExport = {
    exportedAt: at,
    person: row,
    audit: (audit.results as unknown as AuditRow[]).map(auditEntryOf),
  };
  return jsonResponse(200, answer, { "content-disposition": `attachment; filename="person-${id}.json"` });
}
