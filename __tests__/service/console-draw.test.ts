/**
 * The giveaway draw in the Worker, in workerd: a commitment only through the console's API, only by the rules the site
 * publishes and only between the cut-off and the rules' round (each steering attempt refused, with a test named after
 * it), one commitment per draw ever; the commitment job building the list in parts from a page of rows at a time,
 * resuming after a lost step; the list and the commitment served from R2 with Range requests, verifying against the
 * rules; the winners drawn by streaming; and a person's place with an audit path that leads to the root.
 */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import type { Commitment, DrawPlace, DrawState } from "../../shared/api/draw";
import { type ChainedAuditRow, verifyAuditChain } from "../../shared/audit-chain";
import { fromHex, sha256, toHex, uint64BigEndian } from "../../shared/giveaway/bytes";
import {
  COMMIT_REFUSAL,
  DRAW_COMMIT_ENDPOINT,
  DRAW_RUN_ENDPOINT,
  DRAW_STATE_ENDPOINT,
  RUN_REFUSAL,
  STATUS_DRAW_ENDPOINT,
} from "../../shared/giveaway/commit";
import { bytesSource, verifyCommitment } from "../../shared/giveaway/commitment";
import { pseudonymOf } from "../../shared/giveaway/draw-file";
import { leafBytes, LINE_BYTES, listLine } from "../../shared/giveaway/list";
import { leafHash, verifyInclusion } from "../../shared/giveaway/merkle";
import { roundTimeMs } from "../../shared/giveaway/rounds";
import type { DrawRules } from "../../shared/giveaway/rules";
import { drawWinners } from "../../shared/giveaway/winners";
import type { ServiceSettings } from "../../shared/service-settings";
import { hashStatusToken } from "../../worker/src/referrals/codes";
import { STALLED_AFTER_MS } from "../../worker/src/draw/job";
import vectors from "../fixtures/giveaway/drand-vectors.json";
import { entrantRow, type RowValue } from "../fixtures/giveaway/entrant-row";
import {
  AUDIT_VERIFIER,
  DRAW_JOB_QUEUE,
  errorsOf,
  LOCAL_ORIGIN,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
} from "./support/service";

const OPERATOR = "draw-operator@example.com";
const { chain } = TEST_SETTINGS.draw;
const { entriesPerReferral } = TEST_SETTINGS.referrals;
const HOUR_MS = 3_600_000;
/** A recorded quicknet round: the main draw's rules name it, so its recorded signature draws the winners. */
const ROUND = vectors.quicknet.rounds.find((round) => round.round === 30662990) as { round: number; randomness: string; signature: string };
const ROUND_AT_MS = roundTimeMs(chain, ROUND.round);
/** The main draw's cut-off: 24 hours before the recorded round. */
const CUTOFF = new Date(ROUND_AT_MS - 24 * HOUR_MS).toISOString();
const RULES: DrawRules = { id: "launch", cutoff: CUTOFF, winners: 2, roundDelayHours: 24 };
const TOKEN = "ana-status-token-0123456789abcde"; // 32 characters, as STATUS_TOKEN_PATTERN takes

/** Run the clock at `ms` (Date only: timers stay real). */
function clockAt(ms: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A service whose build publishes `rules` (the local operator signed in). */
function serviceWith(rules: DrawRules, vars: Record<string, string> = {}): WaitlistService {
  const settings: ServiceSettings = { ...TEST_SETTINGS, draw: { ...TEST_SETTINGS.draw, ...rules } };
  return startWaitlistService({ origin: LOCAL_ORIGIN, settings, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR, ...vars } });
}

let service: WaitlistService;

/**
 * A published file as anyone reads it: from the site's host (the settings' siteUrl), since the console's host, where the
 * local operator works, serves nothing of the site's.
 */
function readPublished(target: WaitlistService, path: string): Promise<Response> {
  return target.fetch(new URL(path, TEST_SETTINGS.siteUrl).href);
}

/** Store one person (entrant-row.ts). */
async function seed(seq: number, name: string, code: string, fields: Record<string, RowValue>): Promise<void> {
  const values = entrantRow(seq, name, code, fields);
  const columns = Object.keys(values);
  await service.query(
    `INSERT INTO signups (${columns.join(", ")}) VALUES (${columns.map((_, index) => `?${index + 1}`).join(", ")})`,
    ...Object.values(values),
  );
}

