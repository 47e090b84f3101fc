/**
 * GET /api/console/review: the review queue, everyone flagged by the fair-play rules or holding a held referral, not
 * reviewed yet and not disqualified, oldest first, a page at a time through the partial index signups_review.
 * docs/operators.md: People, review and the audit log.
 */
import type { Context } from "hono";
import { CONSOLE_PAGE_SIZE } from "../../../shared/console";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { SUMMARY_COLUMNS, summaryOf, type SummaryRow } from "./rows";
import type { ReviewAnswer } from "../../../shared/api/console";

/** 200 ReviewAnswer; `after` is the cursor the page before answered as `next` (the last person's signup order). */
export async function handleReview(c: Context<AppEnv>, after: number | undefined): Promise<Response> {
  const { results } = await c.env.DB.prepare(
    `SELECT ${SUMMARY_COLUMNS} FROM signups AS p INDEXED BY signups_review
     WHERE p.reviewed_at IS NULL AND p.disqualified_at IS NULL AND (p.flags IS NOT NULL OR p.referral_hold IS NOT NULL)
       AND p.seq > ?1
     ORDER BY p.seq LIMIT ?2`,
  )
    .bind(after ?? 0, CONSOLE_PAGE_SIZE + 1)
    .all<SummaryRow>();
  const page = results.slice(0, CONSOLE_PAGE_SIZE);
  const answer: ReviewAnswer = {
    people: page.map((row) => summaryOf(row, c.var.operator.role)),
    next: results.length > CONSOLE_PAGE_SIZE ? String(page[page.length - 1].seq) : null,
  };
  return jsonResponse(200, answer);
}
