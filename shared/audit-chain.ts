/**
 * The audit log's hash chain and its signatures: each audit_log row holds `prev_hash`, the SHA-256 of the row before
 * it, `hash`, the SHA-256 of that and its own fields, and `signature`, the Worker's Ed25519 signature of `hash` under
 * AUDIT_SIGNING_KEY. A row changed, removed or written without the key breaks the chain from it on; a checkpoint, the
 * head signed as a note (shared/signed-note.ts), lets anyone who kept one prove a rewrite or a removed tail later.
 * The Worker appends (worker/src/console/audit-log.ts) and publishes checkpoints (worker/src/transparency/);
 * `npm run waitlist -- audit verify` checks both (docs/operators.md: The audit log).
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { fromBase64, type NoteVerifier, openNote, toBase64, verifyBytes } from "./signed-note";

/** The `prev_hash` of the first row: there is no row before it. */
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

/** A stored audit_log row with its chain columns (NULL only in a row written around the Worker). */
export interface ChainedAuditRow extends AuditFields {
  prev_hash: string | null;
  hash: string | null;
  signature: string | null;
}

/**
 * The SHA-256 (lowercase hex) of a row: its predecessor's hash and its own fields, as one JSON array (so no field can
 * bleed into the next).
 */
export async function auditRowHash(prevHash: string, row: AuditFields): Promise<string> {
  const text = JSON.stringify([prevHash, row.id, row.at, row.operator, row.action, row.person_id, row.reason, row.before, row.after]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return bytesToHex(new Uint8Array(digest));
}

/** The audit log's head: its number of entries (the last id) and the last entry's hash (the genesis value when empty). */
export interface AuditHead {
  size: number;
  hash: string;
}

/** Why a row breaks the chain. */
export type AuditChainProblem =
  | "hash_missing"
  | "prev_hash_mismatch"
  | "hash_mismatch"
  | "signature_invalid"
  | "id_gap"
  | "checkpoint_missing_entries"
  | "checkpoint_mismatch";

/** What audit verify found. */
export type AuditChainReport =
  | { ok: true; head: AuditHead }
  | {
      ok: false;
      /** The first row whose chain does not hold (for a checkpoint's missing entries: the first one missing). */
      brokenAt: number;
      problem: AuditChainProblem;
    };

/**
 * Check the chain over every row, in id order: ids 1, 2, 3… with no gap, each row following the one before, its
 * fields giving its hash and `verifier`'s signature on that hash. A row with a NULL link is a break wherever it is.
 * @returns the first broken row and why, or the head
 */
export async function verifyAuditChain(rows: readonly ChainedAuditRow[], verifier: NoteVerifier): Promise<AuditChainReport> {
  let head: AuditHead = { size: 0, hash: AUDIT_CHAIN_GENESIS };
  for (const row of rows) {
    if (row.id !== head.size + 1) return { ok: false, brokenAt: head.size + 1, problem: "id_gap" };
    if (row.hash === null || row.prev_hash === null || row.signature === null)
      return { ok: false, brokenAt: row.id, problem: "hash_missing" };
    if (row.prev_hash !== head.hash) return { ok: false, brokenAt: row.id, problem: "prev_hash_mismatch" };
    if ((await auditRowHash(row.prev_hash, row)) !== row.hash) return { ok: false, brokenAt: row.id, problem: "hash_mismatch" };
    if (!verifyBytes(hexToBytes(row.hash), row.signature, verifier)) return { ok: false, brokenAt: row.id, problem: "signature_invalid" };
    head = { size: row.id, hash: row.hash };
  }
  return { ok: true, head };
}

/**
 * A checkpoint's text: the log's origin (`verifier`'s key name), its size and the head entry's hash in base64, one per
 * line, as a transparency log's checkpoint (c2sp.org/tlog-checkpoint) names its tree; here the third line is a hash
 * chain's head, which commits to every entry before it.
 */
export function checkpointText(origin: string, head: AuditHead): string {
  return `${origin}\n${head.size}\n${toBase64(hexToBytes(head.hash))}\n`;
}

/**
 * The head a signed checkpoint names.
 * @returns null when `verifier` did not sign it, or its text is not a checkpoint of the verifier's log
 */
export function openCheckpoint(note: string, verifier: NoteVerifier): AuditHead | null {
  const text = openNote(note, verifier);
  const lines = text?.split("\n");
  if (!lines || lines.length < 4 || lines[0] !== verifier.name || !/^(0|[1-9][0-9]*)$/.test(lines[1])) return null;
  try {
    const hash = fromBase64(lines[2]);
    return hash.length === 32 ? { size: Number(lines[1]), hash: bytesToHex(hash) } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a log whose rows verify still holds what an earlier checkpoint saw: at least its entries, and at its size
 * the same hash (so nothing up to it was rewritten, even with fresh hashes and signatures).
 */
export function checkAgainstCheckpoint(rows: readonly ChainedAuditRow[], checkpoint: AuditHead): AuditChainReport | null {
  if (checkpoint.size === 0) return null;
  const row = rows[checkpoint.size - 1];
  if (!row) return { ok: false, brokenAt: rows.length + 1, problem: "checkpoint_missing_entries" };
  return row.hash === checkpoint.hash ? null : { ok: false, brokenAt: row.id, problem: "checkpoint_mismatch" };
}
