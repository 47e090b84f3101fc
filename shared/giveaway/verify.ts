/**
 * Checking a format 1 draw from its file alone: the commitment's hash against the list, the round's time against
 * the commitment, the round's BLS signature against the chain's public key, and the winners recomputed.
 * `scripts/giveaway/verify.ts` runs this for a format 1 file (format 2: commitment.ts).
 */
import { beaconProblems, roundTimeMs } from "./beacon";
import type { DrandChain } from "./chains";
import { DRAW_FORMAT, DRAW_ID_PATTERN, listHashOf, type DrawFile } from "./draw-file";
import { drawWinners } from "./winners";

/**
 * What can fail to match, one word each (the page shows content's sentence for each):
 * - format: the file is not a draw file of DRAW_FORMAT (detail says which field)
 * - chain: the file names another drand chain than the site's
 * - round: the round is not published after the commitment, or its published time is misstated
 * - listHash: the list's SHA-256 is not the committed hash
 * - beaconRound: the round served is not the committed round
 * - randomness: the round's randomness is not sha256(signature)
 * - signature: the round's signature is not valid under the chain's public key
 * - winners: the winners are not the ones the round's randomness draws from the list
 */
export type MismatchKind = "format" | "chain" | "round" | "listHash" | "beaconRound" | "randomness" | "signature" | "winners";

export interface Mismatch {
  kind: MismatchKind;
  /** What differs, in English, with the values (for the terminal). */
  detail: string;
}

export interface DrawReport {
  /** True when nothing mismatches. */
  verified: boolean;
  /** True when the file carries a result (winners and round). */
  drawn: boolean;
  mismatches: Mismatch[];
}

const HEX64 = /^[0-9a-f]{64}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** The first field of `value` that is not as DrawFile says, or null. */
function formatProblem(value: unknown): string | null {
  const file = value as Partial<DrawFile> | null;
  if (typeof file !== "object" || file === null) return "the file is not a JSON object";
  if (file.format !== DRAW_FORMAT) return `format is not ${DRAW_FORMAT}`;
  if (typeof file.draw !== "string" || !DRAW_ID_PATTERN.test(file.draw)) return "draw is not a draw id";
  if (!Number.isSafeInteger(file.winnerCount) || (file.winnerCount as number) < 1) return "winnerCount is not a whole number of 1 or more";
  for (const key of ["cutoff", "committedAt", "roundAt"] as const) {
    if (typeof file[key] !== "string" || !ISO_UTC.test(file[key])) return `${key} is not an ISO 8601 UTC time`;
  }
  const chain = file.chain;
  if (typeof chain !== "object" || chain === null) return "chain is missing";
  if (typeof chain.hash !== "string" || !HEX64.test(chain.hash)) return "chain.hash is not 64 hex characters";
  if (typeof chain.publicKey !== "string" || !/^[0-9a-f]{192}$/.test(chain.publicKey)) return "chain.publicKey is not 192 hex characters";
  if (!Number.isSafeInteger(chain.period) || chain.period < 1) return "chain.period is not a whole number of seconds";
  if (!Number.isSafeInteger(chain.genesis)) return "chain.genesis is not a Unix time in seconds";
  if (!Number.isSafeInteger(file.round) || (file.round as number) < 1) return "round is not a round number";
  if (typeof file.listHash !== "string" || !HEX64.test(file.listHash)) return "listHash is not 64 hex characters";
  if (!Array.isArray(file.entrants)) return "entrants is not a list";
  let previous = "";
  for (const [index, entrant] of file.entrants.entries()) {
    if (typeof entrant?.pseudonym !== "string" || !/^[0-9a-f]{16}$/.test(entrant.pseudonym))
      return `entrants[${index}].pseudonym is not 16 hex characters`;
    if (!Number.isSafeInteger(entrant.entries) || entrant.entries < 1)
      return `entrants[${index}].entries is not a whole number of 1 or more`;
    if (entrant.pseudonym <= previous) return `entrants[${index}] is out of order or repeated (the list is sorted by pseudonym, each once)`;
    previous = entrant.pseudonym;
  }
  const result = file.result;
  if (result === null) return null;
  if (typeof result !== "object") return "result is neither null nor a result";
  const beacon = result.beacon;
  if (typeof beacon !== "object" || beacon === null) return "result.beacon is missing";
  if (!Number.isSafeInteger(beacon.round)) return "result.beacon.round is not a round number";
  if (typeof beacon.randomness !== "string" || !HEX64.test(beacon.randomness)) return "result.beacon.randomness is not 64 hex characters";
  if (typeof beacon.signature !== "string" || !/^[0-9a-f]+$/.test(beacon.signature)) return "result.beacon.signature is not hex";
  if (!Array.isArray(result.winners) || !result.winners.every((winner) => typeof winner === "string"))
    return "result.winners is not a list of pseudonyms";
  if (typeof result.drawnAt !== "string" || !ISO_UTC.test(result.drawnAt)) return "result.drawnAt is not an ISO 8601 UTC time";
  return null;
}

