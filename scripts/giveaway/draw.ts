/**
 * The giveaway draw from the operator's terminal (`npm run waitlist -- draw commit|run`, README: "The giveaway draw"):
 * commit freezes the eligible entrants at the cut-off into the draw file with its SHA-256 and a future drand round;
 * run fetches that round, checks it and adds the winners. Each writes an audit_log entry; neither reads a name or an
 * address (only referral codes, turned into pseudonyms here).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { entriesOf } from "../../worker/src/referrals/standing";
import { beaconProblems, fetchBeacon, firstRoundAfter, roundTimeMs, type DrandChain } from "../../shared/giveaway/beacon";
import {
  DRAW_FORMAT,
  DRAW_ID_PATTERN,
  listHashOf,
  pseudonymOf,
  serialiseDraw,
  sortEntrants,
  type DrawFile,
  type Entrant,
} from "../../shared/giveaway/draw-file";
import { verifyDraw } from "../../shared/giveaway/verify";
import { drawWinners } from "../../shared/giveaway/winners";
import { d1Query, type D1Target } from "../lib/wrangler";

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
  drawId: string;
  winnerCount: number;
  /** ISO 8601: who had confirmed by then, with the referrals credited by then. */
  cutoff: string;
  /** How long after now the round is published, ms: time to publish the commitment before it. */
  delayMs: number;
  nowMs: number;
  operator: string;
  out: string;
}

/**
 * Freeze the eligible entrants and commit to them and a future round.
 * Eligible: confirmed at or before the cut-off, not disqualified (an erased person has no row). Entries:
 * 1 + entriesPerReferral × the referrals credited at or before the cut-off.
 * @returns the written draw file
 * @throws Error when the draw is already committed (its file exists, or the audit log has it), entries are still open
 *   at `nowMs`, or two entrants share a pseudonym
 */
export async function commitDraw(options: CommitOptions): Promise<DrawFile> {
  const { where, chain, drawId, out } = options;
  if (!DRAW_ID_PATTERN.test(drawId))
    throw new Error(`--draw takes lower-case letters, digits and -, starting with a letter (like launch), not ${JSON.stringify(drawId)}.`);
  if (!Number.isSafeInteger(options.winnerCount) || options.winnerCount < 1)
    throw new Error("--winners takes a whole number of 1 or more.");
  const cutoffMs = Date.parse(options.cutoff);
  if (Number.isNaN(cutoffMs))
    throw new Error(`--cutoff takes an ISO 8601 time with its offset, like 2026-12-01T00:00:00Z, not ${JSON.stringify(options.cutoff)}.`);
  const cutoff = new Date(cutoffMs).toISOString();
  if (cutoffMs > options.nowMs) throw new Error(`Entries are open until ${cutoff}: commit the draw after the cut-off.`);
  if (existsSync(out)) throw new Error(`${out} exists: a draw is committed once, and its commitment is never replaced.`);
  const [{ committed }] = await d1Query<{ committed: number }>(
    where,
    `SELECT count(*) AS committed FROM audit_log WHERE action = 'draw_commit' AND json_extract(after, '$.draw') = ${sqlText(drawId)}`,
  );
  if (committed > 0) throw new Error(`Draw ${drawId} is already committed (audit_log): its commitment is never replaced.`);

  const rows = await d1Query<{ referral_code: string | null; referrals: number }>(
    where,
    "SELECT s.referral_code, s.referrals - (SELECT count(*) FROM signups r WHERE r.referred_by = s.id AND r.referral_counted_at > " +
      `${sqlText(cutoff)}) AS referrals FROM signups s WHERE s.confirmed_at IS NOT NULL AND s.confirmed_at <= ${sqlText(cutoff)} ` +
      "AND s.disqualified_at IS NULL",
  );
  const entrants: Entrant[] = [];
  for (const row of rows) {
    if (!row.referral_code) throw new Error("An eligible person has no referral code, so no pseudonym: run the migrations first.");
    entrants.push({
      pseudonym: await pseudonymOf(drawId, row.referral_code),
      entries: entriesOf(Math.max(0, row.referrals), options.entriesPerReferral),
    });
  }
  if (new Set(entrants.map((entrant) => entrant.pseudonym)).size !== entrants.length) {
    throw new Error(`Two entrants share a pseudonym in draw ${drawId}: commit under another draw id.`);
  }
  const round = firstRoundAfter(chain, options.nowMs, options.delayMs);
  const file: DrawFile = {
    format: DRAW_FORMAT,
    draw: drawId,
    winnerCount: options.winnerCount,
    cutoff,
    committedAt: new Date(options.nowMs).toISOString(),
    chain,
    round,
    roundAt: new Date(roundTimeMs(chain, round)).toISOString(),
    listHash: await listHashOf(entrants),
    entrants: sortEntrants(entrants),
    result: null,
  };
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, serialiseDraw(file), { flag: "wx" });
  try {
    const total = entrants.reduce((sum, { entries }) => sum + entries, 0);
    await audit(where, {
      operator: options.operator,
      action: "draw_commit",
      reason: `Entries closed at ${cutoff}: the list of ${entrants.length} entrants and drand round ${round} committed.`,
      before: null,
      after: {
        draw: drawId,
        listHash: file.listHash,
        round,
        roundAt: file.roundAt,
        entrants: entrants.length,
        entries: total,
        winnerCount: file.winnerCount,
        cutoff,
      },
    });
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
