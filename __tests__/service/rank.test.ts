/**
 * Places in line (worker/src/store/rank.ts) against the real D1 in workerd, migrations applied by the setup file: positions
 * equal a brute-force sort of the referral program's order, every credit moves its referrer exactly
 * placesPerReferral places, concurrent signups and credits never share a position or lose or double a referral, and a
 * lookup reads a logarithmic number of rows.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { env } from "cloudflare:workers";
import { randomIndex, seededRandom } from "../../scripts/bench/api/seeded-random";
import { seedDatabase } from "../../scripts/bench/api/seed-rows";
import { MAX_TREE_SCORE, type Position, creditStatements, insertStatements } from "../../worker/src/store/rank";
import { COUNTED_AT, positionsOf, runRankOperation, type RankOperation } from "./support/rank-operations";

const db = env.DB;

beforeEach(async () => {
  await db.batch([db.prepare("DELETE FROM signups"), db.prepare("DELETE FROM rank_tree")]);
});

/** A signup as the service will run it: one batch that stores the person, puts them in line and, unless countNow is false, counts their referral. */
async function signUp(id: string, options: Omit<Extract<RankOperation, { kind: "signUp" }>, "kind" | "id"> = {}) {
  await runRankOperation(db, { kind: "signUp", id, ...options } satisfies RankOperation);
}

/** Counts a person's referral later (e.g. on their confirmation), as a batch of its own. */
async function credit(referredId: string, placesPerReferral: number) {
  await runRankOperation(db, { kind: "credit", referredId, placesPerReferral } satisfies RankOperation);
}

/** positionOf, run in workerd. */
async function positionOf(id: string): Promise<Position | null> {
  const [position] = await positionsOf(db, [id]);
  return position;
}

interface Row {
  id: string;
  seq: number;
  referrals: number;
  score: number;
}

async function rows(): Promise<Row[]> {
  return (await db.prepare("SELECT id, seq, referrals, score FROM signups").all<Row>()).results;
}

/**
 * The referral program's order, written out independently of the tree: smaller seq − placesPerReferral × referrals
 * first, then more referrals, then the earlier signup.
 */
async function bruteForcePositions(placesPerReferral: number): Promise<Map<string, number>> {
  const people = await rows();
  for (const person of people) expect(person.score).toBe(person.seq - placesPerReferral * person.referrals);
  const key = (person: Row) => person.seq - placesPerReferral * person.referrals;
  people.sort((a, b) => key(a) - key(b) || b.referrals - a.referrals || a.seq - b.seq);
  return new Map(people.map((person, index) => [person.id, index + 1]));
}

/** Positions looked up per operation (D1 allows 1,000 queries per invocation; a lookup is two). */
const LOOKUPS_PER_REQUEST = 100;

/** Every person's position as positionOf reads it. */
async function positions(): Promise<Map<string, number>> {
  const ids = (await rows()).map((row) => row.id);
  const result = new Map<string, number>();
  for (let start = 0; start < ids.length; start += LOOKUPS_PER_REQUEST) {
    const chunk = ids.slice(start, start + LOOKUPS_PER_REQUEST);
    const found = await positionsOf(db, chunk);
    chunk.forEach((id, index) => {
      const position = found[index];
      if (!position) throw new Error(`${id} is not in line`);
      result.set(id, position.position);
    });
  }
  return result;
}

async function expectPositionsMatchBruteForce(placesPerReferral: number) {
  const expected = await bruteForcePositions(placesPerReferral);
  expect(await positions()).toEqual(expected);
  expect([...expected.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: expected.size }, (_, index) => index + 1));
}

async function referralsOf(id: string): Promise<number> {
  return (await db.prepare("SELECT referrals FROM signups WHERE id = ?1").bind(id).first<number>("referrals")) ?? -1;
}