const BEFORE = new Date(Date.parse(CUTOFF) - 30 * 24 * HOUR_MS).toISOString();
const AFTER = new Date(Date.parse(CUTOFF) + HOUR_MS).toISOString();

beforeAll(async () => {
  service = serviceWith(RULES);
  await seed(1, "ana", "Ana23456", { confirmed_at: BEFORE, referrals: 5, status_token_hash: await hashStatusToken(TOKEN) });
  await seed(2, "ben", "Ben23456", { confirmed_at: BEFORE });
  await seed(3, "cat", "Cat23456", {}); // never confirmed
  await seed(4, "dan", "Dan23456", { confirmed_at: BEFORE, disqualified_at: BEFORE });
  await seed(5, "fay", "Fay23456", { confirmed_at: AFTER }); // confirmed after the cut-off
  // Ana's fifth referral was credited after the cut-off: 4 count.
  await seed(6, "gus", "Gus23456", { confirmed_at: BEFORE, referred_by: "id-ana", referral_counted_at: AFTER });
  for (let seq = 7; seq <= 11; seq++) await seed(seq, `p${seq}`, `P${seq}x3456`, { confirmed_at: BEFORE });
});

function commit(target: WaitlistService, body: unknown): Promise<Response> {
  return target.fetch(DRAW_COMMIT_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const request = (rules: DrawRules) => ({ draw: rules.id, winners: rules.winners, cutoff: rules.cutoff });

async function drawRows(): Promise<number> {
  const [{ n }] = await service.query<{ n: number }>("SELECT count(*) AS n FROM draws");
  return n;
}

/** Hand the draw job's queue to its consumer until nothing waits. */
async function runJob(target: WaitlistService): Promise<void> {
  for (let round = 0; round < 200 && target.queued(DRAW_JOB_QUEUE).length > 0; round++) await target.deliver();
}

it("refuses a second draw id beside the published one", async () => {
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  const response = await commit(service, { ...request(RULES), draw: "launch-b" });
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0]).toMatchObject({ code: COMMIT_REFUSAL.otherDraw, source: { pointer: "/draw" } });
  expect(await drawRows()).toBe(0);
});

it("refuses another cut-off than the published one", async () => {
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  const response = await commit(service, { ...request(RULES), cutoff: new Date(Date.parse(CUTOFF) - HOUR_MS).toISOString() });
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.otherCutoff);
  expect(await drawRows()).toBe(0);
});

it("refuses a commit before the cut-off", async () => {
  clockAt(Date.parse(CUTOFF) - 60_000);
  const response = await commit(service, request(RULES));
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.entriesOpen);
  expect(await drawRows()).toBe(0);
});

it("refuses a commit after its round is published", async () => {
  clockAt(ROUND_AT_MS);
  const response = await commit(service, request(RULES));
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.roundPublished);
  expect(await drawRows()).toBe(0);
});

it("refuses a clock set from the shell: the Worker reads no variable for its time", async () => {
  clockAt(ROUND_AT_MS + HOUR_MS);
  const shell = serviceWith(RULES, { WAITLIST_TEST_NOW: new Date(Date.parse(CUTOFF) + HOUR_MS).toISOString(), NODE_ENV: "test" });
  const response = await commit(shell, request(RULES));
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.roundPublished);
  expect(await drawRows()).toBe(0);
});

