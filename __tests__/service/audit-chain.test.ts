/**
 * The audit log as a signed hash chain (docs/operators.md: The audit log): every entry the Worker writes follows the
 * one before it and carries the Worker's signature, two operators acting at once do not fork it, a row written around
 * the Worker is refused, and a row changed or removed afterwards is found by audit verify's check
 * (shared/audit-chain.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_CHAIN_GENESIS, type ChainedAuditRow, verifyAuditChain } from "../../shared/audit-chain";
import { PERSON_VIEWED_ACTION, personActionEndpoint, personEndpoint, personExportEndpoint, type PersonAction } from "../../shared/console";
import { hexToBytes } from "@noble/hashes/utils.js";
import { parseVerifierKey, signerFromSecret, verifierKeyOf, verifyBytes } from "../../shared/signed-note";
import { AUDIT_VERIFIER, LOCAL_ORIGIN, postSignup, startWaitlistService, type WaitlistService, welcomeOf } from "./support/service";

let service: WaitlistService;
let addressNumber = 0;

beforeAll(() => {
  service = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { CONSOLE_LOCAL_OPERATOR: "chain-operator@localhost" } });
});

async function signUp(): Promise<string> {
  addressNumber += 1;
  const email = `chain.${addressNumber}.${Date.now()}@example.com`;
  expect((await postSignup(service, { email, firstName: "Rui", lastName: "Moss" })).status).toBe(202);
  return (await welcomeOf(service, email)).id;
}

function act(action: PersonAction, id: string): Promise<Response> {
  return service.fetch(personActionEndpoint(id, action), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ reason: "Checked the signup by hand." }),
  });
}

const chainRows = () => service.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id");

describe("the audit log's hash chain", () => {
  beforeAll(async () => {
    const [ana, ben, cy] = [await signUp(), await signUp(), await signUp()];
    expect((await act("disqualify", ana)).status).toBe(200);
    expect((await act("requalify", ana)).status).toBe(200);
    const exported = await service.fetch(personExportEndpoint(ben), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "Asked for their data" }),
    });
    expect(exported.status).toBe(200);
    // Two operators at once: both entries land, one after the other.
    const both = await Promise.all([act("disqualify", ben), act("disqualify", cy)]);
    expect(both.map((response) => response.status)).toEqual([200, 200]);
  });

  it("chains every entry the Worker writes, two operators acting at once included", async () => {
    const rows = await chainRows();
    expect(rows.length).toBe(5);
    expect(rows[0].prev_hash).toBe(AUDIT_CHAIN_GENESIS);
    expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length);
    expect(await verifyAuditChain(rows, AUDIT_VERIFIER)).toEqual({ ok: true, head: { size: rows[4].id, hash: rows[4].hash } });
  });

  it("signs every entry with the Worker's key, so another key's check fails", async () => {
    const rows = await chainRows();
    expect(rows.every((row) => verifyBytes(hexToBytes(row.hash!), row.signature!, AUDIT_VERIFIER))).toBe(true);
    const other = parseVerifierKey(verifierKeyOf(signerFromSecret("audit-log", "another key of at least 32 characters")));
    expect(await verifyAuditChain(rows, other)).toEqual({ ok: false, brokenAt: 1, problem: "signature_invalid" });
  });

  it("audits ten reads of people at once, each answered, on one unbroken chain", async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => signUp()));
    const before = (await chainRows()).length;
    const reads = await Promise.all(people.map((id) => service.fetch(personEndpoint(id))));
    expect(reads.map((response) => response.status)).toEqual(people.map(() => 200));
    const rows = await chainRows();
    expect(rows.slice(before).map((row) => row.action)).toEqual(people.map(() => PERSON_VIEWED_ACTION));
    expect(await verifyAuditChain(rows, AUDIT_VERIFIER)).toMatchObject({ ok: true });
  });

  it("refuses an entry written around the Worker with its hash but no signature", async () => {
    const rows = await chainRows();
    const last = rows[rows.length - 1];
    await expect(
      service.query(
        "INSERT INTO audit_log (id, at, operator, action, person_id, reason, prev_hash, hash) VALUES (?1, '2026-01-01T00:00:00.000Z', 'x@example.com', 'erase', NULL, 'x', ?2, ?3)",
        last.id + 1,
        last.hash,
        "f".repeat(64),
      ),
    ).rejects.toThrow(/hash chain/);
  });

  it("refuses an entry written around the Worker, without its place in the chain", async () => {
    await expect(
      service.query(
        "INSERT INTO audit_log (at, operator, action, person_id, reason) VALUES ('2026-01-01T00:00:00.000Z', 'x@example.com', 'erase', NULL, 'x')",
      ),
    ).rejects.toThrow(/hash chain/);
  });

  it("a tampered audit row found by audit verify", async () => {
    const rows = await chainRows();
    // Someone with the database in hand drops the append-only trigger and rewrites an entry's reason.
    await service.query("DROP TRIGGER audit_log_append_only_update");
    await service.query("UPDATE audit_log SET reason = 'Nothing to see here.' WHERE id = ?1", rows[2].id);
    expect(await verifyAuditChain(await chainRows(), AUDIT_VERIFIER)).toEqual({
      ok: false,
      brokenAt: rows[2].id,
      problem: "hash_mismatch",
    });

    // Recomputing that row's hash does not help: it is not the hash the Worker signed (and the next row names the old one).
    const forged = await chainRows();
    const { auditRowHash } = await import("../../shared/audit-chain");
    forged[2].hash = await auditRowHash(forged[2].prev_hash!, forged[2]);
    expect(await verifyAuditChain(forged, AUDIT_VERIFIER)).toEqual({ ok: false, brokenAt: rows[2].id, problem: "signature_invalid" });

    // A row removed from the middle leaves a gap.
    expect(
      await verifyAuditChain(
        rows.filter((row) => row.id !== rows[1].id),
        AUDIT_VERIFIER,
      ),
    ).toEqual({
      ok: false,
      brokenAt: rows[1].id,
      problem: "id_gap",
    });
  });
});
