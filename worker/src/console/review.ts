/**
 * GET /api/console/review: the review queue, everyone flagged by the fair-play rules or holding a held referral, not
 * reviewed yet and not disqualified, oldest first, a page at a time through the partial index signups_review.
 * README: The operator's console.
 */
import type { Context } from "hono";
import { CONSOLE_PAGE_SIZE } from "../../../shared/console";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { parameterInvalid } from "./people";
import { SUMMARY_COLUMNS, summaryOf, type SummaryRow } from "./rows";
import type { ReviewAnswer } from "../../../shared/api/console";

/**
 * A keyset cursor from the query: a positive integer (the last row's key of the page before), null when absent.
 * @returns the cursor, or the 400 `parameter_invalid` answer
 */
export function cursorOf(c: Context<AppEnv>, name: string): number | null | Response {
  const values = c.req.queries(name) ?? [];
  if (values.length === 0) return null;
  const value = values[0];
  if (values.length > 1 || !/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value)))
    return parameterInvalid(name, "takes the `next` cursor of the page before.");
  return Number(value);
}

/** 200 ReviewAnswer; `before` is the cursor the page before answered as `next` (the last person's signup order). */
export async function handleReview(c: Context<AppEnv>): Promise<Response> {
  const unknown = Object.keys(c.req.queries()).find((name) => name !== "before");
  if (unknown !== undefined) return parameterInvalid(unknown, "is not a parameter of the review queue.");
  const after = cursorOf(c, "before");
  if (after instanceof Response) return after;
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
    people: page.map(summaryOf),
    next: results.length > CONSOLE_PAGE_SIZE ? String(page[page.length - 1].seq) : null,
  };
  return jsonResponse(200, answer);
}