it("commits once by the rules, builds the list in the job and publishes it with its commitment", async () => {
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  const response = await commit(service, request(RULES));
  expect(response.status).toBe(202);
  const accepted = (await response.json()) as DrawState;
  expect(accepted.rules).toMatchObject({ draw: "launch", round: ROUND.round, roundAt: new Date(ROUND_AT_MS).toISOString() });
  expect(accepted.job).toMatchObject({ state: "listing", operator: OPERATOR, commitment: null });

  await runJob(service);
  const state = (await (await service.fetch(DRAW_STATE_ENDPOINT)).json()) as DrawState;
  expect(state.job).toMatchObject({ state: "published", eligible: 8, written: 8 });
  const commitment = state.job!.commitment!;

  // The published files, from R2, as anyone reads them.
  const published = await readPublished(service, "/giveaway/draw/launch/draw.json");
  expect(published.status).toBe(200);
  expect((await published.json()) as Commitment).toEqual(commitment);
  const listAnswer = await readPublished(service, commitment.listUrl);
  const list = new Uint8Array(await listAnswer.arrayBuffer());
  expect(list.length).toBe(8 * LINE_BYTES);

  // Unconfirmed (cat), disqualified (dan) and confirmed after the cut-off (fay) are not in it; ana has 4 referrals.
  const tickets = await service.query<{ name: string; ticket: string }>("SELECT first_name AS name, draw_ticket AS ticket FROM signups");
  const ticketOf = (name: string) => tickets.find((row) => row.name === name)!.ticket;
  const expected = await Promise.all(
    ["ana", "ben", "gus", "p7", "p8", "p9", "p10", "p11"].map(async (name) => ({
      pseudonym: await pseudonymOf("launch", ticketOf(name)),
      entries: name === "ana" ? 1 + 4 * entriesPerReferral : 1,
    })),
  );
  expected.sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : 1));
  expect(new TextDecoder().decode(list)).toBe(expected.map(listLine).join(""));
  expect(commitment).toMatchObject({ n: 8, totalEntries: 8 + 4 * entriesPerReferral, round: ROUND.round, result: null });
  expect(await verifyCommitment(commitment, { chain, rules: RULES }, bytesSource(list))).toMatchObject({ verified: true });

  // A referral code, in every link a person shares, finds nobody.
  const codePseudonym = await pseudonymOf("launch", "Ana23456");
  expect(new TextDecoder().decode(list)).not.toContain(codePseudonym);

  const [audit] = await service.query<{ operator: string; after: string }>(
    "SELECT operator, after FROM audit_log WHERE action = 'draw_commit'",
  );
  expect(audit.operator).toBe(OPERATOR);
  expect(JSON.parse(audit.after)).toMatchObject({ draw: "launch", listHash: commitment.listHash, merkleRoot: commitment.merkleRoot, n: 8 });
  expect(audit.after).not.toMatch(/example\.com|Testperson|23456/);
});

it("answers a Range request on the list with its bytes", async () => {
  const response = await service.fetch(new URL("/giveaway/draw/launch/entrants.txt", TEST_SETTINGS.siteUrl).href, {
    headers: { range: `bytes=${LINE_BYTES}-${2 * LINE_BYTES - 1}` },
  });
  expect(response.status).toBe(206);
  expect(response.headers.get("content-range")).toBe(`bytes ${LINE_BYTES}-${2 * LINE_BYTES - 1}/${8 * LINE_BYTES}`);
  expect(await response.text()).toMatch(/^[0-9a-f]{16} \d{6}\n$/);
});

it("refuses a second commitment of the draw, and its first stays", async () => {
  clockAt(Date.parse(CUTOFF) + 2 * HOUR_MS);
  const response = await commit(service, request(RULES));
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.alreadyCommitted);
  expect(await drawRows()).toBe(1);
});

it("answers a person their ticket, line and an audit path that leads to the published root", async () => {
  const response = await service.fetch(STATUS_DRAW_ENDPOINT, {
    headers: { authorization: `Bearer ${TOKEN}`, "sec-fetch-site": "same-origin" },
  });
  expect(response.status).toBe(200);
  const place = (await response.json()) as DrawPlace;
  const [ana] = await service.query<{ ticket: string }>("SELECT draw_ticket AS ticket FROM signups WHERE id = 'id-ana'");
  expect(place).toMatchObject({
    draw: "launch",
    ticket: ana.ticket,
    pseudonym: await pseudonymOf("launch", ana.ticket),
    entries: 1 + 4 * entriesPerReferral,
    n: 8,
  });
  const leaf = leafHash(leafBytes(listLine(place)));
  expect(verifyInclusion(leaf, place.index, place.n, place.path.map(fromHex), fromHex(place.merkleRoot))).toBe(true);
  // A tampered line does not lead there.
  const tampered = leafHash(leafBytes(listLine({ ...place, entries: place.entries + 1 })));
  expect(verifyInclusion(tampered, place.index, place.n, place.path.map(fromHex), fromHex(place.merkleRoot))).toBe(false);
});

