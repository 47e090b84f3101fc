/**
 * @jest-environment node
 */
/**
 * Format 2 of the giveaway draw (shared/giveaway/commitment.ts, list.ts, stream-winners.ts): the golden commitment
 * and list as the code makes them today, verified against the site's rules; each kind of tampering named; the
 * winners by streaming equal to format 1's in-memory algorithm; a ticket finds its line, a wrong ticket nothing.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Commitment } from "../../shared/api/draw";
import { QUICKNET } from "../../shared/giveaway/chains";
import { bytesSource, serialiseCommitment, verifyCommitment } from "../../shared/giveaway/commitment";
import { pseudonymOf, type DrawFile } from "../../shared/giveaway/draw-file";
import { findLine, LINE_BYTES, listLine, parseLine } from "../../shared/giveaway/list";
import { blocksOf, BLOCK_LINES, streamWinners } from "../../shared/giveaway/stream-winners";
import { verifyDraw } from "../../shared/giveaway/verify";
import { drawWinners } from "../../shared/giveaway/winners";
import { GOLDEN_RULES, goldenDraw, goldenTicket } from "../fixtures/giveaway/format2";

const FIXTURES = path.join(__dirname, "..", "fixtures", "giveaway");
const goldenText = readFileSync(path.join(FIXTURES, "draw-2.json"), "utf8");
const goldenList = readFileSync(path.join(FIXTURES, "entrants-2.txt"));
const trusted = { chain: QUICKNET, rules: GOLDEN_RULES };

const verify = (commitment: unknown, list: Uint8Array) => verifyCommitment(commitment, trusted, bytesSource(list, 100));

it("makes the golden commitment and list byte for byte, and they verify against the site's rules", async () => {
  const { list, commitment } = await goldenDraw();
  expect(serialiseCommitment(commitment)).toBe(goldenText);
  expect(list).toBe(goldenList.toString("utf8"));
  expect(await verify(JSON.parse(goldenText), goldenList)).toEqual({ verified: true, drawn: true, mismatches: [] });
});

it("refuses a tampered line by both its hash and its root", async () => {
  const tampered = Uint8Array.from(goldenList);
  tampered[LINE_BYTES * 5 + 22] = tampered[LINE_BYTES * 5 + 22] === 0x31 ? 0x32 : 0x31; // one line's last digit
  const report = await verify(JSON.parse(goldenText), tampered);
  expect(report.verified).toBe(false);
  expect(report.mismatches.map(({ kind }) => kind)).toEqual(expect.arrayContaining(["listHash", "merkleRoot", "totalEntries"]));
});

it("names a file whose rules are not the site's, a round not the rules', and winners the round does not draw", async () => {
  const golden = JSON.parse(goldenText) as Commitment;
  const otherRules = await verify({ ...golden, rules: { ...golden.rules, winners: 1 } }, goldenList);
  expect(otherRules.mismatches.map(({ kind }) => kind)).toContain("rules");
  const otherRound = await verify({ ...golden, round: golden.round + 1 }, goldenList);
  expect(otherRound.mismatches.map(({ kind }) => kind)).toEqual(expect.arrayContaining(["round", "beaconRound"]));
  const winners = golden.result!.winners;
  const swapped = await verify({ ...golden, result: { ...golden.result!, winners: [winners[1], winners[0], winners[2]] } }, goldenList);
  expect(swapped.mismatches.map(({ kind }) => kind)).toEqual(["winners"]);
  const late = await verify({ ...golden, committedAt: golden.roundAt }, goldenList);
  expect(late.mismatches.map(({ kind }) => kind)).toEqual(["round"]);
});

it("draws the same winners by streaming as format 1's algorithm, across blocks", async () => {
  const entrants = Array.from({ length: 3 * BLOCK_LINES + 17 }, (_, i) => ({
    pseudonym: i.toString(16).padStart(16, "0"),
    entries: 1 + ((i * 7919) % 13),
  }));
  for (const seed of ["00", "11", "ab", "ff"]) {
    const randomness = seed.repeat(32);
    const { sums, readBlock } = blocksOf(entrants);
    const streamed = await streamWinners(randomness, sums, readBlock, 25);
    expect(streamed.map(({ pseudonym }) => pseudonym)).toEqual(await drawWinners(randomness, entrants, 25));
    for (const winner of streamed) expect(entrants[winner.index]).toEqual({ pseudonym: winner.pseudonym, entries: winner.entries });
  }
});

it("gives the published format 1 draw its winners by streaming too, and format 1 still verifies", async () => {
  const file = JSON.parse(readFileSync(path.join(FIXTURES, "draw.json"), "utf8")) as DrawFile;
  expect(await verifyDraw(file, file.chain)).toMatchObject({ verified: true, drawn: true });
  const { sums, readBlock } = blocksOf(file.entrants);
  const streamed = await streamWinners(file.result!.beacon.randomness, sums, readBlock, file.winnerCount);
  expect(streamed.map(({ pseudonym }) => pseudonym)).toEqual(file.result!.winners);
});

it("finds a ticket's line by binary search, and a wrong ticket finds nothing", async () => {
  const read = (index: number) => Promise.resolve(goldenList.subarray(index * LINE_BYTES, (index + 1) * LINE_BYTES));
  const n = goldenList.length / LINE_BYTES;
  const mine = await pseudonymOf(GOLDEN_RULES.id, goldenTicket(12));
  const found = await findLine(read, n, mine);
  expect(found?.entrant).toEqual({ pseudonym: mine, entries: 1 + (12 % 5) });
  expect(listLine(found!.entrant)).toBe(goldenList.subarray(found!.index * LINE_BYTES, (found!.index + 1) * LINE_BYTES).toString());
  expect(await findLine(read, n, await pseudonymOf(GOLDEN_RULES.id, goldenTicket(99)))).toBeNull();
  expect(parseLine(new TextEncoder().encode("0123456789abcdef 000000\n"))).toBeNull();
});
