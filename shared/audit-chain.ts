/**
 * The audit log's hash chain: each audit_log row holds `prev_hash`, the SHA-256 of the row before it, and `hash`, the
 * SHA-256 of that and its own fields, so a row changed or removed after it was written breaks every hash from it on.
 * The Worker computes the hashes as it appends (worker/src/console/audit-log.ts); `npm run waitlist -- audit verify`
 * checks them (docs/operators.md: The audit log).
 */

/** The `prev_hash` of the first chained row: there is no row before it. */
export const AUDIT_CHAIN_GENESIS = "0".repeat(64);

/** An audit_log row's own fields, as stored (before/after are JSON text or NULL). */
export interface AuditFields {
  id: number;
  at: string;
  operator: string;
  action: string;
  person_id: string | null;
  reason: string;
  before: string | null;
  after: string | null;
}

/** A stored audit_log row with its chain columns (NULL in rows written before the chain began). */
export interface ChainedAuditRow extends AuditFields {
  prev_hash: string | null;
  hash: string | null;
}

/**
 * The SHA-256 (lowercase hex) of a row: its predecessor's hash and its own fields, as one JSON array (so no field can
 * bleed into the next).
 */
export async function auditRowHash(prevHash: string, row: AuditFields): Promise<string> {
  const text = JSON.stringify([prevHash, row.id, row.at, row.operator, row.action, row.person_id, row.reason, row.before, row.after]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What audit verify found. */
export type AuditChainReport =
  | {
      ok: true;
      /** Rows checked in the chain. */
      chained: number;
      /** Rows before the chain began (written before migrations/0016_audit_chain.sql), not checked. */
      unchained: number;
      /** The last row's id and hash: note them elsewhere, since a chain alone cannot show its last rows removed. */
      head: { id: number; hash: string } | null;
    }
  | {
      ok: false;
      /** The first row whose chain does not hold. */
      brokenAt: number;
      problem: "hash_missing" | "prev_hash_mismatch" | "hash_mismatch" | "id_gap";
    };

/**
 * Check the chain over every row, in id order. Rows without a hash are allowed only before the first chained row.
 * @returns the first broken row and why, or the counts and the head
 */
export async function verifyAuditChain(rows: readonly ChainedAuditRow[]): Promise<AuditChainReport> {
  let unchained = 0;
  let previous: ChainedAuditRow | null = null;
  for (const row of rows) {
    const chainStarted = previous !== null && previous.hash !== null;
    if (row.hash === null || row.prev_hash === null) {
      if (chainStarted) return { ok: false, brokenAt: row.id, problem: "hash_missing" };
      unchained += 1;
      previous = row;
      continue;
    }
    if (previous !== null && row.id !== previous.id + 1) return { ok: false, brokenAt: row.id, problem: "id_gap" };
    const expectedPrev = chainStarted ? previous!.hash! : AUDIT_CHAIN_GENESIS;
    if (row.prev_hash !== expectedPrev) return { ok: false, brokenAt: row.id, problem: "prev_hash_mismatch" };
    if ((await auditRowHash(row.prev_hash, row)) !== row.hash) return { ok: false, brokenAt: row.id, problem: "hash_mismatch" };
    previous = row;
  }
  const last = rows.at(-1);
  return {
    ok: true,
    chained: rows.length - unchained,
    unchained,
    head: last?.hash ? { id: last.id, hash: last.hash } : null,
  };
}