it("draws the winners from the rules' round by streaming the list, as the in-memory algorithm does", async () => {
  clockAt(ROUND_AT_MS - 60_000);
  const early = await service.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect((await errorsOf(early))[0].code).toBe("round_not_published");

  clockAt(ROUND_AT_MS + 60_000);
  const relay = vi.spyOn(globalThis, "fetch").mockImplementation((input) => {
    const url = String(input instanceof Request ? input.url : input);
    expect(url).toBe(`${TEST_SETTINGS.draw.relayUrl}/${chain.hash}/public/${ROUND.round}`);
    return Promise.resolve(Response.json({ round: ROUND.round, randomness: ROUND.randomness, signature: ROUND.signature }));
  });
  const response = await service.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect(response.status).toBe(200);
  relay.mockRestore();
  const drawn = (await response.json()) as Commitment;
  const list = new Uint8Array(await (await readPublished(service, drawn.listUrl)).arrayBuffer());
  const lines = new TextDecoder()
    .decode(list)
    .trim()
    .split("\n")
    .map((line) => ({ pseudonym: line.slice(0, 16), entries: Number(line.slice(17)) }));
  const expected = await drawWinners(ROUND.randomness, lines, RULES.winners);
  expect(drawn.result!.winners.map((winner) => winner.pseudonym)).toEqual(expected);
  expect(await verifyCommitment(drawn, { chain, rules: RULES }, bytesSource(list))).toMatchObject({ verified: true, drawn: true });
  expect((await (await readPublished(service, "/giveaway/draw/launch/draw.json")).json()) as Commitment).toEqual(drawn);
  // The request's entry, the commitment's, the early run's refusal and the run's, each chained after the one before.
  const log = await service.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id");
  expect(log.map((row) => [row.action, row.operator])).toEqual([
    ["draw_commit_request", OPERATOR],
    ["draw_commit", OPERATOR],
    ["draw_run_refused", OPERATOR],
    ["draw_run", OPERATOR],
  ]);
  expect(await verifyAuditChain(log, AUDIT_VERIFIER)).toMatchObject({ ok: true, head: { size: 4 } });

  const again = await service.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect((await errorsOf(again))[0].code).toBe("already_drawn");
});

it("builds a list of several parts a page at a time, and resumes a job whose step was lost", async () => {
  const rules: DrawRules = { id: "spring", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const spring = serviceWith(rules);
  await seed(12, "zed", "Zed23456", { confirmed_at: BEFORE });
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  expect((await commit(spring, request(rules))).status).toBe(202);
  // Small pages and parts: the 9 entrants make parts of 2^2, 2^2 and 1 lines, read 3 seq at a time.
  await spring.query("UPDATE draws SET page_rows = 3, part_lines = 4 WHERE id = 'spring'");
  await spring.deliver();
  // The next step's message is lost; the cron sends it again once the row has not moved for a while.
  spring.discard(DRAW_JOB_QUEUE);
  await spring.scheduled("*/5 * * * *", Date.now() + STALLED_AFTER_MS + 60_000);
  expect(spring.queued(DRAW_JOB_QUEUE)).toHaveLength(1);
  await runJob(spring);

  const parts = await spring.query<{ lines: number }>("SELECT lines FROM draw_parts WHERE draw = 'spring' ORDER BY part");
  expect(parts.map(({ lines }) => lines)).toEqual([4, 4, 1]);
  const commitment = (await (await readPublished(spring, "/giveaway/draw/spring/draw.json")).json()) as Commitment;
  const list = new Uint8Array(await (await readPublished(spring, commitment.listUrl)).arrayBuffer());
  expect(await verifyCommitment(commitment, { chain, rules }, bytesSource(list))).toMatchObject({ verified: true });
  expect(commitment.n).toBe(9);
});

// A draw bound to its commitment: a content deploy or a change in R2 after the commitment steers nothing.

/** quicknet's hash-to-curve tag (RFC 9380, G1), with which the attacker signs as drand does. */
const QUICKNET_DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
/** The relay a content deploy names in the attacks: a stand-in the attacker runs. */
const ATTACKER_RELAY = "https://relay.attacker.example";

/** A build whose content names `rules` with `draw`'s changes (a deploy after the commitment). */
function deployedWith(rules: DrawRules, draw: Partial<ServiceSettings["draw"]>): WaitlistService {
  const settings: ServiceSettings = { ...TEST_SETTINGS, draw: { ...TEST_SETTINGS.draw, ...rules, ...draw } };
  return startWaitlistService({ origin: LOCAL_ORIGIN, settings, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR } });
}

