/**
 * migrations/0002_referrals.sql on a waitlist that already has people (applied after 0001, as a deploy would):
 * everyone keeps their place in signup order, gets a referral code, and the rank tree holds them all.
 */
import { beforeAll, expect, test } from "vitest";
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_PATTERN } from "../../worker/src/referrals/codes";
import { type Position } from "../../worker/src/store/rank";
import { positionsOf, runRankOperation, type RankOperation } from "./support/rank-operations";

const PEOPLE_BEFORE = 300;

const db = env.DB;
const migrations = env.TEST_MIGRATIONS;

beforeAll(async () => {
  // This file's D1 starts where a waitlist of 0001 stood: the setup file's migrations are taken away again.
  await emptyDatabase(db);
  const [first] = migrations;
  await applyD1Migrations(db, [first]);
  // Rows as 0001's service stored them, inserted in an order that is not their signup order.
  const seqs = Array.from({ length: PEOPLE_BEFORE }, (_, index) => ((index * 7) % PEOPLE_BEFORE) + 1);
  await db.batch(
    seqs.map((seq) =>
      db
        .prepare(
          `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at)
           VALUES (?1, ?2, ?1 || '@example.com', ?1 || '@example.com', 'Early', 'Person', '2026-11-01T00:00:00.000Z')`,
        )
        .bind(`early${seq}`, seq),
    ),
  );
  await applyD1Migrations(db, migrations);
});

/** Drop every table (with its indexes and triggers), the migrations' record too. */
async function emptyDatabase(database: D1Database): Promise<void> {
  const tables = await database
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all<{ name: string }>();
  await database.batch(tables.results.map(({ name }) => database.prepare(`DROP TABLE "${name}"`)));
}

async function positions(ids: string[]): Promise<Array<Position | null>> {
  return positionsOf(db, ids);
}

test("draws the codes of existing rows from the referral code alphabet", async () => {
  expect(migrations.map(({ name }) => name)).toContain("0002_referrals.sql");
  const codes = await db.prepare("SELECT referral_code FROM signups").all<{ referral_code: string }>();
  expect(codes.results).toHaveLength(PEOPLE_BEFORE);
  for (const { referral_code } of codes.results) expect(referral_code).toMatch(REFERRAL_CODE_PATTERN);
  expect(new Set(codes.results.map(({ referral_code }) => referral_code)).size).toBe(PEOPLE_BEFORE);
  // Across 2,400 characters drawn, every character of the alphabet turns up (so the SQL and the module agree on it).
  expect(new Set(codes.results.flatMap(({ referral_code }) => [...referral_code]))).toEqual(new Set(REFERRAL_CODE_ALPHABET));
});

test("puts existing people in line in signup order, with no referrals and no status token yet", async () => {
  const rows = await db
    .prepare("SELECT id, seq, score, referrals, status_token_hash, referred_by, flags FROM signups ORDER BY seq")
    .all<{ id: string; seq: number; score: number; referrals: number }>();
  expect(rows.results.map(({ seq, score, referrals }) => ({ seq, score, referrals }))).toEqual(
    Array.from({ length: PEOPLE_BEFORE }, (_, index) => ({ seq: index + 1, score: index + 1, referrals: 0 })),
  );
  for (const row of rows.results) expect(row).toMatchObject({ status_token_hash: null, referred_by: null, flags: null });
  const found = await positions(rows.results.map(({ id }) => id));
  expect(found.map((position) => position && { position: position.position, total: position.total })).toEqual(
    rows.results.map(({ seq }) => ({ position: seq, total: PEOPLE_BEFORE })),
  );
});

test("lets a newcomer join the tree the migration built and move an existing person up", async () => {
  await runRankOperation(db, { kind: "signUp", id: "newcomer", referredBy: "early250", placesPerReferral: 10 } satisfies RankOperation);
  const [referrer, newcomer, passed] = await positions(["early250", "newcomer", "early240"]);
  expect(referrer).toMatchObject({ position: 240, total: PEOPLE_BEFORE + 1 });
  expect(newcomer).toMatchObject({ position: PEOPLE_BEFORE + 1 });
  expect(passed).toMatchObject({ position: 241 });
});

test("gives every existing person a secret draw ticket of 128 random bits, each their own", async () => {
  const tickets = await db.prepare("SELECT draw_ticket FROM signups WHERE seq <= ?1").bind(PEOPLE_BEFORE).all<{ draw_ticket: string }>();
  expect(tickets.results).toHaveLength(PEOPLE_BEFORE);
  for (const { draw_ticket } of tickets.results) expect(draw_ticket).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(tickets.results.map(({ draw_ticket }) => draw_ticket)).size).toBe(PEOPLE_BEFORE);
});
