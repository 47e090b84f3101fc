/**
 * `npm run waitlist -- audit verify` against a local D1 as someone holding the database would leave it: every entry
 * chained and signed by the Worker's key passes and names its head; each way of rewriting the log without that key
 * (a changed entry, fresh hashes, a forged entry, every link set to NULL, a removed tail against a saved checkpoint)
 * is refused at the first entry it broke.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { hexToBytes } from "@noble/hashes/utils.js";
import { applyMigrations, d1Query, PROJECT_DIR } from "../../scripts/lib/wrangler";
import { AUDIT_CHAIN_GENESIS, auditRowHash, checkpointText } from "../../shared/audit-chain";
import { signBytes, signerFromSecret, signNote, verifierKeyOf } from "../../shared/signed-note";

const ORIGIN = "www.example.com/audit-log";
/** The Worker's key (AUDIT_SIGNING_KEY), and a key someone holding only the database could make. */
const WORKER_KEY = signerFromSecret(ORIGIN, "9f3b7d1e5a2c8064f1d9b3e7a5c2086d");
const OTHER_KEY = signerFromSecret(ORIGIN, "an attacker's own key, not the worker's");
const VERIFIER_KEY = verifierKeyOf(WORKER_KEY);

let directory: string;
/** A migrated, empty database every case copies. */
let blank: string;

/** Run audit verify on a state directory; its exit code and output. */
function verify(stateDir: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"),
      ["scripts/service/waitlist.ts", "audit", "verify", "--persist-to", stateDir, "--key", VERIFIER_KEY, ...args],
      { cwd: PROJECT_DIR, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** SQL text of a value (the rows below are the test's own, no input from outside). */
const sql = (value: string | null) => (value === null ? "NULL" : `'${value.replaceAll("'", "''")}'`);

/**
 * INSERTs of `count` entries as the Worker appends them (worker/src/console/audit-log.ts), signed by `signer`, and the
 * head they leave.
 */
async function entries(count: number, signer = WORKER_KEY) {
  const statements: string[] = [];
  let prevHash = AUDIT_CHAIN_GENESIS;
  for (let id = 1; id <= count; id++) {
    const row = {
      id,
      at: `2026-12-0${id}T00:00:00.000Z`,
      operator: "ops@example.com",
      action: "invite_batch",
      person_id: null,
      reason: `Wave ${id}`,
      before: null,
      after: JSON.stringify({ batch_id: `batch-${id}`, requested: 10 }),
    };
    const hash = await auditRowHash(prevHash, row);
    const signature = signBytes(hexToBytes(hash), signer);
    statements.push(
      "INSERT INTO audit_log (id, at, operator, action, person_id, reason, before, after, prev_hash, hash, signature) VALUES " +
        `(${id}, ${sql(row.at)}, ${sql(row.operator)}, ${sql(row.action)}, NULL, ${sql(row.reason)}, NULL, ${sql(row.after)}, ` +
        `${sql(prevHash)}, ${sql(hash)}, ${sql(signature)})`,
    );
    prevHash = hash;
  }
  return { statements, head: { size: count, hash: prevHash } };
}

/** A copy of the blank database with `sql` run in it. */
async function databaseWith(name: string, statements: string[]): Promise<string> {
  const stateDir = path.join(directory, name);
  await cp(blank, stateDir, { recursive: true });
  await d1Query(stateDir, statements.join(";\n"));
  return stateDir;
}

/** The same as someone holding the database would do it: the append-only and chain triggers dropped first. */
const UNGUARDED = [
  "DROP TRIGGER audit_log_append_only_update",
  "DROP TRIGGER audit_log_append_only_delete",
  "DROP TRIGGER audit_log_chained",
];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "audit-verify-"));
  blank = path.join(directory, "blank");
  await applyMigrations(blank);
}, 240_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

it("finds every entry chained and signed by the Worker's key, and names its head", async () => {
  const { statements, head } = await entries(3);
  const { code, output } = await verify(await databaseWith("intact", statements));
  expect(code).toBe(0);
  expect(output).toContain(`The audit log's 3 entries are chained and signed by the key given. Its head is entry 3, SHA-256 ${head.hash}.`);
});

it("a tampered audit row found by audit verify", async () => {
  const { statements } = await entries(3);
  const stateDir = await databaseWith("tampered", [
    ...statements,
    ...UNGUARDED,
    "UPDATE audit_log SET operator = 'someone-else@example.com' WHERE id = 2",
  ]);
  const { code, output } = await verify(stateDir);
  expect(code).toBe(1);
  expect(output).toMatch(/broken at entry 2: its fields do not give its hash/);
});

it("a rewrite with fresh hashes is refused: the rewriter cannot sign them", async () => {
  // The whole log rewritten and chained again, signed with a key of the rewriter's own.
  const { statements } = await entries(3, OTHER_KEY);
  const { code, output } = await verify(await databaseWith("fresh-hashes", statements));
  expect(code).toBe(1);
  expect(output).toMatch(/broken at entry 1: its signature is not the Worker's/);
});

it("a forged row appended after the Worker's is refused", async () => {
  const { statements } = await entries(3);
  const forged = await entries(4, OTHER_KEY);
  const stateDir = await databaseWith("forged", [...statements, ...UNGUARDED, forged.statements[3]]);
  const { code, output } = await verify(stateDir);
  expect(code).toBe(1);
  expect(output).toMatch(/broken at entry 4: .*(does not follow|signature is not the Worker's)/);
});

it("a log whose hashes were all set to NULL is refused, not counted as written before the chain", async () => {
  const { statements } = await entries(3);
  const stateDir = await databaseWith("nulls", [
    ...statements,
    ...UNGUARDED,
    "UPDATE audit_log SET prev_hash = NULL, hash = NULL, signature = NULL",
  ]);
  const { code, output } = await verify(stateDir);
  expect(code).toBe(1);
  expect(output).toMatch(/broken at entry 1: it has no hash or no signature/);
});

it("a deleted tail found against a checkpoint saved earlier", async () => {
  const { statements, head } = await entries(3);
  const checkpoint = path.join(directory, "checkpoint-3.txt");
  await writeFile(checkpoint, signNote(checkpointText(ORIGIN, head), WORKER_KEY));
  const stateDir = await databaseWith("deleted-tail", [...statements, ...UNGUARDED, "DELETE FROM audit_log WHERE id = 3"]);
  // Without the checkpoint the shorter log is a log of two entries; with it, the removal shows.
  expect((await verify(stateDir)).code).toBe(0);
  const { code, output } = await verify(stateDir, "--checkpoint", checkpoint);
  expect(code).toBe(1);
  expect(output).toMatch(/broken at entry 3: the checkpoint saw it, and the log no longer has it/);
});

it("holds a log that grew after the checkpoint, and refuses a checkpoint another key signed", async () => {
  const three = await entries(3);
  const five = await entries(5);
  const stateDir = await databaseWith("grown", five.statements);
  const saved = path.join(directory, "checkpoint-grown.txt");
  await writeFile(saved, signNote(checkpointText(ORIGIN, three.head), WORKER_KEY));
  const held = await verify(stateDir, "--checkpoint", saved);
  expect(held.code).toBe(0);
  expect(held.output).toContain("It still holds the checkpoint's 3 entries unchanged.");

  const foreign = path.join(directory, "checkpoint-foreign.txt");
  await writeFile(foreign, signNote(checkpointText(ORIGIN, three.head), OTHER_KEY));
  const refused = await verify(stateDir, "--checkpoint", foreign);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain(`${foreign} is not a checkpoint of ${ORIGIN} signed by that key.`);
});
