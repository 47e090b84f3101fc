/**
 * The giveaway draw from the operator's terminal (`npm run waitlist -- draw commit|run`, docs/operators.md: "The
 * giveaway draw"), through the console's API like the console's button: the Worker checks the request against the
 * rules the site publishes and its own clock, the operator is the Access identity (or `npm start`'s local operator),
 * and nothing here reads a database or sets a time.
 */
import type { Commitment, DrawState } from "../../shared/api/draw";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, DRAW_STATE_ENDPOINT } from "../../shared/giveaway/commit";
import { callConsole, type ConsoleTarget, postJson } from "../service/console-client";

/** How often `draw commit` asks for the job's progress (ms). */
export const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Commit the rules' draw and wait for its list to be published, printing the job's progress.
 * @param rules the draw, cut-off and winners the operator read in the content (the Worker compares them with its own)
 * @returns the published commitment
 * @throws ConsoleApiError when the Worker refuses (its code and detail); Error when the job fails
 */
export async function commitDraw(
  target: ConsoleTarget,
  rules: { draw: string; cutoff: string; winners: number },
  progress: (line: string) => void,
  waitMs = PROGRESS_INTERVAL_MS,
): Promise<Commitment> {
  let state = await postJson<DrawState>(target, DRAW_COMMIT_ENDPOINT, rules);
  progress(`Committing draw ${state.rules.draw} (drand round ${state.rules.round}, published ${state.rules.roundAt}).`);
  for (;;) {
    const job = state.job;
    if (job?.state === "failed") throw new Error(`The commitment job stopped: ${job.failure ?? "unknown"}.`);
    if (job?.commitment) return job.commitment;
    if (job) progress(`  ${job.state}: ${job.eligible} eligible read, ${job.written} lines written`);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    state = await callConsole<DrawState>(target, DRAW_STATE_ENDPOINT);
  }
}

/**
 * Draw the winners of the committed draw once its round is published.
 * @throws ConsoleApiError when the Worker refuses (not published, round not out, drawn already, a round that does not verify)
 */
export function runDraw(target: ConsoleTarget): Promise<Commitment> {
  return callConsole<Commitment>(target, DRAW_RUN_ENDPOINT, { method: "POST" });
}
