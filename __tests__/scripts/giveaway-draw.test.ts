/**
 * `npm run waitlist -- draw commit|run` and `scripts/giveaway/verify.ts` as an operator and anyone run them: the draw
 * commands only call the console's API (a loopback stand-in here records what they send; the Worker's own checks are
 * __tests__/service/console-draw.test.ts), so a local database cannot commit anything; the verifier streams a format
 * 2 list from a file or its URL (with Range requests), checks it against the rules the content publishes, checks one
 * ticket's place, and still verifies format 1 files.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Commitment, DrawState } from "../../shared/api/draw";
import { QUICKNET } from "../../shared/giveaway/chains";
import { DRAW_COMMIT_ENDPOINT, DRAW_STATE_ENDPOINT } from "../../shared/giveaway/commit";
import { LINE_BYTES } from "../../shared/giveaway/list";
import { applyMigrations, d1Query, PROJECT_DIR } from "../../scripts/lib/wrangler";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../shared/service-settings";
import { GOLDEN_RULES, goldenTicket } from "../fixtures/giveaway/format2";

const FIXTURES = path.join(PROJECT_DIR, "__tests__", "fixtures", "giveaway");
const DRAW_2 = path.join(FIXTURES, "draw-2.json");
const LIST_2 = path.join(FIXTURES, "entrants-2.txt");

let directory: string;
/** A service-settings.json with the golden draw's rules: what a site that published them serves. */
let goldenSettings: string;
/** The test build's service-settings.json: a site that published other rules (draw `launch`). */
const OTHER_SETTINGS = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public", "service-settings.json");
let server: Server;
let origin: string;
const received: { method: string; url: string; body: string }[] = [];

/** Run a script to its end; its exit code and output. */
function run(script: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"), [script, ...args], {
      cwd: PROJECT_DIR,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** The verifier on the golden files, checking one ticket's place. */
const verifyTicket = (ticket: string) => run("scripts/giveaway/verify.ts", [DRAW_2, "--list", LIST_2, "--ticket", ticket]);

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => resolve(body));
  });

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "giveaway-draw-"));
  const other = JSON.parse(await readFile(OTHER_SETTINGS, "utf8")) as ServiceSettings;
  goldenSettings = path.join(directory, "service-settings.json");
  await writeFile(goldenSettings, JSON.stringify({ ...other, draw: { ...other.draw, ...GOLDEN_RULES, chain: QUICKNET } }));
  const commitment = JSON.parse(await readFile(DRAW_2, "utf8")) as Commitment;
  const list = await readFile(LIST_2);
  // The console API and the published files, as the Worker answers them.
  let polls = 0;
  server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      received.push({ method: request.method ?? "", url: request.url ?? "", body });
      const state = (job: DrawState["job"]): DrawState => ({
        rules: {
          draw: "launch",
          cutoff: "2026-12-01T00:00:00.000Z",
          winners: 3,
          roundDelayHours: 24,
          round: 1,
          roundAt: "2026-12-02T00:00:00.000Z",
        },
        job,
      });
      const building = { operator: "ops@example.com", requestedAt: "2026-12-01T01:00:00.000Z", failure: null, commitment: null };
      if (request.url === DRAW_COMMIT_ENDPOINT) {
        response
          .writeHead(202, { "content-type": "application/json" })
          .end(JSON.stringify(state({ ...building, state: "listing", eligible: 0, written: 0 })));
      } else if (request.url === DRAW_STATE_ENDPOINT) {
        polls += 1;
        const job =
          polls < 2
            ? { ...building, state: "writing" as const, eligible: 37, written: 16 }
            : { ...building, state: "published" as const, eligible: 37, written: 37, commitment: { ...commitment, result: null } };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(state(job)));
      } else if (request.url === commitment.listUrl) {
        const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? "");
        if (!range) response.writeHead(200, { "content-type": "text/plain" }).end(list);
        else {
          const [from, to] = [Number(range[1]), Math.min(Number(range[2]), list.length - 1)];
          response.writeHead(206, { "content-range": `bytes ${from}-${to}/${list.length}` }).end(list.subarray(from, to + 1));
        }
      } else if (request.url === "/giveaway/draw/golden/draw.json") {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(commitment));
      } else if (request.url === SERVICE_SETTINGS_PATH) {
        void readFile(goldenSettings).then((settings) => response.writeHead(200, { "content-type": "application/json" }).end(settings));
      } else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

it("commits through the console's API with the rules the content publishes, and reports the job until published", async () => {
  const { code, output } = await run("scripts/service/waitlist.ts", ["draw", "commit", "--origin", origin]);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
  expect(received[0]).toEqual({
    method: "POST",
    url: DRAW_COMMIT_ENDPOINT,
    body: JSON.stringify({ draw: "launch", cutoff: "2026-12-01T00:00:00Z", winners: 3 }),
  });
  expect(received.slice(1).every(({ method, url }) => method === "GET" && url === DRAW_STATE_ENDPOINT)).toBe(true);
  expect(output).toMatch(/writing: 37 eligible read, 16 lines written/);
  expect(output).toMatch(/Committed draw golden: 37 entrants/);
});

