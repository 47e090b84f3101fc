/**
 * The giveaway draw's documents as zod schemas: the console's request that commits a draw (POST
 * /api/console/draw/commit) and the draw's state it answers (GET /api/console/draw), the format 2 commitment published
 * at /giveaway/draw/<id>/draw.json (shared/giveaway/commitment.ts), and a person's place in it (GET /api/status/draw).
 */
import { z } from "zod";
import { DRAW_FORMAT_2 } from "../giveaway/draw-file";

/**
 * What an operator asks for when committing a draw: the rules as they read them. Only the members' types are checked
 * here; their values are checkCommitRequest's (its COMMIT_REFUSAL codes), against the rules the site publishes.
 */
export const CommitRequest = z.strictObject(
  {
    /** The draw's id (DRAW_ID_PATTERN), e.g. `launch`: the rules' `draw.id`. */
    draw: z.string(),
    /** How many winners the draw names: the rules' `draw.winners`. */
    winners: z.number(),
    /** The rules' cut-off, ISO 8601 with its offset: the rules' `draw.cutoff`. */
    cutoff: z.string(),
  },
  { error: 'Send { "draw": "<id>", "winners": <number>, "cutoff": "<ISO 8601>" }, as the published rules say.' },
);
export type CommitRequest = z.output<typeof CommitRequest>;

const Hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

/** A drand chain as a draw names it. */
const Chain = z.object({ hash: Hex(64), publicKey: Hex(192), period: z.int().min(1), genesis: z.int() });

/** A winner: their pseudonym, their line's index (0-based) and entries. */
export const DrawWinner = z.object({ pseudonym: Hex(16), index: z.int().min(0), entries: z.int().min(1) });

/** The format 2 commitment: a few KB at any size; the list is published apart (listUrl). */
export const Commitment = z.object({
  format: z.literal(DRAW_FORMAT_2),
  /** The draw's id. */
  draw: z.string(),
  /** The rules, as the site published them before entries closed. */
  rules: z.object({ cutoff: z.string(), winners: z.int().min(1), roundDelayHours: z.int().min(1) }),
  /** When the list and this commitment were published, ISO 8601 UTC: before roundAt. */
  committedAt: z.string(),
  chain: Chain,
  /** The rules' round: the first published at or after cutoff + roundDelayHours. */
  round: z.int().min(1),
  roundAt: z.string(),
  /** Lines of the list (entrants). */
  n: z.int().min(0),
  /** Entries over all lines. */
  totalEntries: z.int().min(0),
  /** SHA-256 of the list file's bytes, hex. */
  listHash: Hex(64),
  /** RFC 6962 Merkle root over the list's lines (each without its newline), hex. */
  merkleRoot: Hex(64),
  /** The list's address on the site's origin. */
  listUrl: z.string(),
  listBytes: z.int().min(0),
  /** Once drawn: the round as the relay served it, the winners in the order drawn, and when. */
  result: z
    .object({
      beacon: z.object({ round: z.int().min(1), randomness: Hex(64), signature: z.string() }),
      winners: z.array(DrawWinner),
      drawnAt: z.string(),
    })
    .nullable(),
});
export type Commitment = z.infer<typeof Commitment>;

/** Where the commitment job is (`draws.state`). */
export const DRAW_STATES = ["listing", "writing", "publishing", "published", "drawn", "failed"] as const;

/** GET /api/console/draw and the 202 of a commit: the published rules and the draw's job, if any. */
export const DrawState = z.object({
  rules: z.object({
    draw: z.string(),
    cutoff: z.string(),
    winners: z.int(),
    roundDelayHours: z.int(),
    round: z.int(),
    roundAt: z.string(),
  }),
  job: z
    .object({
      state: z.enum(DRAW_STATES),
      operator: z.string(),
      requestedAt: z.string(),
      /** Eligible people read so far, lines written so far. */
      eligible: z.int(),
      written: z.int(),
      failure: z.string().nullable(),
      commitment: Commitment.nullable(),
    })
    .nullable(),
});
export type DrawState = z.infer<typeof DrawState>;

/** GET /api/status/draw: the person's place in the published draw and the proof of it. */
export const DrawPlace = z.object({
  draw: z.string(),
  /** Their secret ticket: sha256("<draw>:<ticket>")'s first 16 hex characters are their pseudonym. */
  ticket: Hex(32),
  pseudonym: Hex(16),
  /** Their line's index in the list (0-based) and its entries. */
  index: z.int().min(0),
  entries: z.int().min(1),
  /** The RFC 6962 audit path of their line, bottom first, hex. */
  path: z.array(Hex(64)),
  n: z.int().min(1),
  merkleRoot: Hex(64),
  listUrl: z.string(),
});
export type DrawPlace = z.infer<typeof DrawPlace>;