describe("positions", () => {
  test("equal a brute-force sort of the referral program's order for random populations and credits", async () => {
    for (let trial = 1; trial <= 12; trial++) {
      await db.batch([db.prepare("DELETE FROM signups"), db.prepare("DELETE FROM rank_tree")]);
      const random = seededRandom(trial);
      const people = 1 + randomIndex(random, 60);
      const placesPerReferral = [0, 1, 2, 3, 7, 10][randomIndex(random, 6)];
      const counted = new Map<string, number>();
      const later: string[] = [];
      for (let index = 0; index < people; index++) {
        const id = `t${trial}-p${index}`;
        const referredBy = index > 0 && random() < 0.6 ? `t${trial}-p${randomIndex(random, index)}` : undefined;
        const countNow = random() < 0.5;
        await signUp(id, { referredBy, countNow, placesPerReferral });
        if (referredBy) counted.set(referredBy, (counted.get(referredBy) ?? 0) + 1);
        if (referredBy && !countNow) later.push(id);
      }
      // Later credits in a shuffled order, some of them delivered twice (a retried confirmation).
      const credits = [...later, ...later.filter(() => random() < 0.3)].sort(() => random() - 0.5);
      for (const id of credits) await credit(id, placesPerReferral);

      for (const [id, count] of counted) expect({ id, referrals: await referralsOf(id) }).toEqual({ id, referrals: count });
      await expectPositionsMatchBruteForce(placesPerReferral);
      expect((await positionOf(`t${trial}-p0`))?.total).toBe(people);
    }
  });

  test("each counted referral moves a person up exactly placesPerReferral places among people without referrals", async () => {
    const placesPerReferral = 3;
    for (let seq = 1; seq <= 40; seq++) await signUp(`p${seq}`);
    expect(await positionOf("p30")).toMatchObject({ position: 30, total: 40 });
    for (let referral = 1; referral <= 12; referral++) {
      await signUp(`friend${referral}`, { referredBy: "p30", placesPerReferral });
      expect({ referral, position: (await positionOf("p30"))?.position }).toEqual({ referral, position: Math.max(1, 30 - 3 * referral) });
    }
    // Everyone the referrer passed moved back one place; no one else moved.
    expect((await positionOf("p29"))?.position).toBe(30);
    expect((await positionOf("p31"))?.position).toBe(31);
    await expectPositionsMatchBruteForce(placesPerReferral);
  });

  test("on an equal score, the person with more referrals goes first", async () => {
    const placesPerReferral = 10;
    for (let seq = 1; seq <= 25; seq++) await signUp(`p${seq}`);
    await signUp("friend", { referredBy: "p20", placesPerReferral });
    // p20's score is 20 − 10 = 10, the same as p10's: p20 takes place 10, p10 moves to 11.
    expect((await positionOf("p20"))?.position).toBe(10);
    expect((await positionOf("p10"))?.position).toBe(11);
    await expectPositionsMatchBruteForce(placesPerReferral);
  });

  test("a score beyond the tree's domain shares an end node and keeps its exact place", async () => {
    const placesPerReferral = 20_000_000;
    for (let seq = 1; seq <= 4; seq++) await signUp(`p${seq}`);
    // Signup numbers past MAX_TREE_SCORE (the top end node), then referrals that take scores below MIN_TREE_SCORE.
    for (const [index, seq] of [MAX_TREE_SCORE - 1, MAX_TREE_SCORE, MAX_TREE_SCORE + 7, MAX_TREE_SCORE + 30].entries()) {
      await signUp(`far${index}`, { seq });
    }
    await signUp("friend1", { referredBy: "p3", placesPerReferral });
    await signUp("friend2", { referredBy: "p2", placesPerReferral });
    await signUp("friend3", { referredBy: "p2", placesPerReferral });
    await signUp("friend4", { referredBy: "far3", placesPerReferral });
    await expectPositionsMatchBruteForce(placesPerReferral);
    expect((await positionOf("p2"))?.position).toBe(1);
    expect((await positionOf("p3"))?.position).toBe(2);
  });

  test("a person taken out of line moves everyone behind them up one place", async () => {
    for (let seq = 1; seq <= 10; seq++) await signUp(`p${seq}`);
    await signUp("friend", { referredBy: "p8", placesPerReferral: 2 });
    await runRankOperation(db, { kind: "remove", id: "p4" } satisfies RankOperation);
    expect(await positionOf("p8")).toMatchObject({ position: 5, total: 10 });
    expect(await positionOf("p4")).toBeNull();
    await expectPositionsMatchBruteForce(2);
  });
});

