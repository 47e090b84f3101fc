/**
 * The console's reads of D1: a person's row as the console shows it (PersonSummary, PersonAnswer), as a reason is
 * checked against it (ReasonSubject), and audit_log rows as AuditEntry; shared by the people, review, audit and action routes. Every query is bound and reads through an
 * index (the primary key, signups_review, signups_referred_recent, audit_log_person).
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import type { AuditFields } from "../../../shared/audit-chain";
import { addressFor, type ConsoleRole, PERSON_REFERRED_SHOWN } from "../../../shared/console";
import type { ReasonSubject } from "../../../shared/console-reason";
import type { ServiceSettings } from "../../../shared/service-settings";
import { entriesOf } from "../referrals/standing";
import type { DeliveryState } from "../store/delivery";
import { positionOf } from "../store/rank";
import type { AuditEntry, PersonAnswer, PersonSummary, ReferredPerson } from "../../../shared/api/console";

/** The columns a reason is checked against (shared/console-reason.ts: ReasonSubject; the alias `p` is the person's row). */
export const REASON_SUBJECT_COLUMNS = "p.first_name, p.last_name, p.referral_code";

/** A row of REASON_SUBJECT_COLUMNS. */
export interface ReasonSubjectRow {
  first_name: string;
  last_name: string;
  referral_code: string | null;
}

/** The person a reason is about, as the reason rule reads them. */
export function reasonSubjectOf(row: ReasonSubjectRow): ReasonSubject {
  return { firstName: row.first_name, lastName: row.last_name, referralCode: row.referral_code };
}

/** The columns of a PersonSummary (the alias `p` is the person's row). */
export const SUMMARY_COLUMNS = `p.id, p.seq, p.email, p.first_name, p.last_name, p.referral_code, p.created_at, p.confirmed_at,
  p.disqualified_at, p.flags, p.referral_hold`;

/** A row of SUMMARY_COLUMNS. */
export interface SummaryRow {
  id: string;
  seq: number;
  email: string;
  first_name: string;
  last_name: string;
  referral_code: string | null;
  created_at: string;
  confirmed_at: string | null;
  disqualified_at: string | null;
  flags: string | null;
  referral_hold: string | null;
}

/** A row as a PersonSummary (`flags` is space-separated in D1). */
export function summaryOf(row: SummaryRow, role: ConsoleRole): PersonSummary {
  return {
    id: row.id,
    email: addressFor(role, row.email),
    firstName: row.first_name,
    lastName: row.last_name,
    referralCode: row.referral_code,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    disqualifiedAt: row.disqualified_at,
    flags: row.flags ? row.flags.split(" ").filter(Boolean) : [],
    referralHold: row.referral_hold,
  };
}

/** An audit_log row as stored (its fields; the chain's columns are read only by audit verify). */
export type AuditRow = AuditFields;

/** The audit_log columns every entry read selects. */
export const AUDIT_COLUMNS = "id, at, operator, action, person_id, reason, before, after";

const parsed = (json: string | null): unknown => {
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
};

/** An audit_log row as an AuditEntry (before/after parsed from JSON). */
export function auditEntryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    operator: row.operator,
    action: row.action,
    personId: row.person_id,
    reason: row.reason,
    before: parsed(row.before),
    after: parsed(row.after),
  };
}

/** The statement reading a person's audit entries, newest first (through audit_log_person). */
export function personAuditStatement(db: D1Database, personId: string): D1PreparedStatement {
  return db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE person_id = ?1 ORDER BY id DESC`).bind(personId);
}

/** The person's own row beyond the summary. */
interface PersonRow extends SummaryRow {
  source: string | null;
  properties: string;
  delivery_state: DeliveryState;
  delivery_attempts: number;
  delivery_error: string | null;
  delivered_at: string | null;
  referrals: number;
  /** Everyone they referred, credited or not (kept by migrations/0011_referred_count.sql's triggers). */
  referred_count: number;
  reviewed_at: string | null;
  referred_by: string | null;
  referrer_code: string | null;
}

/** The stored properties JSON as string pairs (anything else left out). */
function propertiesOf(json: string): Record<string, string> {
  const value = parsed(json);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * One person as the console's person page shows them, read in one batch (one snapshot) plus their place in line.
 * The rows read: their row (with the count of everyone they referred), their referrer's, the first PERSON_REFERRED_SHOWN
 * people they referred, their audit entries, and positionOf's tree walk.
 * @returns null when no row has that id (never there, or erased)
 * @throws whatever D1 throws
 */
export async function readPerson(db: D1Database, id: string, settings: ServiceSettings, role: ConsoleRole): Promise<PersonAnswer | null> {
  const [person, referred, audit] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${SUMMARY_COLUMNS}, p.source, p.properties, p.delivery_state, p.delivery_attempts, p.delivery_error,
           p.delivered_at, p.referrals, p.referred_count, p.reviewed_at, p.referred_by, referrer.referral_code AS referrer_code
         FROM signups AS p LEFT JOIN signups AS referrer ON referrer.id = p.referred_by WHERE p.id = ?1`,
      )
      .bind(id),
    db
      .prepare(
        `SELECT ${SUMMARY_COLUMNS}, p.referral_counted_at IS NOT NULL AS counted FROM signups AS p
         WHERE p.referred_by = ?1 ORDER BY p.created_at LIMIT ${PERSON_REFERRED_SHOWN}`,
      )
      .bind(id),
    personAuditStatement(db, id),
  ]);
  const row = person.results[0] as unknown as PersonRow | undefined;
  if (!row) return null;
  const position = settings.referrals.enabled ? await positionOf(db, id) : null;
  return {
    ...summaryOf(row, role),
    source: row.source,
    properties: propertiesOf(row.properties),
    delivery: { state: row.delivery_state, attempts: row.delivery_attempts, error: row.delivery_error, deliveredAt: row.delivered_at },
    position: position?.position ?? null,
    referrals: row.referrals,
    entries: entriesOf(row.referrals, settings.referrals.entriesPerReferral),
    reviewedAt: row.reviewed_at,
    referredBy: row.referred_by === null ? null : { id: row.referred_by, referralCode: row.referrer_code },
    referred: (referred.results as unknown as (SummaryRow & { counted: number })[]).map((friend): ReferredPerson => ({
      ...summaryOf(friend, role),
      counted: friend.counted === 1,
    })),
    referredTotal: row.referred_count,
    audit: (audit.results as unknown as AuditRow[]).map(auditEntryOf),
  };
}