it("refuses a commit from a local D1 against production's rules: nothing but the service commits", async () => {
  const stateDir = path.join(directory, "state");
  await applyMigrations(stateDir);
  // No service listens here: the command has no other way to commit, and the local database stays untouched.
  const closed = `http://127.0.0.1:9`;
  const { code, output } = await run("scripts/service/waitlist.ts", ["draw", "commit", "--persist-to", stateDir, "--origin", closed]);
  expect(code).toBe(1);
  expect(output).toMatch(/Cannot reach the console API/);
  const [{ n }] = await d1Query<{ n: number }>(stateDir, "SELECT (SELECT count(*) FROM draws) + (SELECT count(*) FROM audit_log) AS n");
  expect(n).toBe(0);
  const help = await run("scripts/service/waitlist.ts", ["--help"]);
  expect(help.output).not.toMatch(/--now|WAITLIST_TEST_NOW|--operator|--delay-minutes/);
}, 120_000);

it("verifies a format 2 draw from its files against the rules it names and drand's quicknet key, and one ticket's place", async () => {
  const { code, output } = await verifyTicket(goldenTicket(12));
  expect(code).toBe(0);
  expect(output).toMatch(
    /^verified: the list, the rules, the round and the winners all match\nIn the draw: line \d+, "[0-9a-f]{16} 000003", audit path of 6 hashes/,
  );
});

it("verifies a format 2 draw from its URL, streaming the list and reading blocks back by Range", async () => {
  const { code, output } = await run("scripts/giveaway/verify.ts", [`${origin}/giveaway/draw/golden/draw.json`]);
  expect({ code, output }).toEqual({ code: 0, output: "verified: the list, the rules, the round and the winners all match\n" });
  // Against the rules that site published (its service-settings.json), not this checkout's content.
  expect(received.some((request) => request.url === SERVICE_SETTINGS_PATH)).toBe(true);
});

it("the verify script reads the rules the site published, never the checkout's content", async () => {
  // The documented command on the project's own golden files, whatever content/site.yaml says today.
  expect((await run("scripts/giveaway/verify.ts", [DRAW_2, "--list", LIST_2])).code).toBe(0);
  expect((await run("scripts/giveaway/verify.ts", [DRAW_2, "--list", LIST_2, "--settings", goldenSettings])).code).toBe(0);
  const source = await readFile(path.join(PROJECT_DIR, "scripts", "giveaway", "verify.ts"), "utf8");
  expect(source).not.toMatch(/content\/load|site\.yaml|--content/);
});

it("refuses a draw that names a chain drand does not publish, unless a site's settings name it", async () => {
  const forged = JSON.parse(await readFile(DRAW_2, "utf8")) as Commitment;
  forged.chain = { ...forged.chain, hash: "0".repeat(64), publicKey: "a".repeat(192) };
  const file = path.join(directory, "forged-chain.json");
  await writeFile(file, JSON.stringify(forged));
  const { code, output } = await run("scripts/giveaway/verify.ts", [file, "--list", LIST_2]);
  expect(code).toBe(1);
  expect(output).toMatch(/^NOT verified:\n {2}chain: the draw names a drand chain \(0{64}\) that drand does not publish/);
});

it("documents every option in --help", async () => {
  const { code, output } = await run("scripts/giveaway/verify.ts", ["--help"]);
  expect(code).toBe(0);
  for (const option of ["--list FILE|URL", "--ticket TICKET", "--settings FILE|URL", "--help"]) expect(output).toContain(option);
});

it("says what does not match: a tampered line, the site's other rules, a ticket not in the draw", async () => {
  const tampered = Buffer.from(await readFile(LIST_2));
  tampered[LINE_BYTES * 3 + 22] = tampered[LINE_BYTES * 3 + 22] === 0x31 ? 0x32 : 0x31;
  const list = path.join(directory, "tampered.txt");
  await writeFile(list, tampered);
  const changed = await run("scripts/giveaway/verify.ts", [DRAW_2, "--list", list]);
  expect(changed.code).toBe(1);
  expect(changed.output).toMatch(/^NOT verified:\n/);
  expect(changed.output).toMatch(/listHash: the list's SHA-256 is [0-9a-f]{64}, the commitment says/);
  expect(changed.output).toMatch(/merkleRoot: the list's Merkle root is/);

  const otherRules = await run("scripts/giveaway/verify.ts", [DRAW_2, "--list", LIST_2, "--settings", OTHER_SETTINGS]);
  expect(otherRules.code).toBe(1);
  expect(otherRules.output).toMatch(/rules: the file's rules \(draw golden/);

  const stranger = await verifyTicket(goldenTicket(99));
  expect(stranger.code).toBe(1);
  expect(stranger.output).toMatch(/^NOT in the draw/);
});

it("still verifies a format 1 draw file", async () => {
  const { code, output } = await run("scripts/giveaway/verify.ts", [path.join(FIXTURES, "draw.json")]);
  expect({ code, output }).toEqual({ code: 0, output: "verified: the list, the round and the winners all match\n" });
});
