/**
 * The leaderboard's query (worker/src/referrals/top-referrers.ts) against the real D1 in workerd: the top referrers, more
 * counted referrals first, then the earlier signup, nobody without a referral, and about `limit` rows read.
 */
import { beforeAll, expect, test } from "vitest";
import { env } from "cloudflare:workers";
import { seedDatabase } from "../../scripts/bench/api/seed-rows";
import { topReferrers } from "../../worker/src/referrals/top-referrers";

const db = env.DB;

beforeAll(async () => {
  await seedDatabase(db, { signups: 10_000, placesPerReferral: 10, seed: 11 });
});

test("lists the top referrers, more referrals first, then the earlier signup", async () => {
  const all = await db
    .prepare("SELECT first_name AS firstName, last_name AS lastName, referrals, seq FROM signups")
    .all<{ firstName: string; lastName: string; referrals: number; seq: number }>();
  const expected = all.results
    .filter((person) => person.referrals > 0)
    .sort((a, b) => b.referrals - a.referrals || a.seq - b.seq)
    .slice(0, 25)
    .map(({ firstName, lastName, referrals }, index) => ({ rank: index + 1, firstName, lastName, referrals }));
  const { rows } = await topReferrers(db, 25);
  expect(rows).toEqual(expected);
  // The seeded skew has ties among the top 25, so the earlier-signup rule is exercised.
  expect(new Set(rows.map((row) => row.referrals)).size).toBeLessThan(rows.length);
});

test("reads about as many rows as it returns, through the leaderboard index", async () => {
  for (const limit of [1, 10, 100]) {
    const { rows, rowsRead } = await topReferrers(db, limit);
    expect(rows).toHaveLength(limit);
    expect(rowsRead).toBeLessThanOrEqual(limit + 1);
  }
});

test("leaves out people without a counted referral", async () => {
  const referrers = await db.prepare("SELECT count(*) AS n FROM signups WHERE referrals > 0").first<number>("n");
  const { rows } = await topReferrers(db, 100_000);
  expect(rows).toHaveLength(referrers ?? -1);
  expect(rows.every((row) => row.referrals > 0)).toBe(true);
});

test("refuses a limit that is not a positive whole number", async () => {
  await expect(topReferrers(db, 0)).rejects.toThrow(RangeError);
  await expect(topReferrers(db, 1.5)).rejects.toThrow(RangeError);
});
