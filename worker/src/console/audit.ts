/**
 * GET /api/console/audit: the audit log, newest first, a page at a time by its primary key. docs/operators.md: People,
 * review and the audit log.
 */
import type { Context } from "hono";
import { CONSOLE_PAGE_SIZE } from "../../../shared/console";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { AUDIT_COLUMNS, auditEntryOf, type AuditRow } from "./rows";
import type { AuditAnswer } from "../../../shared/api/console";

/** 200 AuditAnswer; `before` is the cursor the page before answered as `next` (the oldest entry's id shown). */
export async function handleAudit(c: Context<AppEnv>, before: number | undefined): Promise<Response> {
  const { results } = await c.env.DB.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE id < ?1 ORDER BY id DESC LIMIT ?2`)
    .bind(before ?? Number.MAX_SAFE_INTEGER, CONSOLE_PAGE_SIZE + 1)
    .all<AuditRow>();
  const page = results.slice(0, CONSOLE_PAGE_SIZE);
  const answer: AuditAnswer = {
    entries: page.map(auditEntryOf),
    next: results.length > CONSOLE_PAGE_SIZE ? String(page[page.length - 1].id) : null,
  };
  return jsonResponse(200, answer);
}
