/**
 * @jest-environment node
 */
/**
 * The giveaway draw's rules (shared/giveaway): drand's recorded rounds verify and tampered ones are refused, the same
 * list and round always draw the same winners, the commitment changes with any entrant's entries, wins follow
 * entries, and verifyDraw names each mismatch of a published draw. Node's environment: Web Crypto as in the browser.
 */
import vectors from "../fixtures/giveaway/drand-vectors.json";
import { beaconProblems, firstRoundAfter, roundTimeMs, type Beacon } from "../../shared/giveaway/beacon";
import type { DrandChain } from "../../shared/giveaway/chains";
import { sha256, toHex } from "../../shared/giveaway/bytes";
import {
  canonicalList,
  DRAW_FORMAT,
  listHashOf,
  pseudonymOf,
  serialiseDraw,
  type DrawFile,
  type Entrant,
} from "../../shared/giveaway/draw-file";
import { verifyDraw } from "../../shared/giveaway/verify";
import { drawWinners } from "../../shared/giveaway/winners";

const quicknet: DrandChain = {
  hash: vectors.quicknet.info.hash,
  publicKey: vectors.quicknet.info.public_key,
  period: vectors.quicknet.info.period,
  genesis: vectors.quicknet.info.genesis_time,
};

/** Every recorded quicknet round, the randomness filled in where the source published the signature only. */
async function recordedRounds(): Promise<Beacon[]> {
  return Promise.all(
    vectors.quicknet.rounds.map(async (round) => ({
      round: round.round,
      signature: round.signature,
      randomness:
        "randomness" in round && round.randomness
          ? round.randomness
          : toHex(await sha256(Uint8Array.from(Buffer.from(round.signature, "hex")))),
    })),
  );
}

/** `hex` with the byte at `index` flipped. */
function flipByte(hex: string, index: number): string {
  const byte = (parseInt(hex.slice(2 * index, 2 * index + 2), 16) ^ 0x01).toString(16).padStart(2, "0");
  return hex.slice(0, 2 * index) + byte + hex.slice(2 * index + 2);
}

describe("drand quicknet rounds", () => {
  it("verifies every recorded round against the chain's public key", async () => {
    for (const beacon of await recordedRounds())
      expect({ round: beacon.round, problems: await beaconProblems(quicknet, beacon, beacon.round) }).toEqual({
        round: beacon.round,
        problems: [],
      });
  });

  it("refuses a round with one byte of its signature changed", async () => {
    const [beacon] = await recordedRounds();
    const signature = flipByte(beacon.signature, 20);
    const randomness = toHex(await sha256(Uint8Array.from(Buffer.from(signature, "hex"))));
    expect(await beaconProblems(quicknet, { ...beacon, signature, randomness }, beacon.round)).toEqual(["signature"]);
  });

  it("refuses a round whose randomness is not the SHA-256 of its signature", async () => {
    const [beacon] = await recordedRounds();
    expect(await beaconProblems(quicknet, { ...beacon, randomness: flipByte(beacon.randomness, 0) }, beacon.round)).toEqual(["randomness"]);
  });

  it("refuses a signature of another round presented as this round", async () => {
    const [first, second] = await recordedRounds();
    expect(await beaconProblems(quicknet, { ...first, round: second.round }, second.round)).toEqual(["signature"]);
  });

  it("refuses a round from another chain (drand's default chain)", async () => {
    const other = vectors.default.rounds[3];
    const beacon = { round: other.round, signature: other.signature, randomness: other.randomness };
    expect(await beaconProblems(quicknet, beacon, other.round)).toEqual(["signature"]);
  });

  it("refuses a genuine round that is not the committed one", async () => {
    const [beacon] = await recordedRounds();
    expect(await beaconProblems(quicknet, beacon, beacon.round + 1)).toEqual(["round"]);
  });

  it("names the first round published after the delay, and when it is published", () => {
    const round = 30662990;
    const at = roundTimeMs(quicknet, round);
    expect(at).toBe((quicknet.genesis + (round - 1) * 3) * 1000);
    expect(firstRoundAfter(quicknet, at - 60_000, 60_000)).toBe(round);
    expect(firstRoundAfter(quicknet, at - 60_000 + 1, 60_000)).toBe(round + 1);
  });
});

const entrants: Entrant[] = [
  { pseudonym: "0f3a9c1b2d4e5f60", entries: 1 },
  { pseudonym: "1a2b3c4d5e6f7081", entries: 5 },
  { pseudonym: "7c7c7c7c7c7c7c7c", entries: 3 },
  { pseudonym: "a0b1c2d3e4f50617", entries: 1 },
  { pseudonym: "ffeeddccbbaa9988", entries: 2 },
];

