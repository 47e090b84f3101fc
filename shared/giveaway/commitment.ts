/**
 * Format 2 of a draw (`pickfund-giveaway-draw/2`): the commitment alone, a few KB at any size, with the list published
 * apart (list.ts). Checking one streams the list once (digest.ts): its bytes' SHA-256, its Merkle root, its count and
 * entries, its order; then the rules the site publishes, the round's BLS signature and the winners (stream-winners.ts). The page's
 * Verify, `scripts/giveaway/verify.ts` and the Worker's draw all run this. docs/operators.md: "The giveaway draw".
 */
import type { Commitment } from "../api/draw";
import { beaconProblems } from "./beacon";
import { DRAW_FORMAT_2, type Entrant } from "./draw-file";
import type { DrandChain } from "./chains";
import { digestList, type DigestOptions } from "./digest";
import { LINE_BYTES, parseLine } from "./list";
import { cutoffOf, roundOfRules, type DrawRules } from "./rules";
import { BLOCK_LINES, streamWinners } from "./stream-winners";

/** The commitment's canonical text: two-space JSON in Commitment's order, final newline. */
export function serialiseCommitment(file: Commitment): string {
  const ordered: Commitment = {
    format: file.format,
    draw: file.draw,
    rules: { cutoff: file.rules.cutoff, winners: file.rules.winners, roundDelayHours: file.rules.roundDelayHours },
    committedAt: file.committedAt,
    chain: { hash: file.chain.hash, publicKey: file.chain.publicKey, period: file.chain.period, genesis: file.chain.genesis },
    round: file.round,
    roundAt: file.roundAt,
    n: file.n,
    totalEntries: file.totalEntries,
    listHash: file.listHash,
    merkleRoot: file.merkleRoot,
    listUrl: file.listUrl,
    listBytes: file.listBytes,
    result: file.result && {
      beacon: { round: file.result.beacon.round, randomness: file.result.beacon.randomness, signature: file.result.beacon.signature },
      winners: file.result.winners.map(({ pseudonym, index, entries }) => ({ pseudonym, index, entries })),
      drawnAt: file.result.drawnAt,
    },
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** What can fail to match in a format 2 draw, beside verify.ts's kinds. */
export type CommitmentMismatchKind =
  | "format"
  | "rules"
  | "chain"
  | "round"
  | "list"
  | "listBytes"
  | "n"
  | "totalEntries"
  | "listHash"
  | "merkleRoot"
  | "beaconRound"
  | "randomness"
  | "signature"
  | "winners";

export interface CommitmentReport {
  verified: boolean;
  drawn: boolean;
  mismatches: { kind: CommitmentMismatchKind; detail: string }[];
}

/** How the checker reads the list: all of it once, then single blocks back for the winners. */
export interface ListSource {
  chunks(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Bytes [offset, offset + length) of the list (fewer at its end). */
  range(offset: number, length: number): Promise<Uint8Array>;
}

/** The lines of one block of a list, read back through `source`. */
export async function readBlockFrom(source: Pick<ListSource, "range">, block: number): Promise<Entrant[]> {
  const bytes = await source.range(block * BLOCK_LINES * LINE_BYTES, BLOCK_LINES * LINE_BYTES);
  const lines: Entrant[] = [];
  for (let at = 0; at + LINE_BYTES <= bytes.length; at += LINE_BYTES) {
    const entrant = parseLine(bytes.subarray(at, at + LINE_BYTES));
    if (entrant === null) throw new Error(`line ${block * BLOCK_LINES + at / LINE_BYTES} is not a line of the list`);
    lines.push(entrant);
  }
  return lines;
}

const HEX64 = /^[0-9a-f]{64}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** The first field of `value` that is not as Commitment says, or null (no zod: the page's check stays small). */
function formatProblem(value: unknown): string | null {
  const file = value as Partial<Commitment> | null;
  if (typeof file !== "object" || file === null) return "the file is not a JSON object";
  if (file.format !== DRAW_FORMAT_2) return `format is not ${DRAW_FORMAT_2}`;
  if (typeof file.draw !== "string") return "draw is not a draw id";
  const rules = file.rules;
  if (typeof rules !== "object" || rules === null || typeof rules.cutoff !== "string") return "rules are missing";
  for (const key of ["committedAt", "roundAt"] as const)
    if (typeof file[key] !== "string" || !ISO_UTC.test(file[key])) return `${key} is not an ISO 8601 UTC time`;
  const chain = file.chain;
  if (typeof chain !== "object" || chain === null || typeof chain.hash !== "string") return "chain is missing";
  for (const key of ["round", "n", "totalEntries", "listBytes"] as const)
    if (!Number.isSafeInteger(file[key]) || (file[key] as number) < 0) return `${key} is not a whole number`;
  for (const key of ["listHash", "merkleRoot"] as const)
    if (typeof file[key] !== "string" || !HEX64.test(file[key])) return `${key} is not 64 hex characters`;
  if (typeof file.listUrl !== "string") return "listUrl is missing";
  const result = file.result;
  if (result === null) return null;
  if (typeof result !== "object" || typeof result.beacon !== "object" || !Array.isArray(result.winners))
    return "result is neither null nor a result";
  return null;
}

/**
 * Check a format 2 draw against the rules the site publishes, streaming its list once.
 * @param value the parsed commitment (anything: it is checked)
 * @param trusted the chain and the rules the site publishes (content: draw); the file's own are compared with them
 * @param source the list (from a file, or its URL with Range requests)
 * @param options the SHA-256 to hash the list with, each leaf hash as it is made, and `onProgress`: the bytes of the
 *   list read so far, after each chunk
 */
export async function verifyCommitment(
  value: unknown,
  trusted: { chain: DrandChain; rules: DrawRules },
  source: ListSource,
  options: DigestOptions & { onProgress?: (bytes: number) => void } = {},
): Promise<CommitmentReport> {
  const problem = formatProblem(value);
  if (problem) return { verified: false, drawn: false, mismatches: [{ kind: "format", detail: problem }] };
  const file = value as Commitment;
  const mismatches: CommitmentReport["mismatches"] = [];
  const mismatch = (kind: CommitmentMismatchKind, detail: string) => mismatches.push({ kind, detail });
  const { chain, rules } = trusted;

  const claimed = { id: file.draw, cutoff: file.rules.cutoff, winners: file.rules.winners, roundDelayHours: file.rules.roundDelayHours };
  if (
    claimed.id !== rules.id ||
    Date.parse(claimed.cutoff) !== Date.parse(cutoffOf(rules)) ||
    claimed.winners !== rules.winners ||
    claimed.roundDelayHours !== rules.roundDelayHours
  )
    mismatch(
      "rules",
      `the file's rules (draw ${claimed.id}, cut-off ${claimed.cutoff}, ${claimed.winners} winners, ${claimed.roundDelayHours} h) are not the site's (draw ${rules.id}, cut-off ${cutoffOf(rules)}, ${rules.winners} winners, ${rules.roundDelayHours} h)`,
    );
  if (
    file.chain.hash !== chain.hash ||
    file.chain.publicKey !== chain.publicKey ||
    file.chain.period !== chain.period ||
    file.chain.genesis !== chain.genesis
  )
    mismatch("chain", `the file names chain ${file.chain.hash}, the site names ${chain.hash}`);
  const expected = roundOfRules(chain, rules);
  if (file.round !== expected.round || Date.parse(file.roundAt) !== Date.parse(expected.roundAt))
    mismatch("round", `the rules name round ${expected.round} at ${expected.roundAt}, the file round ${file.round} at ${file.roundAt}`);
  else if (Date.parse(file.committedAt) >= Date.parse(file.roundAt) || Date.parse(file.committedAt) < Date.parse(cutoffOf(rules)))
    mismatch("round", `the commitment at ${file.committedAt} is not between the cut-off and round ${file.round} at ${file.roundAt}`);

  const digest = await digestList(source.chunks(), options);
  if (digest.badLine !== null) mismatch("list", `line ${digest.badLine} is not a line of the list, or is out of order or repeated`);
  if (digest.bytes !== file.listBytes) mismatch("listBytes", `the list has ${digest.bytes} bytes, the commitment says ${file.listBytes}`);
  if (digest.n !== file.n) mismatch("n", `the list has ${digest.n} lines, the commitment says ${file.n}`);
  if (digest.totalEntries !== file.totalEntries)
    mismatch("totalEntries", `the list has ${digest.totalEntries} entries, the commitment says ${file.totalEntries}`);
  if (digest.listHash !== file.listHash)
    mismatch("listHash", `the list's SHA-256 is ${digest.listHash}, the commitment says ${file.listHash}`);
  if (digest.merkleRoot !== file.merkleRoot)
    mismatch("merkleRoot", `the list's Merkle root is ${digest.merkleRoot}, the commitment says ${file.merkleRoot}`);

  if (file.result) {
    const { beacon, winners } = file.result;
    for (const kind of await beaconProblems(chain, beacon, file.round)) {
      if (kind === "round") mismatch("beaconRound", `the beacon is round ${beacon.round}, the commitment names round ${file.round}`);
      if (kind === "randomness") mismatch("randomness", `round ${beacon.round}'s randomness is not the SHA-256 of its signature`);
      if (kind === "signature")
        mismatch("signature", `round ${beacon.round}'s signature is not valid under chain ${chain.hash}'s public key`);
    }
    if (digest.badLine === null) {
      const drawn = await streamWinners(beacon.randomness, digest.sums, (block) => readBlockFrom(source, block), rules.winners);
      const said = winners.map((w) => `${w.pseudonym}@${w.index}:${w.entries}`).join(", ");
      const found = drawn.map((w) => `${w.pseudonym}@${w.index}:${w.entries}`).join(", ");
      if (said !== found) mismatch("winners", `the round draws ${found || "nobody"}, the file says ${said || "nobody"}`);
    }
  }
  return { verified: mismatches.length === 0, drawn: file.result !== null, mismatches };
}

/** A list held in memory as a ListSource (the Worker's tests, a small file). */
export function bytesSource(bytes: Uint8Array, chunkBytes = 64 * 1024): ListSource {
  return {
    *chunks() {
      for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
    },
    range: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}
