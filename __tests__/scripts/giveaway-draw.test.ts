/**
 * `npm run waitlist -- draw commit|run` and `audit verify` against a running service (`wrangler dev` with its local
 * operator, over a local D1 migrated with wrangler and rows inserted with d1Query) and a loopback drand relay serving
 * recorded quicknet rounds: who is in the list and with how many entries, the commitment and its audit entry written by
 * the Worker, a second commitment refused, a forged round refused, the winners drawn, logged through the console API
 * and checked by `scripts/giveaway/verify.ts`, and the audit log's chain checked and found broken once tampered with.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import vectors from "../fixtures/giveaway/drand-vectors.json";
import { entrantRow, type RowValue } from "../fixtures/giveaway/entrant-row";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { loadContentFile } from "../../src/content/load";
import { applyMigrations, d1Query, PROJECT_DIR, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";
import { AUDIT_CHAIN_GENESIS, auditRowHash } from "../../shared/audit-chain";
import { roundTimeMs } from "../../shared/giveaway/beacon";
import { commitAudit, commitmentOf, drawText } from "../../shared/giveaway/commit";
import { listHashOf, pseudonymOf, type DrawFile } from "../../shared/giveaway/draw-file";
import { drawWinners } from "../../shared/giveaway/winners";
import { TEST_CLOCK_VARIABLE } from "../../scripts/giveaway/draw";

/** A recorded quicknet round with its randomness (the source published it). */
const ROUND = vectors.quicknet.rounds.find((round) => round.round === 30662990) as { round: number; randomness: string; signature: string };
const CUTOFF = "2026-01-01T00:00:00.000Z";

/** The service tests' build: a service-settings.json naming the content's drand chain. */
const ASSETS_DIR = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public");
const OPERATOR = "draw-operator@localhost";

let stateDir: string;
let service: WranglerDev;
let relay: Server;
let relayUrl: string;
/** What the relay stand-in serves for the committed round (a test may forge it). */
let served: { round: number; randomness: string; signature: string };

/**
 * Run the CLI (or another script) to its end; its exit code and output. `clock` is the time it takes as now (the
 * recorded rounds are in the past), through the test clock, which only NODE_ENV=test honours.
 */
function run(script: string, args: string[], clock?: { now: string; nodeEnv?: string }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"), [script, ...args], {
      cwd: PROJECT_DIR,
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        ...(clock ? { [TEST_CLOCK_VARIABLE]: clock.now, NODE_ENV: clock.nodeEnv ?? "test" } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

const content = loadContentFile(DEFAULT_CONTENT_FILE);
if (!content.ok) throw new Error("content/site.yaml is not valid");
const { chain } = content.content.draw;
const { entriesPerReferral } = content.content.referrals;
/** The clock the commitment reads: an hour before the recorded round, so the default delay names that round. */
const COMMIT_NOW = new Date(roundTimeMs(chain, ROUND.round) - 60 * 60_000).toISOString();
const RUN_NOW = new Date(roundTimeMs(chain, ROUND.round) + 60_000).toISOString();

/** The SQL that stores one person of the draw (entrant-row.ts). */
function signup(seq: number, name: string, code: string, fields: Record<string, RowValue>): string {
  const values = entrantRow(seq, name, code, fields);
  const sql = (value: RowValue) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${value}'`);
  return `INSERT INTO signups (${Object.keys(values).join(", ")}) VALUES (${Object.values(values).map(sql).join(", ")})`;
}

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "giveaway-draw-"));
  await applyMigrations(stateDir);
  await d1Query(
    stateDir,
    [
      // 4 referrals credited by the cut-off (gus's, after it, does not count): 1 + 4 × entriesPerReferral entries.
      signup(1, "ana", "Ana23456", { confirmed_at: "2025-12-01T00:00:00.000Z", referrals: 5 }),
      signup(2, "ben", "Ben23456", { confirmed_at: "2025-12-02T00:00:00.000Z" }),
      signup(3, "cat", "Cat23456", {}), // never confirmed
      signup(4, "dan", "Dan23456", { confirmed_at: "2025-12-03T00:00:00.000Z", disqualified_at: "2025-12-20T00:00:00.000Z" }),
      signup(5, "eve", "Eve23456", { confirmed_at: "2025-12-04T00:00:00.000Z" }),
      signup(6, "fay", "Fay23456", { confirmed_at: "2026-02-01T00:00:00.000Z" }), // confirmed after the cut-off
      signup(7, "gus", "Gus23456", {
        confirmed_at: "2025-12-15T00:00:00.000Z",
        referred_by: "id-ana",
        referral_counted_at: "2026-03-01T00:00:00.000Z",
      }),
      signup(8, "hal", "Hal23456", { confirmed_at: "2025-12-05T00:00:00.000Z", referrals: 2 }),
      "DELETE FROM signups WHERE id = 'id-eve'", // erased
    ].join(";\n"),
  );
  served = { round: ROUND.round, randomness: ROUND.randomness, signature: ROUND.signature };
  relay = createServer((request, response) => {
    const match = /^\/([0-9a-f]{64})\/public\/(\d+)$/.exec(request.url ?? "");
    if (!match || match[1] !== chain.hash || Number(match[2]) !== served.round) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(served));
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  service = await startWranglerDev({
    assetsDir: ASSETS_DIR,
    persistTo: stateDir,
    vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", CONSOLE_LOCAL_OPERATOR: OPERATOR },
  });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => relay?.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});

