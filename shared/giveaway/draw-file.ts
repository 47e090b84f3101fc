/**
 * Format 1 of a giveaway draw (`pickfund-giveaway-draw/1`): one file holding the commitment and every entrant, as
 * draws were published before format 2 (commitment.ts). Its type, canonical list and SHA-256 stay so that such a file
 * still verifies (verify.ts); the pseudonym rule and the entrant type are both formats'. docs/operators.md: "The
 * giveaway draw".
 */
import type { Beacon } from "./beacon";
import type { DrandChain } from "./chains";
import { sha256, toHex } from "./bytes";

// The pseudonym rule is the draw file's too; it lives apart so that the draw page loads it alone.
export { PSEUDONYM_HEX_CHARS, pseudonymOf } from "./pseudonym";

/** The `format` a draw file carries; a file in another format is refused. */
export const DRAW_FORMAT = "pickfund-giveaway-draw/1";

/** The `format` of a format 2 commitment (commitment.ts). */
export const DRAW_FORMAT_2 = "pickfund-giveaway-draw/2";

/** A draw's id: lower-case letters, digits and `-`, starting with a letter (it is part of every pseudonym). */
export const DRAW_ID_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** One eligible entrant: who, by pseudonym only, and how many entries (1 + entriesPerReferral × referrals). */
export interface Entrant {
  pseudonym: string;
  entries: number;
}

/** The outcome, added by `draw run`. */
export interface DrawResult {
  /** The committed round as the relay served it (checked before it was written). */
  beacon: Beacon;
  /** The winners' pseudonyms in the order drawn. */
  winners: string[];
  /** When the draw ran, ISO 8601 UTC. */
  drawnAt: string;
}

/** A draw file: the commitment, then (once drawn) the result beside it. */
export interface DrawFile {
  format: typeof DRAW_FORMAT;
  /** The draw's id (DRAW_ID_PATTERN). */
  draw: string;
  /** How many winners are drawn (fewer when there are fewer entrants). */
  winnerCount: number;
  /** The rules' cut-off: who had confirmed by then, with the referrals credited by then. ISO 8601 UTC. */
  cutoff: string;
  /** When the commitment was made, ISO 8601 UTC. */
  committedAt: string;
  chain: DrandChain;
  /** The drand round whose randomness draws the winners: published after committedAt. */
  round: number;
  /** When that round is published, ISO 8601 UTC (from the chain's genesis and period). */
  roundAt: string;
  /** SHA-256 of canonicalList(entrants), 64 hex characters. */
  listHash: string;
  /** Every eligible entrant, sorted by pseudonym. */
  entrants: Entrant[];
  /** null until drawn. */
  result: DrawResult | null;
}

/** Entrants in the canonical order: by pseudonym, ascending (pseudonyms are lower-case hex, so any sort agrees). */
export function sortEntrants(entrants: readonly Entrant[]): Entrant[] {
  return [...entrants].sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : a.pseudonym > b.pseudonym ? 1 : 0));
}

/**
 * The canonical list the commitment hashes: one line per entrant in canonical order, `<pseudonym> <entries>\n`, UTF-8,
 * nothing else (so `sha256sum` of the text equals listHash).
 */
export function canonicalList(entrants: readonly Entrant[]): string {
  return sortEntrants(entrants)
    .map(({ pseudonym, entries }) => `${pseudonym} ${entries}\n`)
    .join("");
}

/** SHA-256 of the canonical list, 64 hex characters. */
export async function listHashOf(entrants: readonly Entrant[]): Promise<string> {
  return toHex(await sha256(canonicalList(entrants)));
}

/** The canonical text of a draw file: two-space JSON with the fields in DrawFile's order and a final newline. */
export function serialiseDraw(file: DrawFile): string {
  const ordered: DrawFile = {
    format: file.format,
    draw: file.draw,
    winnerCount: file.winnerCount,
    cutoff: file.cutoff,
    committedAt: file.committedAt,
    chain: { hash: file.chain.hash, publicKey: file.chain.publicKey, period: file.chain.period, genesis: file.chain.genesis },
    round: file.round,
    roundAt: file.roundAt,
    listHash: file.listHash,
    entrants: file.entrants.map(({ pseudonym, entries }) => ({ pseudonym, entries })),
    result: file.result && {
      beacon: { round: file.result.beacon.round, randomness: file.result.beacon.randomness, signature: file.result.beacon.signature },
      winners: [...file.result.winners],
      drawnAt: file.result.drawnAt,
    },
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