describe("crediting", () => {
  test("counts nobody for a person without a referrer, a self-referral, or the same referral twice", async () => {
    await signUp("referrer");
    await signUp("alone");
    await signUp("self");
    await db.prepare("UPDATE signups SET referred_by = id WHERE id = 'self'").run();
    await signUp("friend", { referredBy: "referrer", placesPerReferral: 5 });
    for (const id of ["alone", "self", "friend", "friend", "nobody"]) await credit(id, 5);
    expect(await referralsOf("referrer")).toBe(1);
    expect(await referralsOf("self")).toBe(0);
    const counted = await db.prepare("SELECT id FROM signups WHERE referral_counted_at IS NOT NULL").all<{ id: string }>();
    expect(counted.results).toEqual([{ id: "friend" }]);
    await expectPositionsMatchBruteForce(5);
  });

  test("putting a person in line twice changes nothing", async () => {
    await signUp("a");
    await signUp("b");
    // The same id again: the INSERT fails on the primary key, and the batch with it.
    await expect(signUp("a")).rejects.toThrow(/UNIQUE constraint failed/);
    await db.batch(insertStatements(db, "a"));
    expect(await positionOf("b")).toMatchObject({ position: 2, total: 2 });
  });

  test("refuses a negative placesPerReferral", () => {
    expect(() => creditStatements(db, "x", -1, COUNTED_AT)).toThrow(RangeError);
  });
});

describe("under concurrency", () => {
  test("1,000 concurrent signups, 500 of them crediting one referrer twice over, leave positions 1…N and exactly 500 referrals", async () => {
    const placesPerReferral = 2;
    await signUp("referrer");
    await Promise.all(
      Array.from({ length: 1000 }, async (_, index) => {
        const id = `p${index}`;
        if (index % 2) return signUp(id);
        await signUp(id, { referredBy: "referrer", countNow: false });
        // The credit arrives separately (a confirmation), and twice (a retried webhook), interleaved with everyone else.
        await Promise.all([credit(id, placesPerReferral), credit(id, placesPerReferral)]);
      }),
    );
    expect(await referralsOf("referrer")).toBe(500);
    const seqs = (await rows()).map((row) => row.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 1001 }, (_, index) => index + 1));
    await expectPositionsMatchBruteForce(placesPerReferral);
    expect(await positionOf("referrer")).toMatchObject({ position: 1, total: 1001 });
  });
});

describe("cost", () => {
  test.each([1_000, 10_000, 100_000])(
    "a position lookup reads at most 100 rows at %i signups (seeded with the bench's skew)",
    async (signups) => {
      const placesPerReferral = 10;
      const report = await seedDatabase(db, { signups, placesPerReferral, seed: 7 });
      const people = await db.prepare("SELECT id FROM signups ORDER BY random() LIMIT ?1").bind(LOOKUPS_PER_REQUEST).all<{ id: string }>();
      const found = await positionsOf(
        db,
        people.results.map(({ id }) => id),
      );
      expect(found.map((position) => position?.total)).toEqual(people.results.map(() => signups));
      const reads = found.map((position) => position?.rowsRead ?? Infinity);
      reads.sort((a, b) => a - b);
      console.info(
        `${signups} signups (top referrer ${report.topReferrals}): rows read per lookup median ${reads[reads.length >> 1]}, max ${reads[reads.length - 1]}`,
      );
      expect(reads[reads.length - 1]).toBeLessThanOrEqual(100);
    },
  );

  test("the seeded database's positions equal the brute-force order", async () => {
    await seedDatabase(db, { signups: 2_000, placesPerReferral: 10, seed: 3 });
    const expected = await bruteForcePositions(10);
    const sample = [...expected].filter((_, index) => index % 20 === 0);
    for (const [id, position] of sample) expect({ id, position: (await positionOf(id))?.position }).toEqual({ id, position });
  });
});
