/**
 * Places in line: a Fenwick (binary indexed) tree over scores in D1 (`rank_tree`), so the rows a position reads grow
 * with log2 of the score domain, not with the number of people. docs/referrals.md: How it works.
 *
 * The order: `score = seq − placesPerReferral × referrals`, smaller first; on an equal score more counted referrals
 * first. An equal score with equal referrals is an equal seq, the same person, so every position is distinct.
 * `position = 1 + the number of people ahead`.
 *
 * The tree: node i counts the people whose tree key is in (i − lowbit(i), i]. Adding someone adds 1 along i,
 * i + lowbit(i), …; the people with a smaller key are the sum along key − 1, key − 1 − lowbit(key − 1), … down to 0.
 *
 * Concurrency: D1 runs one statement or one batch at a time, atomically, while a Worker's separate calls
 * interleave. So every statement here reads the score it needs from the person's row itself (the node walks
 * are recursive CTEs inside the SQL, never values the Worker read earlier; removeCheckedStatement is the one
 * exception, for a caller whose batch proves the scores first), and each change is a list of statements the caller
 * runs as ONE `db.batch([...])`, with its own INSERT or UPDATE if it has one.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";

/**
 * Nodes in the tree. A power of two, so node SCORE_TREE_CAPACITY covers every key (the total is one row read); a walk
 * visits at most log2(SCORE_TREE_CAPACITY) + 1 nodes.
 */
export const SCORE_TREE_CAPACITY = 2 ** 25;

/**
 * Added to a score to make its tree key: half the capacity, so positive and negative scores (a referrer can win more
 * places than their signup order) each get half the nodes. A score beyond MIN_TREE_SCORE … MAX_TREE_SCORE shares the end
 * node with every other score beyond it; positions stay exact (the tie count orders that node's people by score,
 * then referrals), but a lookup there reads every row of that end node, so its cost grows with the people beyond.
 */
export const SCORE_OFFSET = 2 ** 24;

/** The smallest score with a tree node of its own (see SCORE_OFFSET). */
export const MIN_TREE_SCORE = 1 - SCORE_OFFSET;

/** The largest score with a tree node of its own (see SCORE_OFFSET). */
export const MAX_TREE_SCORE = SCORE_TREE_CAPACITY - SCORE_OFFSET;

/** Beyond any score (|score| ≤ seq + placesPerReferral × referrals, far below 2^53): the open end of an end node's range. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** The SQL expression of a score's tree key (the same rule as treeKey()). */
function treeKeySql(score: string): string {
  return `min(max(${score}, ${MIN_TREE_SCORE}), ${MAX_TREE_SCORE}) + ${SCORE_OFFSET}`;
}

/** A score's tree key: score + SCORE_OFFSET, clamped to 1 … SCORE_TREE_CAPACITY. */
export function treeKey(score: number): number {
  return Math.min(Math.max(score, MIN_TREE_SCORE), MAX_TREE_SCORE) + SCORE_OFFSET;
}

/**
 * The tree rows for a set of scores, computed in memory for bulk loading (the bench's seeded database): the same tree
 * the statements below build, in one INSERT instead of one batch per person.
 * @returns [node, count] pairs, nodes ascending, counts > 0
 */