describe("the commitment and the winners", () => {
  it("writes the canonical list one `<pseudonym> <entries>` line each, sorted, and hashes it with SHA-256", async () => {
    const text = canonicalList([...entrants].reverse());
    expect(text).toBe(entrants.map((e) => `${e.pseudonym} ${e.entries}\n`).join(""));
    expect(await listHashOf(entrants)).toBe(toHex(await sha256(text)));
  });

  it("changes the commitment when one entrant's entries change", async () => {
    const before = await listHashOf(entrants);
    const changed = entrants.map((e, i) => (i === 2 ? { ...e, entries: e.entries + 1 } : e));
    expect(await listHashOf(changed)).not.toBe(before);
  });

  it("makes a person's pseudonym from the draw id and their ticket, as sha256sum would", async () => {
    const ticket = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    expect(await pseudonymOf("launch", ticket)).toBe(toHex(await sha256(`launch:${ticket}`)).slice(0, 16));
    expect(await pseudonymOf("launch", ticket)).not.toBe(await pseudonymOf("spring", ticket));
  });

  it("draws the same winners from the same list and round on every run (golden)", async () => {
    const round = vectors.quicknet.rounds.find((r) => r.round === 30662990)!;
    const winners = await drawWinners(round.randomness!, entrants, 3);
    expect(winners).toEqual(GOLDEN_WINNERS);
    expect(await drawWinners(round.randomness!, [...entrants].reverse(), 3)).toEqual(winners);
    expect(new Set(winners).size).toBe(3);
  });

  it("draws everyone once when there are fewer entrants than winners", async () => {
    const winners = await drawWinners("00".repeat(32), entrants, 10);
    expect([...winners].sort()).toEqual(entrants.map((e) => e.pseudonym));
  });

  it("gives each entrant a share of wins proportional to entries (chi-square, fixed seeds)", async () => {
    const weights = [1, 2, 3, 4, 10];
    const pool = weights.map((entries, i) => ({ pseudonym: i.toString(16).padStart(16, "0"), entries }));
    const total = weights.reduce((a, b) => a + b, 0);
    const rounds = 4000;
    const wins = new Map(pool.map((e) => [e.pseudonym, 0]));
    for (let seed = 0; seed < rounds; seed++) {
      const [winner] = await drawWinners(toHex(await sha256(`seed ${seed}`)), pool, 1);
      wins.set(winner, wins.get(winner)! + 1);
    }
    const chiSquare = pool.reduce((sum, { pseudonym, entries }) => {
      const expected = (rounds * entries) / total;
      return sum + (wins.get(pseudonym)! - expected) ** 2 / expected;
    }, 0);
    // 4 degrees of freedom: 18.47 is exceeded with probability 0.001 by a fair draw.
    expect(chiSquare).toBeLessThan(18.47);
  });
});

/**
 * The winners the golden test holds the derivation to (round 30662990's randomness, the five entrants above), worked
 * out independently of this code with Python's hashlib by the steps in docs/operators.md ("The giveaway draw").
 */
const GOLDEN_WINNERS = ["7c7c7c7c7c7c7c7c", "1a2b3c4d5e6f7081", "ffeeddccbbaa9988"];

describe("verifyDraw", () => {
  async function publishedDraw(): Promise<DrawFile> {
    const beacon = (await recordedRounds()).find((r) => r.round === 30662990)!;
    const roundAt = new Date(roundTimeMs(quicknet, beacon.round)).toISOString();
    return {
      format: DRAW_FORMAT,
      draw: "launch",
      winnerCount: 2,
      cutoff: "2025-09-01T00:00:00.000Z",
      committedAt: new Date(roundTimeMs(quicknet, beacon.round) - 3_600_000).toISOString(),
      chain: quicknet,
      round: beacon.round,
      roundAt,
      listHash: await listHashOf(entrants),
      entrants,
      result: { beacon, winners: await drawWinners(beacon.randomness, entrants, 2), drawnAt: "2025-09-02T00:00:00.000Z" },
    };
  }

  it("verifies a draw published as the draw command writes it", async () => {
    const file: unknown = JSON.parse(serialiseDraw(await publishedDraw()));
    expect(await verifyDraw(file, quicknet)).toEqual({ verified: true, drawn: true, mismatches: [] });
  });

  it("names a changed entry count as a list hash mismatch (and the winners it would draw)", async () => {
    const file = await publishedDraw();
    file.entrants = file.entrants.map((e, i) => (i === 0 ? { ...e, entries: 50 } : e));
    const report = await verifyDraw(file, quicknet);
    expect(report.verified).toBe(false);
    expect(report.mismatches.map((m) => m.kind)).toContain("listHash");
  });

  it("names winners that the round does not draw", async () => {
    const file = await publishedDraw();
    file.result!.winners = [...file.result!.winners].reverse();
    expect((await verifyDraw(file, quicknet)).mismatches.map((m) => m.kind)).toEqual(["winners"]);
  });

  it("names a forged signature, and a file that brings its own chain", async () => {
    const file = await publishedDraw();
    file.result!.beacon.signature = flipByte(file.result!.beacon.signature, 5);
    expect((await verifyDraw(file, quicknet)).mismatches.map((m) => m.kind)).toEqual(expect.arrayContaining(["signature", "randomness"]));
    const other = await publishedDraw();
    other.chain = { ...quicknet, publicKey: vectors.default.info.public_key.padEnd(192, "0") };
    expect((await verifyDraw(other, quicknet)).mismatches.map((m) => m.kind)).toEqual(["chain"]);
  });

  it("names a round published before the commitment", async () => {
    const file = await publishedDraw();
    file.committedAt = file.roundAt;
    expect((await verifyDraw(file, quicknet)).mismatches.map((m) => m.kind)).toEqual(["round"]);
  });

  it("refuses a file that is not a draw file, saying which field", async () => {
    const report = await verifyDraw({ format: DRAW_FORMAT, draw: "Launch!" }, quicknet);
    expect(report).toEqual({ verified: false, drawn: false, mismatches: [{ kind: "format", detail: "draw is not a draw id" }] });
  });
});
