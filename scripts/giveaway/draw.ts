/**
 * The giveaway draw from the operator's terminal (`npm run waitlist -- draw commit|run`, docs/operators.md: "The giveaway draw"):
 * commit freezes the eligible entrants at the cut-off into the draw file with its SHA-256 and a future drand round;
 * run fetches that round, checks it and adds the winners. Each writes an audit_log entry; neither reads a name or an
 * address (only referral codes, turned into pseudonyms here).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beaconProblems, fetchBeacon } from "../../shared/giveaway/beacon";
import type { DrandChain } from "../../shared/giveaway/chains";
import { checkCommitRequest, COMMIT_REFUSAL, commitAudit, commitmentOf, CommitRefused, drawText } from "../../shared/giveaway/commit";
import { serialiseDraw, type DrawFile } from "../../shared/giveaway/draw-file";
import { DRAW_COMMITTED_SQL, ELIGIBLE_ENTRANTS_SQL, eligibleEntrantsOf, type EligibleRow } from "../../worker/src/draw/entrants";
import { verifyDraw } from "../../shared/giveaway/verify";
import { drawWinners } from "../../shared/giveaway/winners";
import { d1Query, type D1Target } from "../lib/wrangler";
import type { CommitRequest } from "../../shared/api/draw";

/** The test clock's environment variable: an ISO 8601 time the draw takes as now, honoured only under NODE_ENV=test. */
export const TEST_CLOCK_VARIABLE = "WAITLIST_TEST_NOW";

/**
 * Now for the draw, ms since the epoch: the machine's clock. A commitment must name a round nobody can know yet, so an
 * operator has no way to set another time; only the tests (NODE_ENV=test, as Jest runs) replay recorded drand rounds,
 * which are in the past, and set TEST_CLOCK_VARIABLE.
 * @throws Error when the test clock is set but is not an ISO 8601 time
 */
export function drawClockMs(): number {
  const test = process.env.NODE_ENV === "test" ? process.env[TEST_CLOCK_VARIABLE] : undefined;
  if (test === undefined) return Date.now();
  const ms = Date.parse(test);
  if (Number.isNaN(ms)) throw new Error(`${TEST_CLOCK_VARIABLE} takes an ISO 8601 time, not ${JSON.stringify(test)}.`);
  return ms;
}

/** A text as an SQL string literal (single quotes doubled): the CLI's own values only, never a visitor's. */
function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The operator: --operator, else git's user.email. @throws Error when neither names one */
export function operatorOf(flag: string | undefined): string {
  if (flag) return flag;
  try {
    const email = execFileSync("git", ["config", "user.email"], { encoding: "utf8" }).trim();
    if (email) return email;
  } catch {
    // no git, or no user.email: asked for below
  }
  throw new Error("Name the operator: --operator you@example.com (or set git config user.email).");
}

/** Append one audit_log row (no person: a draw concerns everyone). */
async function audit(
  where: D1Target,
  entry: { operator: string; action: string; reason: string; before: unknown; after: unknown },
): Promise<void> {
  const json = (value: unknown) => (value === null ? "NULL" : sqlText(JSON.stringify(value)));
  await d1Query(
    where,
    "INSERT INTO audit_log (at, operator, action, person_id, reason, before, after) VALUES (" +
      [
        sqlText(new Date().toISOString()),
        sqlText(entry.operator),
        sqlText(entry.action),
        "NULL",
        sqlText(entry.reason),
        json(entry.before),
        json(entry.after),
      ].join(", ") +
      ")",
  );
}

export interface CommitOptions {
  where: D1Target;
  chain: DrandChain;
  entriesPerReferral: number;
  request: CommitRequest;
  nowMs: number;
  operator: string;
  out: string;
}

/** One of the store's SQL statements with its `?1` as the CLI's own literal (wrangler d1 execute takes no bindings). */
function withLiteral(sql: string, value: string): string {
  return sql.replaceAll("?1", sqlText(value));
}

/**
 * Freeze the eligible entrants (worker/src/draw/entrants.ts) and commit to them and a future round
 * (shared/giveaway/commit.ts, as the console's button does): the draw file, then its audit entry.
 * @returns the written draw file
 * @throws CommitRefused when the request does not check, the draw is already committed (its file exists, or the audit
 *   log has it), or two entrants share a pseudonym
 */
export async function commitDraw(options: CommitOptions): Promise<DrawFile> {
  const { where, chain, request, out } = options;
  const { cutoff } = checkCommitRequest(request, options.nowMs);
  if (existsSync(out))
    throw new CommitRefused(
      COMMIT_REFUSAL.alreadyCommitted,
      `${out} exists: a draw is committed once, and its commitment is never replaced.`,
    );
  const [{ committed }] = await d1Query<{ committed: number }>(where, withLiteral(DRAW_COMMITTED_SQL, request.draw));
  if (committed > 0)
    throw new CommitRefused(
      COMMIT_REFUSAL.alreadyCommitted,
      `Draw ${request.draw} is already committed (audit_log): its commitment is never replaced.`,
    );
  const rows = await d1Query<EligibleRow>(where, withLiteral(ELIGIBLE_ENTRANTS_SQL, cutoff));
  const file = await commitmentOf(request, chain, eligibleEntrantsOf(rows, options.entriesPerReferral), options.nowMs);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, drawText(file), { flag: "wx" });
  try {
    await audit(where, { operator: options.operator, before: null, ...commitAudit(file) });
  } catch (error) {
    // Without its audit entry the commitment is not made: take the file back.
    await rm(out, { force: true });
    throw error;
  }
  return file;
}

export interface RunOptions {
  where: D1Target;
  chain: DrandChain;
  relayUrl: string;
  nowMs: number;
  operator: string;
  file: string;
}

/**
 * Draw the winners of a committed draw: fetch its round, check the round's signature, derive the winners, write them
 * beside the commitment.
 * @returns the written draw file
 * @throws Error when the draw is already drawn, its commitment does not verify, its round is not yet published, or the
 *   relay's round does not verify (nothing is written then)
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
  await audit(options.where, {
    operator: options.operator,
    action: "draw_run",
    reason: `Drand round ${file.round} drew ${winners.length} winners.`,
    before: { draw: file.draw, listHash: file.listHash, round: file.round },
    after: { draw: file.draw, round: beacon.round, randomness: beacon.randomness, winners },
  });
  await writeFile(options.file, serialiseDraw(drawn));
  return drawn;
}
