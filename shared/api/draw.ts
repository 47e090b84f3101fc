/**
 * The console's giveaway draw (POST /api/console/draw/commit, shared/giveaway/commit.ts) as zod schemas: the request
 * that closes a draw and its 201 answer, the draw file of the commitment (shared/giveaway/draw-file.ts).
 */
import { z } from "zod";
import { DEFAULT_DELAY_MINUTES } from "../giveaway/commit";
import { DRAW_FORMAT } from "../giveaway/draw-file";
import { AuditEntry } from "./console";

/**
 * What an operator asks for when closing a draw. Only the members' types are checked here; their values are
 * checkCommitRequest's (its COMMIT_REFUSAL codes), which the command line runs too.
 */
export const CommitRequest = z.strictObject(
  {
    /** The draw's id (DRAW_ID_PATTERN), e.g. `launch`. */
    draw: z.string(),
    /** How many winners the draw will name, at least 1. */
    winners: z.number(),
    /** The rules' cut-off, ISO 8601 with its offset: who had confirmed by then, with the referrals credited by then. */
    cutoff: z.string(),
    /** Minutes from now until the committed round is published: time to publish the commitment first. */
    delayMinutes: z.number().default(DEFAULT_DELAY_MINUTES),
  },
  { error: 'Send { "draw": "<id>", "winners": <number>, "cutoff": "<ISO 8601>", "delayMinutes"?: <number> }.' },
);
/** A request with its delay (DEFAULT_DELAY_MINUTES when the body has none). */
export type CommitRequest = z.output<typeof CommitRequest>;

const Hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

/** The 201 answer: the draw file of the commitment, not drawn yet (`result` null), to publish as it is. */
export const DrawCommitment = z.object({
  format: z.literal(DRAW_FORMAT),
  draw: z.string(),
  winnerCount: z.int().min(1),
  cutoff: z.string(),
  committedAt: z.string(),
  chain: z.object({ hash: Hex(64), publicKey: z.string(), period: z.number(), genesis: z.number() }),
  round: z.int().min(1),
  roundAt: z.string(),
  listHash: Hex(64),
  entrants: z.array(z.object({ pseudonym: z.string(), entries: z.int().min(1) })),
  result: z.null(),
});
export type DrawCommitment = z.infer<typeof DrawCommitment>;

/** POST /api/console/draw/run: the draw file once drawn (`npm run waitlist -- draw run`), its result beside the commitment. */
export const DrawnFile = DrawCommitment.extend({
  result: z.object({
    beacon: z.object({ round: z.int().min(1), randomness: Hex(64), signature: z.string() }),
    winners: z.array(z.string()),
    drawnAt: z.string(),
  }),
});
export type DrawnFile = z.infer<typeof DrawnFile>;

/** The 201 answer to a drawn file: the `draw_run` audit entry written. */
export const DrawRunAnswer = z.object({ audit: AuditEntry });
export type DrawRunAnswer = z.infer<typeof DrawRunAnswer>;
