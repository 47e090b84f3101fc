/**
 * Appending to the audit log, the one way every entry is written (console actions, exports, the draw, launch day):
 * each entry is chained to the last one and signed with AUDIT_SIGNING_KEY (shared/audit-chain.ts) by an INSERT that
 * names its id and its predecessor's hash, so the store refuses it when another entry got in first
 * (migrations/0016_audit_chain.sql); appendAudit then reads the new last entry and tries again. docs/operators.md:
 * The audit log.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { hexToBytes } from "@noble/hashes/utils.js";
import { AUDIT_CHAIN_GENESIS, auditRowHash, type AuditFields } from "../../../shared/audit-chain";
import { type NoteSigner, signBytes, signerFromSecret } from "../../../shared/signed-note";
import type { ServiceEnv } from "../env";
import { AUDIT_COLUMNS } from "./rows";

/** The key when AUDIT_SIGNING_KEY is unset, which only a development Worker may be (env.ts: productionProblems). */
export const DEVELOPMENT_AUDIT_KEY = "development audit signing key";

/** What appending needs: the database and the signing key. */
export type AuditEnv = Pick<ServiceEnv, "DB" | "AUDIT_SIGNING_KEY">;

/**
 * The Worker's audit key under the note key name `name` (the log's origin, for checkpoints; any name for an entry's
 * signature, which signs bytes, not a note).
 */
export function auditSigner(env: Pick<ServiceEnv, "AUDIT_SIGNING_KEY">, name = "audit-log"): NoteSigner {
  return signerFromSecret(name, env.AUDIT_SIGNING_KEY || DEVELOPMENT_AUDIT_KEY);
}

/**
 * How often an append is tried when other writers keep getting in first: each round one of them lands, so this many
 * writers at once (an operator's tabs reading people, a batch, the cron) all land.
 */
const AUDIT_APPEND_ATTEMPTS = 25;

/** The most an append waits before its next try (ms), times the tries so far, at random: writers that met spread out. */
const AUDIT_APPEND_JITTER_MS = 5;

/** The last entry as the next one follows it, and the key the next one is signed with. */
export interface ChainTail {
  id: number;
  hash: string;
  signer: NoteSigner;
}

/** The id and hash the next entry follows (id 0 and the genesis hash when the log is empty). Reads 1 row. */
async function chainTail(env: AuditEnv): Promise<ChainTail> {
  const last = await env.DB.prepare("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").first<{ id: number; hash: string | null }>();
  return { id: last?.id ?? 0, hash: last?.hash ?? AUDIT_CHAIN_GENESIS, signer: auditSigner(env) };
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
  const signature = signBytes(hexToBytes(hash), tail.signer);
  return db
    .prepare(
      `INSERT INTO audit_log (person_id, at, operator, action, reason, before, after, id, prev_hash, hash, signature)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 ${source} RETURNING ${AUDIT_COLUMNS}`,
    )
    .bind(entry.person_id, entry.at, entry.operator, entry.action, entry.reason, entry.before, entry.after, id, tail.hash, hash, signature);
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
export async function appendAudit<T>(env: AuditEnv, attempt: (tail: ChainTail) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt(await chainTail(env));
    } catch (error) {
      if (!lostTheRace(error) || tries >= AUDIT_APPEND_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * AUDIT_APPEND_JITTER_MS * tries));
    }
  }
}
