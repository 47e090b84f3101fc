/**
 * `npm run waitlist -- draw commit|run` against a local D1 (migrated with wrangler, rows inserted with d1Query) and a
 * loopback drand relay serving recorded quicknet rounds: who is in the list and with how many entries, the commitment
 * and its audit entry, a second commitment refused, a forged round refused, the winners drawn and checked by
 * `scripts/giveaway/verify.ts`.
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
import { applyMigrations, d1Query, PROJECT_DIR } from "../../scripts/lib/wrangler";
import { roundTimeMs } from "../../shared/giveaway/beacon";
import { listHashOf, pseudonymOf, type DrawFile } from "../../shared/giveaway/draw-file";
import { drawWinners } from "../../shared/giveaway/winners";
import { TEST_CLOCK_VARIABLE } from "../../scripts/giveaway/draw";

/** A recorded quicknet round with its randomness (the source published it). */
const ROUND = vectors.quicknet.rounds.find((round) => round.round === 30662990) as { round: number; randomness: string; signature: string };
const CUTOFF = "2026-01-01T00:00:00.000Z";

let stateDir: string;
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
});

afterAll(async () => {
  await new Promise((resolve) => relay?.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});

const drawFile = () => path.join(stateDir, "giveaway", "draw.json");
const cli = (args: string[], now: string) =>
  run("scripts/service/waitlist.ts", ["draw", ...args, "--persist-to", stateDir, "--file", drawFile(), "--operator", "ops@example.com"], {
    now,
  });

it("refuses to commit while entries are still open", async () => {
  const { code, output } = await cli(["commit", "--draw", "launch", "--winners", "2", "--cutoff", CUTOFF], "2025-12-31T23:00:00Z");
  expect(code).toBe(1);
  expect(output).toMatch(/Entries are open until 2026-01-01T00:00:00.000Z/);
});

it("commits the confirmed, eligible entrants by pseudonym with their entries at the cut-off, and logs it", async () => {
  const { code, output } = await cli(["commit", "--draw", "launch", "--winners", "2", "--cutoff", CUTOFF], COMMIT_NOW);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });

  const text = await readFile(drawFile(), "utf8");
  const file = JSON.parse(text) as DrawFile;
  const expected = [
    { pseudonym: await pseudonymOf("launch", "Ana23456"), entries: 1 + 4 * entriesPerReferral },
    { pseudonym: await pseudonymOf("launch", "Ben23456"), entries: 1 },
    { pseudonym: await pseudonymOf("launch", "Gus23456"), entries: 1 },
    { pseudonym: await pseudonymOf("launch", "Hal23456"), entries: 1 + 2 * entriesPerReferral },
  ].sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : 1));
  // Unconfirmed (cat), disqualified (dan), erased (eve) and confirmed after the cut-off (fay) are not in the list.
  expect(file.entrants).toEqual(expected);
  expect(file).toMatchObject({
    draw: "launch",
    winnerCount: 2,
    cutoff: CUTOFF,
    committedAt: COMMIT_NOW,
    round: ROUND.round,
    chain,
    result: null,
  });
  expect(file.listHash).toBe(await listHashOf(expected));
  expect(text).not.toMatch(/example\.com|Testperson|23456|\bana\b/);

  const log = await d1Query<{ operator: string; action: string; person_id: string | null; before: string | null; after: string }>(
    stateDir,
    "SELECT operator, action, person_id, before, after FROM audit_log",
  );
  expect(log).toHaveLength(1);
  expect(log[0]).toMatchObject({ operator: "ops@example.com", action: "draw_commit", person_id: null, before: null });
  expect(JSON.parse(log[0].after)).toMatchObject({ draw: "launch", listHash: file.listHash, round: ROUND.round, entrants: 4 });
  expect(log[0].after).not.toMatch(/example\.com|Testperson|23456/);
});

it("refuses a second commitment for the same draw, whether its file is there or not", async () => {
  const before = await readFile(drawFile(), "utf8");
  const again = await cli(["commit", "--draw", "launch", "--winners", "3", "--cutoff", CUTOFF], COMMIT_NOW);
  expect(again.code).toBe(1);
  expect(again.output).toMatch(/never replaced/);
  expect(await readFile(drawFile(), "utf8")).toBe(before);

  const elsewhere = path.join(stateDir, "elsewhere.json");
  const moved = await run(
    "scripts/service/waitlist.ts",
    [
      "draw",
      "commit",
      "--draw",
      "launch",
      "--winners",
      "2",
      "--cutoff",
      CUTOFF,
      "--persist-to",
      stateDir,
      "--file",
      elsewhere,
      "--operator",
      "ops@example.com",
    ],
    { now: COMMIT_NOW },
  );
  expect(moved.code).toBe(1);
  expect(moved.output).toMatch(/already committed \(audit_log\)/);
});