export function treeRows(scores: Iterable<number>): Array<[node: number, count: number]> {
  const counts = new Map<number, number>();
  for (const score of scores) {
    for (let node = treeKey(score); node <= SCORE_TREE_CAPACITY; node += node & -node) counts.set(node, (counts.get(node) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a - b);
}

/**
 * One statement that adds (sign 1) or removes (sign −1) the people the `who` query selects along their update paths.
 * `who` yields one column, the score to walk from, and may use the statement's bound parameters.
 */
function treeChangeSql(who: string): string {
  return `WITH RECURSIVE
  path (node, change) AS (
    SELECT ${treeKeySql("start.score")}, start.change FROM (${who}) AS start
    UNION ALL
    SELECT node + (node & -node), change FROM path WHERE node + (node & -node) <= ${SCORE_TREE_CAPACITY}
  )
INSERT INTO rank_tree (node, count)
SELECT node, sum(change) FROM path GROUP BY node HAVING sum(change) <> 0
ON CONFLICT (node) DO UPDATE SET count = count + excluded.count`;
}

/**
 * The statements that put a newly stored person in line, at score = seq (no referrals yet), for the caller's batch
 * right after its INSERT of the row. Idempotent: a person already in line (score set) is left as they are, so a
 * batch whose INSERT stored nothing (an address already on the list) changes nothing here either.
 * @returns statements to run in this order, in one db.batch() (2 statements)
 */
export function insertStatements(db: D1Database, signupId: string): D1PreparedStatement[] {
  return [
    db.prepare(treeChangeSql("SELECT seq AS score, 1 AS change FROM signups WHERE id = ?1 AND score IS NULL")).bind(signupId),
    db.prepare("UPDATE signups SET score = seq WHERE id = ?1 AND score IS NULL").bind(signupId),
  ];
}

/**
 * Who a credit goes to: the referrer recorded on the referred person's row (written once, at their INSERT), if that
 * referral is not counted yet, is not held for review, neither person is disqualified (a disqualified person's code
 * still links a friend, but earns nothing), the referrer is not the person themselves, and the referrer is in line;
 * with `confirmed`, only when both the referred person and the referrer have confirmed their addresses.
 * Parameter ?1 = the referred person's signups.id.
 */
function creditedReferrer(confirmed: boolean): string {
  return `SELECT referrer.id FROM signups AS referred JOIN signups AS referrer ON referrer.id = referred.referred_by
  WHERE referred.id = ?1 AND referred.referral_counted_at IS NULL AND referred.referral_hold IS NULL
    AND referred.disqualified_at IS NULL AND referrer.disqualified_at IS NULL AND referrer.id <> referred.id
    AND referrer.score IS NOT NULL${confirmed ? " AND referred.confirmed_at IS NOT NULL AND referrer.confirmed_at IS NOT NULL" : ""}`;
}

/**
 * The statements that count one person's referral for their referrer: the referrer moves to the node of
 * score − placesPerReferral and gains one referral, and the referred person's `referral_counted_at` is set. Keyed on
 * the referred person, so a referral counts once however often this runs (a retried signup, a webhook delivered
 * twice), for the first referrer only; nothing changes without a referrer, for a self-referral, or once counted.
 * @param referredId signups.id of the person whose referral counts now
 * @param placesPerReferral places a counted referral moves the referrer up (content: referrals.placesPerReferral)
 * @param countedAt ISO 8601 UTC (stored as referral_counted_at)
 * @param confirmed count only when both people have confirmed (content: referrals.countAfter is `confirmation`)
 * @returns statements to run in this order, in one db.batch() (3 statements)
 * @throws RangeError when placesPerReferral is not a non-negative safe integer
 */
export function creditStatements(
  db: D1Database,
  referredId: string,
  placesPerReferral: number,
  countedAt: string,
  { confirmed = false } = {},
): D1PreparedStatement[] {
  if (!Number.isSafeInteger(placesPerReferral) || placesPerReferral < 0) {
    throw new RangeError(`placesPerReferral must be a non-negative integer, got ${placesPerReferral}`);
  }
  const CREDITED_REFERRER = creditedReferrer(confirmed);
  return [
    // Both walks read the referrer's current score: out of the old node, into the node of score − placesPerReferral.
    db
      .prepare(
        treeChangeSql(`SELECT score, -1 AS change FROM signups WHERE id IN (${CREDITED_REFERRER})
  UNION ALL SELECT score - ?2, 1 FROM signups WHERE id IN (${CREDITED_REFERRER})`),
      )
      .bind(referredId, placesPerReferral),
    db
      .prepare(`UPDATE signups SET referrals = referrals + 1, score = score - ?2 WHERE id IN (${CREDITED_REFERRER})`)
      .bind(referredId, placesPerReferral),
    db.prepare(`UPDATE signups SET referral_counted_at = ?2 WHERE id = ?1 AND EXISTS (${CREDITED_REFERRER})`).bind(referredId, countedAt),
  ];
}

/**
 * Whose credit is withdrawn: the referrer a counted referral of the referred person (?1) was credited to, while they
 * are in line. An erased referrer's friends have referred_by NULL, so nothing is withdrawn from no one.
 */
const WITHDRAWN_REFERRER = `SELECT referrer.id FROM signups AS referred JOIN signups AS referrer ON referrer.id = referred.referred_by
  WHERE referred.id = ?1 AND referred.referral_counted_at IS NOT NULL AND referrer.id <> referred.id AND referrer.score IS NOT NULL`;

/**
 * The statements that withdraw one person's counted referral from their referrer, the exact reverse of
 * creditStatements: the referrer moves to the node of score + placesPerReferral and loses one referral, and the
 * referred person's `referral_counted_at` is cleared (so creditStatements may count it again later, once). Nothing
 * changes when the referral is not counted.
 * @param referredId signups.id of the person whose referral no longer counts
 * @param placesPerReferral the places the credit moved the referrer up (content: referrals.placesPerReferral)
 * @returns statements to run in this order, in one db.batch() (3 statements)
 * @throws RangeError when placesPerReferral is not a non-negative safe integer
 */
export function withdrawStatements(db: D1Database, referredId: string, placesPerReferral: number): D1PreparedStatement[] {
  if (!Number.isSafeInteger(placesPerReferral) || placesPerReferral < 0) {
    throw new RangeError(`placesPerReferral must be a non-negative integer, got ${placesPerReferral}`);
  }
  return [
    db
      .prepare(
        treeChangeSql(`SELECT score, -1 AS change FROM signups WHERE id IN (${WITHDRAWN_REFERRER})
  UNION ALL SELECT score + ?2, 1 FROM signups WHERE id IN (${WITHDRAWN_REFERRER})`),
      )
      .bind(referredId, placesPerReferral),
    db
      .prepare(`UPDATE signups SET referrals = referrals - 1, score = score + ?2 WHERE id IN (${WITHDRAWN_REFERRER})`)
      .bind(referredId, placesPerReferral),
    db.prepare(`UPDATE signups SET referral_counted_at = NULL WHERE id = ?1 AND EXISTS (${WITHDRAWN_REFERRER})`).bind(referredId),
  ];
}

/**
 * The statements that take a person out of line (before their row is erased): everyone behind moves up one
 * place. The caller's batch then deletes or keeps the row; a row with score NULL is not in line.
 * @returns statements to run in this order, in one db.batch() (2 statements)
 */
export function removeStatements(db: D1Database, signupId: string): D1PreparedStatement[] {
  return [
    db.prepare(treeChangeSql("SELECT score, -1 AS change FROM signups WHERE id = ?1 AND score IS NOT NULL")).bind(signupId),
    db.prepare("UPDATE signups SET score = NULL WHERE id = ?1").bind(signupId),
  ];
}

/**
 * The statements that take several people out of line at once (the people a page of invitations names): everyone
 * behind each of them moves up. `who` is a query yielding their signups.id values; it may use the bound `params`.
 * @returns statements to run in this order, in one db.batch() (2 statements)
 */
export function removeManyStatements(db: D1Database, who: string, params: unknown[]): D1PreparedStatement[] {
  return [
    db.prepare(treeChangeSql(`SELECT score, -1 AS change FROM signups WHERE id IN (${who}) AND score IS NOT NULL`)).bind(...params),
    db.prepare(`UPDATE signups SET score = NULL WHERE id IN (${who})`).bind(...params),
  ];
}

/**
 * The statement that takes people out of the tree whose scores the caller checked in the same batch: one row per
 * node their update paths share, computed here (treeRows), instead of a walk per person in SQL. A page of people
 * close together in line shares most of its nodes, so the rows it reads grow with the page, not with its depth.
 * Only for a batch whose earlier statement proved each person's score is still `score` (otherwise the tree would
 * drift); `guard` is an SQL condition (on that batch's bound `params`) that holds only when that proof did.
 * The caller's batch sets the people's score to NULL after it.
 * @returns one statement (reads about one node row per person, plus the paths' shared top)
 */
export function removeCheckedStatement(db: D1Database, scores: number[], guard: string, params: unknown[]): D1PreparedStatement {
  const nodes = treeRows(scores).map(([node, count]) => [node, -count]);
  const first = params.length + 1;
  return db
    .prepare(
      `INSERT INTO rank_tree (node, count)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?${first}) WHERE ${guard}
       ON CONFLICT (node) DO UPDATE SET count = count + excluded.count`,
    )
    .bind(...params, JSON.stringify(nodes));
}

/** A person's place in line. */
export interface Position {
  /** 1 = first in line; distinct for every person. */
  position: number;
  /** People in line. */
  total: number;
  /** Rows D1 read for this answer (the sum of `meta.rows_read` over its queries). */
  rowsRead: number;
}

/** Everyone in line: the count of node SCORE_TREE_CAPACITY, whose range is every key (one row read). */
const PEOPLE_IN_LINE = `SELECT count FROM rank_tree WHERE node = ${SCORE_TREE_CAPACITY}`;

/** The people with a smaller tree key (a prefix sum down the tree), and the total (PEOPLE_IN_LINE). */
const AHEAD_IN_TREE = `WITH RECURSIVE
  me AS (SELECT score FROM signups WHERE id = ?1 AND score IS NOT NULL),
  path (node) AS (
    SELECT ${treeKeySql("score")} - 1 FROM me
    UNION ALL
    SELECT node - (node & -node) FROM path WHERE node - (node & -node) > 0
  )
SELECT
  (SELECT coalesce(sum(rank_tree.count), 0) FROM path JOIN rank_tree USING (node)) AS ahead,
  (${PEOPLE_IN_LINE}) AS total
FROM me`;

/**
 * The people ahead with the same tree key: the same score and more referrals (through the (score, referrals) index);
 * in an end node (a score beyond MIN_TREE_SCORE … MAX_TREE_SCORE) also a smaller score.
 */
const AHEAD_IN_NODE = `WITH me AS (
  SELECT score, referrals,
    CASE WHEN score <= ${MIN_TREE_SCORE} THEN ${-UNBOUNDED} WHEN score >= ${MAX_TREE_SCORE} THEN ${MAX_TREE_SCORE} ELSE score END AS low,
    CASE WHEN score <= ${MIN_TREE_SCORE} THEN ${MIN_TREE_SCORE} WHEN score >= ${MAX_TREE_SCORE} THEN ${UNBOUNDED} ELSE score END AS high
  FROM signups WHERE id = ?1 AND score IS NOT NULL
)
SELECT count(*) AS ahead FROM me JOIN signups AS other
  ON other.score BETWEEN me.low AND me.high AND (other.score < me.score OR (other.score = me.score AND other.referrals > me.referrals))`;

/**
 * A person's position in line, read in one batch (so both of its queries see the same state). The rows it reads
 * (D1's `meta.rows_read`, the walk's CTE rows included) follow the tree's depth plus the people sharing the person's
 * score, and a score is shared only by people with different referral counts (seq − K × referrals = s has one seq
 * per count).
 * @returns their position, the number of people in line and the rows read; null when there is no such person or
 *   they are not in line (score NULL)
 */
export async function positionOf(db: D1Database, signupId: string): Promise<Position | null> {
  const [inTree, inNode] = await db.batch<{ ahead: number; total?: number | null }>([
    db.prepare(AHEAD_IN_TREE).bind(signupId),
    db.prepare(AHEAD_IN_NODE).bind(signupId),
  ]);
  const rowsRead = inTree.meta.rows_read + inNode.meta.rows_read;
  const tree = inTree.results[0];
  const node = inNode.results[0];
  if (!tree || !node) return null;
  return { position: 1 + tree.ahead + node.ahead, total: tree.total ?? 0, rowsRead };
}
