/**
 * Who wins: a deterministic, weighted draw without replacement from a drand round's randomness.
 *
 * 1. A stream of bytes: block i = sha256(randomness ‖ uint32_be(i)) for i = 0, 1, 2 …, read as 64-bit big-endian words.
 * 2. An integer in [0, total entries) with no modulo bias: a word x is used only below the largest multiple of the total
 *    under 2^64 (otherwise the next word is taken), and the integer is x mod total.
 * 3. Walk the entrants in canonical order (by pseudonym) adding up entries; the winner is the first whose running sum
 *    exceeds the integer. Remove the winner and repeat with the remaining entries until enough are drawn.
 */
import { concatBytes, fromHex, sha256 } from "./bytes";
import { sortEntrants, type Entrant } from "./draw-file";

const TWO_TO_64 = BigInt(2) ** BigInt(64);

/** The counter-mode SHA-256 stream of step 1, one 64-bit word at a time. */
export function wordStream(seed: Uint8Array): () => Promise<bigint> {
  let block = 0;
  let words: bigint[] = [];
  return async () => {
    if (words.length === 0) {
      const counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, block++);
      const bytes = await sha256(concatBytes(seed, counter));
      const view = new DataView(bytes.buffer);
      words = [0, 8, 16, 24].map((offset) => view.getBigUint64(offset));
    }
    return words.shift() as bigint;
  };
}

/** Step 2: an integer in [0, total) without modulo bias, from the word stream. */
export async function nextTicket(next: () => Promise<bigint>, total: number): Promise<number> {
  const range = BigInt(total);
  const limit = TWO_TO_64 - (TWO_TO_64 % range);
  let word = await next();
  while (word >= limit) word = await next();
  return Number(word % range);
}

/**
 * The winners of a draw.
 * @param randomness the round's randomness, 64 hex characters
 * @param entrants every eligible entrant (any order: the canonical order is used)
 * @param winnerCount how many to draw; all entrants when there are fewer
 * @returns the winners' pseudonyms in the order drawn
 * @throws RangeError when an entrant's entries are not a positive safe integer or the total exceeds 2^53
 */
export async function drawWinners(randomness: string, entrants: readonly Entrant[], winnerCount: number): Promise<string[]> {
  const remaining = sortEntrants(entrants);
  for (const { entries } of remaining) {
    if (!Number.isSafeInteger(entries) || entries < 1) throw new RangeError(`entries must be a whole number of 1 or more, not ${entries}`);
  }
  let total = remaining.reduce((sum, { entries }) => sum + entries, 0);
  if (!Number.isSafeInteger(total)) throw new RangeError("the total of entries exceeds 2^53");
  const next = wordStream(fromHex(randomness));
  const winners: string[] = [];
  while (winners.length < winnerCount && remaining.length > 0) {
    const ticket = await nextTicket(next, total);
    let sum = 0;
    const index = remaining.findIndex(({ entries }) => (sum += entries) > ticket);
    const [winner] = remaining.splice(index, 1);
    winners.push(winner.pseudonym);
    total -= winner.entries;
  }
  return winners;
}
