/**
 * The winners of a draw at any size: winners.ts's algorithm (so a format 1 draw gives the same winners), with each
 * ticket located through running sums over blocks of the list instead of an array of every entrant. One pass over the
 * list gives each block's entries (BlockSums); then each winner needs one block read back (a Range request, or a
 * slice of a file): the block whose running sum passes the ticket, then the line within it.
 */
import { fromHex } from "./bytes";
import type { Entrant } from "./draw-file";
import { nextTicket, wordStream } from "./winners";

/** Lines per block of running sums: a block is LINE_BYTES × this many bytes to read back per winner. */
export const BLOCK_LINES = 4096;

/** Each block's total entries, added up line by line in list order. */
export class BlockSums {
  readonly sums: number[] = [];
  lines = 0;
  total = 0;

  /**
   * Add the next line's entries.
   * @throws RangeError when the entries are not a positive safe integer or the total exceeds 2^53
   */
  add(entries: number): void {
    if (!Number.isSafeInteger(entries) || entries < 1) throw new RangeError(`entries must be a whole number of 1 or more, not ${entries}`);
    const block = Math.floor(this.lines / BLOCK_LINES);
    this.sums[block] = (this.sums[block] ?? 0) + entries;
    this.lines += 1;
    this.total += entries;
    if (!Number.isSafeInteger(this.total)) throw new RangeError("the total of entries exceeds 2^53");
  }
}

/** A winner: their line, as the list holds it, and its index (0-based). */
export interface Winner extends Entrant {
  index: number;
}

/**
 * The winners, in the order drawn.
 * @param randomness the round's randomness, 64 hex characters
 * @param sums the list's block sums (one pass over the list)
 * @param readBlock the lines of block b, in list order (BLOCK_LINES of them, fewer in the last block)
 * @param winnerCount how many to draw; all entrants when there are fewer
 */
export async function streamWinners(
  randomness: string,
  sums: BlockSums,
  readBlock: (block: number) => Promise<Entrant[]>,
  winnerCount: number,
): Promise<Winner[]> {
  const next = wordStream(fromHex(randomness));
  const removed = new Map<number, number>(); // block → entries of its winners
  const won = new Set<number>(); // line indexes drawn
  const winners: Winner[] = [];
  let total = sums.total;
  while (winners.length < winnerCount && winners.length < sums.lines) {
    const ticket = await nextTicket(next, total);
    // The block whose running sum (without the winners so far) passes the ticket.
    let before = 0;
    let block = 0;
    for (; block < sums.sums.length; block++) {
      const left = sums.sums[block] - (removed.get(block) ?? 0);
      if (before + left > ticket) break;
      before += left;
    }
    const lines = await readBlock(block);
    let sum = before;
    let index = -1;
    for (let i = 0; i < lines.length; i++) {
      const line = block * BLOCK_LINES + i;
      if (won.has(line)) continue;
      sum += lines[i].entries;
      if (sum > ticket) {
        index = line;
        break;
      }
    }
    if (index < 0) throw new Error(`block ${block} does not hold the entries its sum says`);
    const winner = lines[index - block * BLOCK_LINES];
    winners.push({ ...winner, index });
    won.add(index);
    removed.set(block, (removed.get(block) ?? 0) + winner.entries);
    total -= winner.entries;
  }
  return winners;
}

/** Block sums and a block reader over entrants already in memory (in list order): a format 1 file, a test. */
export function blocksOf(entrants: readonly Entrant[]): { sums: BlockSums; readBlock: (block: number) => Promise<Entrant[]> } {
  const sums = new BlockSums();
  for (const { entries } of entrants) sums.add(entries);
  return { sums, readBlock: (block) => Promise.resolve(entrants.slice(block * BLOCK_LINES, (block + 1) * BLOCK_LINES)) };
}
