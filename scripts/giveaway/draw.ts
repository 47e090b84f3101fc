/**
 * The giveaway draw from the operator's terminal (`npm run waitlist -- draw commit|run`, docs/operators.md: "The giveaway draw"):
 * commit asks the console API to freeze the eligible entrants at the cut-off with their SHA-256 and a future drand
 * round, and writes the draw file it answers; run fetches that round, checks it, adds the winners and has the console
 * API log the result. The Worker writes both audit entries, under the identity Access gives; neither step reads a name
 * or an address.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommitRequest, DrawRunAnswer } from "../../shared/api/draw";
import { beaconProblems, fetchBeacon } from "../../shared/giveaway/beacon";
import type { DrandChain } from "../../shared/giveaway/chains";
import { COMMIT_REFUSAL, CommitRefused, DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, drawText } from "../../shared/giveaway/commit";
import { serialiseDraw, type DrawFile } from "../../shared/giveaway/draw-file";
import { verifyDraw } from "../../shared/giveaway/verify";
import { drawWinners } from "../../shared/giveaway/winners";
import { type ConsoleTarget, postJson } from "../service/console-client";

/** The test clock's environment variable: an ISO 8601 time the draw takes as now, honoured only under NODE_ENV=test. */
export const TEST_CLOCK_VARIABLE = "WAITLIST_TEST_NOW";

/**
 * Now for the draw's run, ms since the epoch: the machine's clock (a commitment takes the Worker's). Only the tests
 * (NODE_ENV=test, as Jest runs) replay recorded drand rounds, which are in the past, and set TEST_CLOCK_VARIABLE.
 * @throws Error when the test clock is set but is not an ISO 8601 time
 */
export function drawClockMs(): number {
  const test = process.env.NODE_ENV === "test" ? process.env[TEST_CLOCK_VARIABLE] : undefined;
  if (test === undefined) return Date.now();
  const ms = Date.parse(test);
  if (Number.isNaN(ms)) throw new Error(`${TEST_CLOCK_VARIABLE} takes an ISO 8601 time, not ${JSON.stringify(test)}.`);
  return ms;
}

export interface CommitOptions {
  /** The console API that commits (the Worker's clock and its D1). */
  target: ConsoleTarget;
  request: CommitRequest;
  out: string;
}

/**
 * Close a draw through the console API (worker/src/draw/commit.ts, as the console's button does): the Worker freezes
 * the eligible entrants, commits to a future round and writes the audit entry; the answer is written to `out`.
 * @returns the written draw file
 * @throws CommitRefused when `out` exists already; ConsoleApiError for the API's refusal (a draw committed already,
 *   entries still open, a malformed request)
 */
export async function commitDraw(options: CommitOptions): Promise<DrawFile> {
  const { target, request, out } = options;
  if (existsSync(out))
    throw new CommitRefused(
      COMMIT_REFUSAL.alreadyCommitted,
      `${out} exists: a draw is committed once, and its commitment is never replaced.`,
    );
  const file = await postJson<DrawFile>(target, DRAW_COMMIT_ENDPOINT, request);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, drawText(file), { flag: "wx" });
  return file;
}

export interface RunOptions {
  /** The console API that records the result. */
  target: ConsoleTarget;
  chain: DrandChain;
  relayUrl: string;
  nowMs: number;
  file: string;
}

/**
 * Draw the winners of a committed draw: fetch its round, check the round's signature, derive the winners, have the
 * console API log them (it checks the file against the commitment it logged), then write them beside the commitment.
 * @returns the written draw file
 * @throws Error when the draw is already drawn, its commitment does not verify, its round is not yet published, or the
 *   relay's round does not verify; ConsoleApiError when the API refuses the result (nothing is written then)
 */
export async function runDraw(options: RunOptions): Promise<DrawFile> {
  const file = JSON.parse(await readFile(options.file, "utf8")) as DrawFile;
  if (file.result) throw new Error(`Draw ${file.draw} is already drawn: its winners are never drawn again.`);
  const commitment = await verifyDraw(file, options.chain);
  if (!commitment.verified)
    throw new Error(`The commitment does not verify:\n${commitment.mismatches.map((m) => `  ${m.kind}: ${m.detail}`).join("\n")}`);
  if (options.nowMs < Date.parse(file.roundAt))
    throw new Error(`Round ${file.round} is published at ${file.roundAt}: run the draw after that.`);
  const beacon = await fetchBeacon(options.relayUrl, options.chain, file.round);
  const problems = await beaconProblems(options.chain, beacon, file.round);
  if (problems.length > 0)
    throw new Error(`The relay's round ${file.round} is refused (${problems.join(", ")} does not verify): nothing was drawn.`);
  const winners = await drawWinners(beacon.randomness, file.entrants, file.winnerCount);
  const drawn: DrawFile = { ...file, result: { beacon, winners, drawnAt: new Date(options.nowMs).toISOString() } };
  const report = await verifyDraw(drawn, options.chain);
  if (!report.verified) throw new Error(`The drawn file does not verify: ${report.mismatches.map((m) => m.detail).join("; ")}`);
  await postJson<DrawRunAnswer>(options.target, DRAW_RUN_ENDPOINT, drawn);
  await writeFile(options.file, serialiseDraw(drawn));
  return drawn;
}
