/**
 * `npm run waitlist -- export`: every signup as one CSV row with its standing. Positions come from one
 * window function over the line's order (worker/src/store/rank.ts), fine for an export; the service
 * itself reads one position from the rank tree.
 */
import { stringify } from "csv-stringify/sync";

/** The columns, in order: the CSV's header row. */
export const EXPORT_COLUMNS = [
  "signup_order",
  "created_at",
  "email",
  "first_name",
  "last_name",
  "source",
  "referral_code",
  "referred_by",
  "referrals",
  "entries",
  "position",
  "flags",
  "referral_hold",
  "confirmed_at",
  "delivery_state",
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

/**
 * The export's one statement (for `wrangler d1 execute`, which takes no bound parameters).
 * @param entriesPerReferral checked to be a whole number: the only value written into the text
 * @throws RangeError when it is not a non-negative safe integer
 */
export function exportQuery(entriesPerReferral: number): string {
  if (!Number.isSafeInteger(entriesPerReferral) || entriesPerReferral < 0)
    throw new RangeError(`entriesPerReferral must be a whole number of at least 0, got ${entriesPerReferral}`);
  return `SELECT person.seq AS signup_order, person.created_at, person.email, person.first_name, person.last_name, person.source,
  person.referral_code, referrer.referral_code AS referred_by, person.referrals,
  1 + ${entriesPerReferral} * person.referrals AS entries,
  CASE WHEN person.score IS NULL THEN NULL
    ELSE row_number() OVER (ORDER BY person.score IS NULL, person.score, person.referrals DESC, person.seq) END AS position,
  person.flags, person.referral_hold, person.confirmed_at, person.delivery_state
FROM signups AS person LEFT JOIN signups AS referrer ON referrer.id = person.referred_by
ORDER BY person.seq`;
}

/**
 * The rows as CSV (RFC 4180: a header row, CRLF line ends, fields quoted where needed). A cell that a spreadsheet
 * would run as a formula (a name typed as `=HYPERLINK(…)`) starts with a `'`, so opening the file runs nothing.
 * @returns the whole file's text
 */
export function exportCsv(rows: ExportRow[]): string {
  return stringify(rows, {
    header: true,
    columns: [...EXPORT_COLUMNS],
    record_delimiter: "windows",
    escape_formulas: true,
    cast: { number: (value) => String(value) },
  });
}