/** A draw of `rules` committed by the content as it is, its list and commitment published by the job. */
async function publishedDraw(rules: DrawRules): Promise<WaitlistService> {
  const target = serviceWith(rules);
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  expect((await commit(target, request(rules))).status).toBe(202);
  await runJob(target);
  return target;
}

/** A stand-in relay answering every fetch with `round`; the addresses asked, in order. */
function relayAnswering(round: { round: number; randomness: string; signature: string }): string[] {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((input) => {
    asked.push(String(input instanceof Request ? input.url : input));
    return Promise.resolve(Response.json(round));
  });
  return asked;
}

/** A published list's lines. */
async function linesOf(target: WaitlistService, draw: string): Promise<{ pseudonym: string; entries: number }[]> {
  const text = await (await readPublished(target, `/giveaway/draw/${draw}/entrants.txt`)).text();
  return text
    .trim()
    .split("\n")
    .map((line) => ({ pseudonym: line.slice(0, 16), entries: Number(line.slice(17)) }));
}

/** Ana's pseudonym in a draw: the line the attacker wants to win. */
async function anaIn(draw: string): Promise<string> {
  const [ana] = await service.query<{ ticket: string }>("SELECT draw_ticket AS ticket FROM signups WHERE id = 'id-ana'");
  return pseudonymOf(draw, ana.ticket);
}

/**
 * What the review's attacker made: BLS keys of their own, tried until one signs `round` so that `target` is drawn
 * first; that key and its round.
 */
async function forgedRound(round: number, lines: { pseudonym: string; entries: number }[], target: string) {
  const scheme = bls12_381.shortSignatures;
  const message = scheme.hash(await sha256(uint64BigEndian(round)), QUICKNET_DST);
  for (let attempt = 0; attempt < 64; attempt++) {
    const { secretKey, publicKey } = scheme.keygen(new TextEncoder().encode(`attacker key ${attempt}`.padEnd(48, ".")));
    const signature = scheme.sign(message, secretKey).toBytes();
    const randomness = toHex(await sha256(signature));
    if ((await drawWinners(randomness, lines, 1))[0] === target)
      return { publicKey: publicKey.toHex(), round: { round, randomness, signature: toHex(signature) } };
  }
  throw new Error("none of 64 keys draws the target first");
}

/** The draw's state, its published commitment (null before one) and its audit entries of `action`, oldest first. */
async function drawAfter(target: WaitlistService, draw: string, action: string) {
  const [row] = await target.query<{ state: string }>("SELECT state FROM draws WHERE id = ?1", draw);
  const file = await readPublished(target, `/giveaway/draw/${draw}/draw.json`);
  const published = file.status === 200 ? ((await file.json()) as Commitment) : null;
  const entries = await target.query<{ operator: string; reason: string; after: string }>(
    "SELECT operator, reason, after FROM audit_log WHERE action = ?1 AND json_extract(after, '$.draw') = ?2 ORDER BY id",
    action,
    draw,
  );
  return { state: row.state, published, entries: entries.map((entry) => ({ ...entry, after: JSON.parse(entry.after) })) };
}