/**
 * Check a draw file.
 * @param value the parsed JSON of a draw file (anything: it is checked)
 * @param trustedChain the chain the site names (content: draw.chain); the file's own chain is compared with it, so a
 *   file cannot bring its own key
 * @returns a report naming every mismatch; verified only when there is none
 */
export async function verifyDraw(value: unknown, trustedChain: DrandChain): Promise<DrawReport> {
  const problem = formatProblem(value);
  if (problem) return { verified: false, drawn: false, mismatches: [{ kind: "format", detail: problem }] };
  const file = value as DrawFile;
  const mismatches: Mismatch[] = [];
  const mismatch = (kind: MismatchKind, detail: string) => mismatches.push({ kind, detail });

  const { chain } = file;
  if (
    chain.hash !== trustedChain.hash ||
    chain.publicKey !== trustedChain.publicKey ||
    chain.period !== trustedChain.period ||
    chain.genesis !== trustedChain.genesis
  ) {
    mismatch(
      "chain",
      `the file names chain ${chain.hash}, the site names ${trustedChain.hash} (hash, public key, period and genesis must all match)`,
    );
  }
  const roundAtMs = roundTimeMs(trustedChain, file.round);
  if (new Date(roundAtMs).toISOString() !== new Date(file.roundAt).toISOString()) {
    mismatch("round", `round ${file.round} is published at ${new Date(roundAtMs).toISOString()}, not ${file.roundAt}`);
  } else if (roundAtMs <= Date.parse(file.committedAt)) {
    mismatch("round", `round ${file.round} was published at ${file.roundAt}, before the commitment at ${file.committedAt}`);
  }
  const listHash = await listHashOf(file.entrants);
  if (listHash !== file.listHash) mismatch("listHash", `the list's SHA-256 is ${listHash}, the commitment says ${file.listHash}`);

  if (file.result) {
    const { beacon, winners } = file.result;
    for (const kind of await beaconProblems(trustedChain, beacon, file.round)) {
      if (kind === "round") mismatch("beaconRound", `the beacon is round ${beacon.round}, the commitment names round ${file.round}`);
      if (kind === "randomness") mismatch("randomness", `round ${beacon.round}'s randomness is not the SHA-256 of its signature`);
      if (kind === "signature")
        mismatch("signature", `round ${beacon.round}'s signature is not valid under chain ${trustedChain.hash}'s public key`);
    }
    const expected = await drawWinners(beacon.randomness, file.entrants, file.winnerCount);
    if (expected.join(",") !== winners.join(",")) {
      mismatch("winners", `the round draws ${expected.join(", ") || "nobody"}, the file says ${winners.join(", ") || "nobody"}`);
    }
  }
  return { verified: mismatches.length === 0, drawn: file.result !== null, mismatches };
}
