/**
 * Appending to the audit log, the one way every entry is written (console actions, exports, the draw): each entry is
 * chained to the last one (shared/audit-chain.ts) by an INSERT that names its id and its predecessor's hash, so the
 * store refuses it when another entry got in first (migrations/0016_audit_chain.sql); appendAudit then reads the new
 * last entry and tries again. docs/operators.md: The audit log.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { AUDIT_CHAIN_GENESIS, auditRowHash, type AuditFields } from "../../../shared/audit-chain";
import { AUDIT_COLUMNS } from "./rows";

/** How often an append is tried when other writers keep getting in first. */
const AUDIT_APPEND_ATTEMPTS = 5;

/** The last entry as the next one follows it. */
export interface ChainTail {
  id: number;
  hash: string;
}

/** The id and hash the next entry follows (id 0 and the genesis hash when the log is empty or unchained). */
export async function chainTail(db: D1Database): Promise<ChainTail> {
  const last = await db.prepare("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").first<{ id: number; hash: string | null }>();
  return { id: last?.id ?? 0, hash: last?.hash ?? AUDIT_CHAIN_GENESIS };
}

/** An entry's fields but its id, which the chain gives. */
export type NewAuditEntry = Omit<AuditFields, "id">;

/**
 * The INSERT of `entry` after `tail`, RETURNING AUDIT_COLUMNS. `source` is the rest of its `SELECT`: a FROM/WHERE
 * that decides whether the entry is written at all (empty: always). Its parameters: ?1 person_id, ?2 at, ?3 operator,
 * ?4 action, ?5 reason, ?6 before, ?7 after.
 */
export async function appendStatement(db: D1Database, tail: ChainTail, entry: NewAuditEntry, source = ""): Promise<D1PreparedStatement> {
  const id = tail.id + 1;
  const hash = await auditRowHash(tail.hash, { id, ...entry });
  return db
    .prepare(
      `INSERT INTO audit_log (person_id, at, operator, action, reason, before, after, id, prev_hash, hash)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 ${source} RETURNING ${AUDIT_COLUMNS}`,
    )
    .bind(entry.person_id, entry.at, entry.operator, entry.action, entry.reason, entry.before, entry.after, id, tail.hash, hash);
}

/** Whether D1 refused an append because another entry got in first (the chain trigger or the prev_hash index). */
function lostTheRace(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  const message = error instanceof Error ? `${error.message} ${cause}` : String(error);
  return message.includes("audit_log is a hash chain") || message.includes("audit_log.prev_hash") || message.includes("audit_log.id");
}

/**
 * Run `attempt` with the current tail; when another writer appended first (the batch changed nothing), run it again
 * with the new tail.
 * @throws whatever D1 throws otherwise, or the last refusal after AUDIT_APPEND_ATTEMPTS
 */
export async function appendAudit<T>(db: D1Database, attempt: (tail: ChainTail) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt(await chainTail(db));
    } catch (error) {
      if (!lostTheRace(error) || tries >= AUDIT_APPEND_ATTEMPTS) throw error;
    }
  }
}