it("audits a commit request with the chain, relay and rules it binds the draw to", async () => {
  const rules: DrawRules = { id: "audited", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const target = serviceWith(rules);
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  expect((await commit(target, request(rules))).status).toBe(202);
  expect((await errorsOf(await commit(target, request(rules))))[0].code).toBe(COMMIT_REFUSAL.alreadyCommitted);

  const { entries } = await drawAfter(target, "audited", "draw_commit_request");
  expect(entries).toHaveLength(1); // the refused second request wrote nothing
  expect(entries[0].operator).toBe(OPERATOR);
  expect(entries[0].after).toEqual({
    draw: "audited",
    cutoff: CUTOFF,
    winners: 1,
    roundDelayHours: 24,
    round: ROUND.round,
    roundAt: new Date(ROUND_AT_MS).toISOString(),
    chain,
    relayUrl: TEST_SETTINGS.draw.relayUrl,
  });
  const [row] = await target.query(
    "SELECT chain_hash, chain_public_key, chain_period, chain_genesis, relay_url, round_delay_hours FROM draws WHERE id = 'audited'",
  );
  expect(row).toEqual({
    chain_hash: chain.hash,
    chain_public_key: chain.publicKey,
    chain_period: chain.period,
    chain_genesis: chain.genesis,
    relay_url: TEST_SETTINGS.draw.relayUrl,
    round_delay_hours: 24,
  });
  expect(await verifyAuditChain(await target.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id"), AUDIT_VERIFIER)).toMatchObject({
    ok: true,
  });
});

it("the swapped chain: a deploy naming the attacker's key and relay after the commitment is refused, audited, and draws nothing", async () => {
  const rules: DrawRules = { id: "swapped-chain", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const committed = await publishedDraw(rules);
  const forged = await forgedRound(ROUND.round, await linesOf(committed, "swapped-chain"), await anaIn("swapped-chain"));
  const deployed = deployedWith(rules, { chain: { ...chain, publicKey: forged.publicKey }, relayUrl: ATTACKER_RELAY });

  clockAt(ROUND_AT_MS + 60_000);
  const asked = relayAnswering(forged.round);
  const response = await deployed.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect(response.status).toBe(409);
  const [error] = await errorsOf(response);
  expect(error.code).toBe(RUN_REFUSAL.contentChanged);
  expect(error.detail).toContain("draw.chain.publicKey, draw.relayUrl");
  expect(asked).toEqual([]); // the attacker's relay is never asked

  const after = await drawAfter(committed, "swapped-chain", "draw_run_refused");
  expect(after.state).toBe("published");
  expect(after.published).toMatchObject({ chain, result: null });
  expect(after.entries).toHaveLength(1);
  expect(after.entries[0].after).toEqual({
    draw: "swapped-chain",
    code: RUN_REFUSAL.contentChanged,
    changed: ["draw.chain.publicKey", "draw.relayUrl"],
  });
  expect(await drawAfter(committed, "swapped-chain", "draw_run").then(({ entries }) => entries)).toEqual([]);
});

it("the swapped chain, in a draw committed before its row kept one: its published commitment's chain binds it", async () => {
  const rules: DrawRules = { id: "swapped-older", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const committed = await publishedDraw(rules);
  await committed.query(
    "UPDATE draws SET chain_hash = NULL, chain_public_key = NULL, chain_period = NULL, chain_genesis = NULL, relay_url = NULL, " +
      "round_delay_hours = NULL WHERE id = 'swapped-older'",
  );
  const forged = await forgedRound(ROUND.round, await linesOf(committed, "swapped-older"), await anaIn("swapped-older"));
  const deployed = deployedWith(rules, { chain: { ...chain, publicKey: forged.publicKey }, relayUrl: ATTACKER_RELAY });

  clockAt(ROUND_AT_MS + 60_000);
  const asked = relayAnswering(forged.round);
  const response = await deployed.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect((await errorsOf(response))[0].code).toBe(RUN_REFUSAL.contentChanged);
  expect(asked).toEqual([]);
  expect((await drawAfter(committed, "swapped-older", "draw_run_refused")).published?.result).toBeNull();
});

it("the swapped list: an entrants.txt replaced in R2 after the commitment is refused, audited, and draws nothing", async () => {
  const rules: DrawRules = { id: "swapped-list", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const committed = await publishedDraw(rules);
  // The attacker's list: the same lines in the same order, their own with all but every entry.
  const target = await anaIn("swapped-list");
  const swapped = (await linesOf(committed, "swapped-list"))
    .map((line) => listLine(line.pseudonym === target ? { ...line, entries: 999_999 } : line))
    .join("");
  await committed.env.DRAWS.put("draws/swapped-list/entrants.txt", swapped);

  clockAt(ROUND_AT_MS + 60_000);
  relayAnswering(ROUND);
  const response = await committed.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(RUN_REFUSAL.listChanged);

  const after = await drawAfter(committed, "swapped-list", "draw_run_refused");
  expect(after.state).toBe("published");
  expect(after.published?.result).toBeNull();
  expect(after.entries).toHaveLength(1);
  expect(after.entries[0].after).toMatchObject({
    draw: "swapped-list",
    code: RUN_REFUSAL.listChanged,
    listHash: toHex(await sha256(new TextEncoder().encode(swapped))),
  });
  expect(after.entries[0].after.listHash).not.toBe(after.published?.listHash);
});

it("audits a commitment job that fails, once", async () => {
  const rules: DrawRules = { id: "too-late", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const target = serviceWith(rules);
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  expect((await commit(target, request(rules))).status).toBe(202);
  // The job runs only once the round is out: it refuses to publish a list whose randomness is known.
  clockAt(ROUND_AT_MS + 1_000);
  await runJob(target);

  const after = await drawAfter(target, "too-late", "draw_job_failed");
  expect(after.state).toBe("failed");
  expect(after.entries).toHaveLength(1);
  expect(after.entries[0]).toMatchObject({
    operator: OPERATOR,
    after: { draw: "too-late", state: "failed", failure: "round_published" },
  });
  // A second delivery of the failing step changes nothing and writes no second entry.
  const [{ step }] = await target.query<{ step: number }>("SELECT step FROM draws WHERE id = 'too-late'");
  target.enqueue(DRAW_JOB_QUEUE, { draw: "too-late", step: step - 1 });
  await runJob(target);
  expect((await drawAfter(target, "too-late", "draw_job_failed")).entries).toHaveLength(1);
  expect(await verifyAuditChain(await target.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id"), AUDIT_VERIFIER)).toMatchObject({
    ok: true,
  });
});

it("publishes a run, and a commitment built during a deploy, with the chain, relay and rules the draw was committed with", async () => {
  const rules: DrawRules = { id: "as-committed", cutoff: CUTOFF, winners: 1, roundDelayHours: 24 };
  const committed = serviceWith(rules);
  clockAt(Date.parse(CUTOFF) + HOUR_MS);
  expect((await commit(committed, request(rules))).status).toBe(202);
  // The job runs while a deploy names another key, relay and round delay: the commitment names the committed ones.
  const deployed = deployedWith(rules, { chain: { ...chain, publicKey: "b".repeat(192) }, relayUrl: ATTACKER_RELAY, roundDelayHours: 48 });
  for (const body of committed.discard(DRAW_JOB_QUEUE)) deployed.enqueue(DRAW_JOB_QUEUE, body);
  await runJob(deployed);
  const published = (await (await readPublished(committed, "/giveaway/draw/as-committed/draw.json")).json()) as Commitment;
  expect(published).toMatchObject({ chain, rules: { cutoff: CUTOFF, winners: 1, roundDelayHours: 24 }, result: null });

  // Run with the content as committed: the relay asked is the committed one, and the result verifies by the rules.
  clockAt(ROUND_AT_MS + 60_000);
  const asked = relayAnswering(ROUND);
  const response = await committed.fetch(DRAW_RUN_ENDPOINT, { method: "POST" });
  expect(response.status).toBe(200);
  expect(asked).toEqual([`${TEST_SETTINGS.draw.relayUrl}/${chain.hash}/public/${ROUND.round}`]);
  const drawn = (await response.json()) as Commitment;
  expect(drawn).toEqual({ ...published, result: drawn.result });
  expect(drawn.result!.beacon.round).toBe(ROUND.round);
  const list = new Uint8Array(await (await readPublished(committed, drawn.listUrl)).arrayBuffer());
  expect(await verifyCommitment(drawn, { chain, rules }, bytesSource(list))).toMatchObject({ verified: true, drawn: true });
  expect((await (await readPublished(committed, "/giveaway/draw/as-committed/draw.json")).json()) as Commitment).toEqual(drawn);
  const { entries } = await drawAfter(committed, "as-committed", "draw_run");
  expect(entries).toHaveLength(1);
  expect(entries[0].after).toMatchObject({ chain: chain.hash, relayUrl: TEST_SETTINGS.draw.relayUrl, round: ROUND.round });
});