it("refuses to draw before the committed round is published", async () => {
  const before = await readFile(drawFile(), "utf8");
  const { code, output } = await cli(["run", "--relay", relayUrl], COMMIT_NOW);
  expect(code).toBe(1);
  expect(output).toMatch(new RegExp(`Round ${ROUND.round} is published at`));
  expect(await readFile(drawFile(), "utf8")).toBe(before);
});

it("refuses a forged round from the relay and draws nothing", async () => {
  const before = await readFile(drawFile(), "utf8");
  const byte = (parseInt(ROUND.signature.slice(10, 12), 16) ^ 1).toString(16).padStart(2, "0");
  served = { ...served, signature: ROUND.signature.slice(0, 10) + byte + ROUND.signature.slice(12) };
  const { code, output } = await cli(["run", "--relay", relayUrl], RUN_NOW);
  served = { round: ROUND.round, randomness: ROUND.randomness, signature: ROUND.signature };
  expect(code).toBe(1);
  expect(output).toMatch(/refused \(randomness, signature does not verify\)/);
  expect(await readFile(drawFile(), "utf8")).toBe(before);
});

it("draws the winners from the committed round, logs it, and the draw verifies", async () => {
  const { code, output } = await cli(["run", "--relay", relayUrl], RUN_NOW);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
  const file = JSON.parse(await readFile(drawFile(), "utf8")) as DrawFile;
  expect(file.result).toEqual({ beacon: served, winners: await drawWinners(ROUND.randomness, file.entrants, 2), drawnAt: RUN_NOW });

  const [entry] = await d1Query<{ action: string; after: string }>(
    stateDir,
    "SELECT action, after FROM audit_log WHERE action = 'draw_run'",
  );
  expect(JSON.parse(entry.after)).toEqual({
    draw: "launch",
    round: ROUND.round,
    randomness: ROUND.randomness,
    winners: file.result!.winners,
  });

  const verified = await run("scripts/giveaway/verify.ts", [drawFile()]);
  expect(verified).toEqual({ code: 0, output: "verified: the list, the round and the winners all match\n" });
});

it("says exactly what does not match in a draw file changed after the fact", async () => {
  const file = JSON.parse(await readFile(drawFile(), "utf8")) as DrawFile;
  file.entrants[0] = { ...file.entrants[0], entries: file.entrants[0].entries + 1 };
  const tampered = path.join(stateDir, "tampered.json");
  await writeFile(tampered, JSON.stringify(file));
  const { code, output } = await run("scripts/giveaway/verify.ts", [tampered]);
  expect(code).toBe(1);
  expect(output).toMatch(/^NOT verified:\n {2}listHash: the list's SHA-256 is [0-9a-f]{64}, the commitment says [0-9a-f]{64}\n/);

  await copyFile(drawFile(), tampered);
  const again = await cli(["run", "--relay", relayUrl], RUN_NOW);
  expect(again.code).toBe(1);
  expect(again.output).toMatch(/already drawn/);
});

it("an operator cannot set the draw's clock to commit to a round already published", async () => {
  const file = path.join(stateDir, "clock.json");
  const args = ["draw", "commit", "--draw", "clock", "--winners", "1", "--cutoff", CUTOFF, "--persist-to", stateDir, "--file", file];
  const before = Date.now();
  const { code, output } = await run("scripts/service/waitlist.ts", [...args, "--operator", "ops@example.com"], {
    now: COMMIT_NOW,
    nodeEnv: "production",
  });
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
  const committed = JSON.parse(await readFile(file, "utf8")) as DrawFile;
  // The machine's clock, not the one asked for: the round is still to come.
  expect(Date.parse(committed.committedAt)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(committed.roundAt)).toBeGreaterThan(Date.now());

  const help = await run("scripts/service/waitlist.ts", ["--help"]);
  expect(help.output).not.toMatch(/--now|WAITLIST_TEST_NOW/);
});
