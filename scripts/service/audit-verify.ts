/**
 * `npm run waitlist -- audit verify`: read every audit_log row straight from D1 (not through the Worker, whose log it
 * checks), check the hash chain and each entry's signature with the log's verifier key, and, given a checkpoint saved
 * earlier, that the log still holds it (shared/audit-chain.ts). docs/operators.md: The audit log.
 */
import { readFile } from "node:fs/promises";
import {
  type AuditChainProblem,
  checkAgainstCheckpoint,
  type ChainedAuditRow,
  openCheckpoint,
  verifyAuditChain,
} from "../../shared/audit-chain";
import { type NoteVerifier, parseVerifierKey } from "../../shared/signed-note";
import { TRANSPARENCY_PATHS, type TransparencyReport } from "../../shared/transparency";
import { d1Query, type D1Target } from "../lib/wrangler";

/** What each break means, for the operator. */
export const CHAIN_PROBLEMS: Record<AuditChainProblem, string> = {
  hash_missing: "it has no hash or no signature (written around the Worker, or its link removed).",
  prev_hash_mismatch: "it does not follow the entry before it (that one was changed, or one was removed or inserted).",
  hash_mismatch: "its fields do not give its hash (it was changed after it was written).",
  signature_invalid: "its signature is not the Worker's (written or rewritten without the audit signing key).",
  id_gap: "it is missing (removed), or the entries after it were renumbered.",
  checkpoint_missing_entries: "the checkpoint saw it, and the log no longer has it (entries were removed from the end).",
  checkpoint_mismatch: "it is not the entry the checkpoint saw (the log was rewritten up to it).",
};

/**
 * The verifier key: `--key` as given, else the one the site publishes in its transparency report.
 * @param siteOrigin where the report is read when no key is given
 * @throws Error when neither gives a key
 */
async function verifierOf(key: string | undefined, siteOrigin: string): Promise<{ verifier: NoteVerifier; published: boolean }> {
  if (key) return { verifier: parseVerifierKey(key), published: false };
  const url = new URL(TRANSPARENCY_PATHS.report, siteOrigin);
  const response = await fetch(url).catch(() => null);
  if (!response?.ok) {
    throw new Error(
      `audit verify needs the log's verifier key: give --key KEY (the transparency page shows it), or start the service so ${url} answers.`,
    );
  }
  const report = (await response.json()) as TransparencyReport;
  return { verifier: parseVerifierKey(report.auditLog.verifierKey), published: true };
}

/**
 * Check the audit log and print what was found.
 * @returns 0 when the chain, every signature and the checkpoint (if any) hold; 1 naming the first broken entry
 * @throws Error for a key or checkpoint that cannot be read, or a checkpoint not signed by the key
 */
export async function auditVerify(where: D1Target, options: { key?: string; checkpoint?: string; siteOrigin: string }): Promise<number> {
  const { verifier, published } = await verifierOf(options.key, options.siteOrigin);
  let checkpoint = null;
  if (options.checkpoint) {
    checkpoint = openCheckpoint(await readFile(options.checkpoint, "utf8"), verifier);
    if (!checkpoint) throw new Error(`${options.checkpoint} is not a checkpoint of ${verifier.name} signed by that key.`);
  }
  const rows = await d1Query<ChainedAuditRow>(where, "SELECT * FROM audit_log ORDER BY id");
  const report = await verifyAuditChain(rows, verifier);
  const broken = !report.ok ? report : checkpoint ? checkAgainstCheckpoint(rows, checkpoint) : null;
  if (broken && !broken.ok) {
    console.error(`The audit log is broken at entry ${broken.brokenAt}: ${CHAIN_PROBLEMS[broken.problem]}`);
    return 1;
  }
  if (!report.ok) return 1;
  const key = published ? `the key the site publishes (${verifier.name}; compare it with the one you saved)` : "the key given";
  const entries = (count: number) => `${count} ${count === 1 ? "entry" : "entries"}`;
  console.log(
    `The audit log's ${entries(report.head.size)} ${report.head.size === 1 ? "is" : "are"} chained and signed by ${key}. ` +
      (checkpoint ? `It still holds the checkpoint's ${entries(checkpoint.size)} unchanged. ` : "") +
      `Its head is entry ${report.head.size}, SHA-256 ${report.head.hash}.`,
  );
  return 0;
}