const launchFile = () => path.join(stateDir, "giveaway", "draw.json");
/** A draw committed when ROUND was still to come (seeded below: the Worker commits only to future rounds). */
const recordedFile = () => path.join(stateDir, "giveaway", "recorded.json");
const cli = (args: string[], now: string, file = launchFile()) =>
  run("scripts/service/waitlist.ts", ["draw", ...args, "--origin", service.origin, "--file", file], { now });

/** The entrants of the seeded rows at CUTOFF by referral code (the commitment test checks the Worker agrees). */
const ELIGIBLE = [
  { referralCode: "Ana23456", entries: 1 + 4 * entriesPerReferral },
  { referralCode: "Ben23456", entries: 1 },
  { referralCode: "Gus23456", entries: 1 },
  { referralCode: "Hal23456", entries: 1 + 2 * entriesPerReferral },
];

const sqlText = (value: string | null) => (value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`);

/**
 * A commitment made at COMMIT_NOW to ROUND, as the Worker would have made it then: its file, and its audit entry
 * appended to the chain (`logged: false` leaves the log without it).
 */
async function seedCommitment(draw: string, file: string, { logged = true } = {}): Promise<DrawFile> {
  const committed = await commitmentOf({ draw, winners: 2, cutoff: CUTOFF, delayMinutes: 60 }, chain, ELIGIBLE, Date.parse(COMMIT_NOW));
  await writeFile(file, drawText(committed));
  if (!logged) return committed;
  const [last] = await d1Query<{ id: number; hash: string | null }>(stateDir, "SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1");
  const { action, reason, after } = commitAudit(committed);
  const row = {
    id: (last?.id ?? 0) + 1,
    at: COMMIT_NOW,
    operator: OPERATOR,
    action,
    person_id: null,
    reason,
    before: null,
    after: JSON.stringify(after),
  };
  const prev = last?.hash ?? AUDIT_CHAIN_GENESIS;
  const values = [
    String(row.id),
    sqlText(row.at),
    sqlText(row.operator),
    sqlText(action),
    "NULL",
    sqlText(reason),
    "NULL",
    sqlText(row.after),
  ];
  await d1Query(
    stateDir,
    `INSERT INTO audit_log (id, at, operator, action, person_id, reason, before, after, prev_hash, hash) VALUES (${values.join(", ")}, ` +
      `${sqlText(prev)}, ${sqlText(await auditRowHash(prev, row))})`,
  );
  return committed;
}

it("refuses to commit while entries are still open", async () => {
  const { code, output } = await cli(["commit", "--draw", "launch", "--winners", "2", "--cutoff", "2099-01-01T00:00:00Z"], RUN_NOW);
  expect(code).toBe(1);
  expect(output).toMatch(/Entries are open until 2099-01-01T00:00:00.000Z/);
});

it("commits the confirmed, eligible entrants by pseudonym with their entries at the cut-off, logged by the Worker", async () => {
  const before = Date.now();
  const { code, output } = await cli(["commit", "--draw", "launch", "--winners", "2", "--cutoff", CUTOFF], COMMIT_NOW);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });

  const text = await readFile(launchFile(), "utf8");
  const file = JSON.parse(text) as DrawFile;
  const expected = (
    await Promise.all(
      ELIGIBLE.map(async ({ referralCode, entries }) => ({ pseudonym: await pseudonymOf("launch", referralCode), entries })),
    )
  ).sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : 1));
  // Unconfirmed (cat), disqualified (dan), erased (eve) and confirmed after the cut-off (fay) are not in the list.
  expect(file.entrants).toEqual(expected);
  expect(file).toMatchObject({ draw: "launch", winnerCount: 2, cutoff: CUTOFF, chain, result: null });
  // The Worker's clock, not the command line's test clock: the round is still to come.
  expect(Date.parse(file.committedAt)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(file.roundAt)).toBeGreaterThan(Date.now());
  expect(file.listHash).toBe(await listHashOf(expected));
  expect(text).not.toMatch(/example\.com|Testperson|23456|\bana\b/);

  const log = await d1Query<{
    operator: string;
    action: string;
    person_id: string | null;
    before: string | null;
    after: string;
    hash: string;
  }>(stateDir, "SELECT operator, action, person_id, before, after, hash FROM audit_log");
  expect(log).toHaveLength(1);
  expect(log[0]).toMatchObject({ operator: OPERATOR, action: "draw_commit", person_id: null, before: null });
  expect(log[0].hash).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.parse(log[0].after)).toMatchObject({ draw: "launch", listHash: file.listHash, round: file.round, entrants: 4 });
  expect(log[0].after).not.toMatch(/example\.com|Testperson|23456/);
});

it("refuses a second commitment for the same draw, whether its file is there or not", async () => {
  const before = await readFile(launchFile(), "utf8");
  const again = await cli(["commit", "--draw", "launch", "--winners", "3", "--cutoff", CUTOFF], COMMIT_NOW);
  expect(again.code).toBe(1);
  expect(again.output).toMatch(/never replaced/);
  expect(await readFile(launchFile(), "utf8")).toBe(before);

  const moved = await cli(
    ["commit", "--draw", "launch", "--winners", "2", "--cutoff", CUTOFF],
    COMMIT_NOW,
    path.join(stateDir, "elsewhere.json"),
  );
  expect(moved.code).toBe(1);
  expect(moved.output).toMatch(/409 already_committed: Draw launch is already committed/);
});

describe("a draw committed before its round", () => {
  beforeAll(async () => {
    await seedCommitment("recorded", recordedFile());
  });

  it("refuses to draw before the committed round is published", async () => {
    const before = await readFile(recordedFile(), "utf8");
    const { code, output } = await cli(["run", "--relay", relayUrl], COMMIT_NOW, recordedFile());
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`Round ${ROUND.round} is published at`));
    expect(await readFile(recordedFile(), "utf8")).toBe(before);
  });

  it("refuses a forged round from the relay and draws nothing", async () => {
    const before = await readFile(recordedFile(), "utf8");
    const byte = (parseInt(ROUND.signature.slice(10, 12), 16) ^ 1).toString(16).padStart(2, "0");
    served = { ...served, signature: ROUND.signature.slice(0, 10) + byte + ROUND.signature.slice(12) };
    const { code, output } = await cli(["run", "--relay", relayUrl], RUN_NOW, recordedFile());
    served = { round: ROUND.round, randomness: ROUND.randomness, signature: ROUND.signature };
    expect(code).toBe(1);
    expect(output).toMatch(/refused \(randomness, signature does not verify\)/);
    expect(await readFile(recordedFile(), "utf8")).toBe(before);
  });

  it("refuses to log a draw whose commitment the audit log does not hold", async () => {
    const unlogged = path.join(stateDir, "giveaway", "unlogged.json");
    await seedCommitment("unlogged", unlogged, { logged: false });
    const { code, output } = await cli(["run", "--relay", relayUrl], RUN_NOW, unlogged);
    expect(code).toBe(1);
    expect(output).toMatch(/409 draw_not_committed/);
    expect((JSON.parse(await readFile(unlogged, "utf8")) as DrawFile).result).toBeNull();
  });

  it("draws the winners from the committed round, logs it through the Worker, and the draw verifies", async () => {
    const { code, output } = await cli(["run", "--relay", relayUrl], RUN_NOW, recordedFile());
    expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
    const file = JSON.parse(await readFile(recordedFile(), "utf8")) as DrawFile;
    expect(file.result).toEqual({ beacon: served, winners: await drawWinners(ROUND.randomness, file.entrants, 2), drawnAt: RUN_NOW });

    const [entry] = await d1Query<{ operator: string; after: string }>(
      stateDir,
      "SELECT operator, after FROM audit_log WHERE action = 'draw_run'",
    );
    expect(entry.operator).toBe(OPERATOR);
    expect(JSON.parse(entry.after)).toEqual({
      draw: "recorded",
      round: ROUND.round,
      randomness: ROUND.randomness,
      winners: file.result!.winners,
    });

    const verified = await run("scripts/giveaway/verify.ts", [recordedFile()]);
    expect(verified).toEqual({ code: 0, output: "verified: the list, the round and the winners all match\n" });
  });

  it("says exactly what does not match in a draw file changed after the fact", async () => {
    const file = JSON.parse(await readFile(recordedFile(), "utf8")) as DrawFile;
    file.entrants[0] = { ...file.entrants[0], entries: file.entrants[0].entries + 1 };
    const tampered = path.join(stateDir, "tampered.json");
    await writeFile(tampered, JSON.stringify(file));
    const { code, output } = await run("scripts/giveaway/verify.ts", [tampered]);
    expect(code).toBe(1);
    expect(output).toMatch(/^NOT verified:\n {2}listHash: the list's SHA-256 is [0-9a-f]{64}, the commitment says [0-9a-f]{64}\n/);

    await copyFile(recordedFile(), tampered);
    const again = await cli(["run", "--relay", relayUrl], RUN_NOW, tampered);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already drawn/);
  });
});

it("the command line's clock never reaches a commitment", async () => {
  const file = path.join(stateDir, "clock.json");
  const before = Date.now();
  const { code, output } = await run(
    "scripts/service/waitlist.ts",
    ["draw", "commit", "--draw", "clock", "--winners", "1", "--cutoff", CUTOFF, "--origin", service.origin, "--file", file],
    { now: COMMIT_NOW, nodeEnv: "test" },
  );
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
  const committed = JSON.parse(await readFile(file, "utf8")) as DrawFile;
  expect(Date.parse(committed.committedAt)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(committed.roundAt)).toBeGreaterThan(Date.now());

  const help = await run("scripts/service/waitlist.ts", ["--help"]);
  expect(help.output).not.toMatch(/--now|WAITLIST_TEST_NOW/);
});

describe("audit verify", () => {
  const verify = () => run("scripts/service/waitlist.ts", ["audit", "verify", "--persist-to", stateDir]);

  it("finds the chain of every entry written so far unbroken", async () => {
    const [{ n }] = await d1Query<{ n: number }>(stateDir, "SELECT count(*) AS n FROM audit_log");
    const { code, output } = await verify();
    expect({ code, output }).toMatchObject({
      code: 0,
      output: expect.stringContaining(`The audit log's ${n} chained entries verify`) as string,
    });
  });

  it("a tampered audit row found by audit verify", async () => {
    const [first] = await d1Query<{ id: number }>(stateDir, "SELECT id FROM audit_log WHERE action = 'draw_commit' ORDER BY id LIMIT 1");
    // Someone with the database in hand drops the append-only trigger and rewrites an entry.
    await d1Query(
      stateDir,
      `DROP TRIGGER audit_log_append_only_update; UPDATE audit_log SET operator = 'someone-else@example.com' WHERE id = ${first.id}`,
    );
    const { code, output } = await verify();
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`broken at entry ${first.id}: its fields do not give its hash`));
  });
});
