/**
 * Fills a local D1 database (wrangler's `--persist-to` layout, the one `wrangler dev --persist-to DIR` serves) with a
 * waitlist of N people and their referrals, for the API bench's lookups at 10,000 / 100,000 / 1,000,000 signups.
 *
 *   tsx scripts/bench/api/seed.ts --persist-to DIR --signups 1000000 --places-per-referral 10 [--seed 1]
 *
 * The skew is a referral program's: most people refer nobody and a few refer many. Each person after the first joins
 * through someone's link with probability REFERRED_SHARE; that someone is, with probability NEW_REFERRER_SHARE, any
 * earlier person, and otherwise the referrer of a random earlier referral (so the more someone has referred, the more
 * likely they refer again: a heavy tail). Every referral is counted at signup.
 *
 * Correct by construction: referral counts, scores (worker/src/referrals/standing.ts: scoreOf) and the Fenwick tree
 * (worker/src/store/rank.ts: treeRows) are computed here and inserted, so positions read from the seeded database are
 * the ones the service's statements would have produced one signup at a time.
 *
 * Fast: rows go in through the D1 binding of a Miniflare opened on the same files, SEED_STATEMENT_BYTES of JSON per
 * INSERT … SELECT FROM json_each(?) (one bound JSON parameter), rather than `wrangler d1 execute --file` on generated
 * SQL, which started a wrangler per chunk and took far longer (see the closing note of the bench's report).
 * Writes SEED_SAMPLE_FILE beside the database: some people's ids, referral codes and status tokens, which the bench
 * needs to look people up (the database holds only the tokens' hashes).
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { D1Database } from "@cloudflare/workers-types";
import { hashStatusToken, newReferralCode, newStatusToken } from "../../../worker/src/referrals/codes";
import { scoreOf } from "../../../worker/src/referrals/standing";
import { treeRows } from "../../../worker/src/store/rank";
import { applyMigrations } from "../../lib/wrangler";
import { openLocalD1 } from "./local-d1";
import { randomIndex, seededRandom } from "./seeded-random";

/** Share of people (after the first) who join through someone's referral link. */
export const REFERRED_SHARE = 0.3;

/** Share of referrals that go to a person picked among everyone earlier, rather than to someone who already referred. */
export const NEW_REFERRER_SHARE = 0.4;

/**
 * Bytes of JSON per INSERT statement: half of D1's 2,000,000-byte limit on a string (the one JSON parameter), so about
 * 3,000 people or 50,000 tree rows per round trip.
 */
export const SEED_STATEMENT_BYTES = 1_000_000;

/** People whose ids, codes and status tokens the sample file holds. */
export const SEED_SAMPLE_SIZE = 1_000;

/** The sample file's name, in the --persist-to directory. */
export const SEED_SAMPLE_FILE = "seed-sample.json";

/** Seconds between two seeded signups' created_at (a steady trickle, about a day per 86,400 people). */
const SECONDS_BETWEEN_SIGNUPS = 1;

const FIRST_NAMES = ["Jordan", "Alex", "Sam", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Avery", "Quinn", "Drew", "Skyler"];
const LAST_NAMES = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Haddad", "Silva", "Jensen", "Moreau", "Tanaka"];

/** What to seed. */
export interface SeedOptions {
  /** People on the list, at least 1. */
  signups: number;
  /** Places a counted referral moves a person up (content: referrals.placesPerReferral). */
  placesPerReferral: number;
  /** The seed of the referral graph (the same seed gives the same referrals and scores). */
  seed: number;
}

/** Someone the bench can look up. */
export interface SampledPerson {
  id: string;
  seq: number;
  referralCode: string;
  /** The status link's token (the database holds only its hash). */
  statusToken: string;
  referrals: number;
}

/** What the seeding did. */
export interface SeedReport {
  signups: number;
  /** People with at least one counted referral. */
  referrers: number;
  /** The most referrals anyone has. */
  topReferrals: number;
  /** Rows of rank_tree. */
  treeRows: number;
  /** Wall-clock time of generating and inserting, ms. */
  elapsedMs: number;
  /** Of which: people generated and inserted, tree rows inserted, secondary indexes built again (ms). */
  phasesMs: { people: number; tree: number; indexes: number };
  sample: SampledPerson[];
}

/** The referral graph: for each seq (index), whom they joined through (a seq, 0 = nobody) and how many they referred. */
export function referralGraph({ signups, seed }: Pick<SeedOptions, "signups" | "seed">): { referredBy: Int32Array; referrals: Int32Array } {
  const random = seededRandom(seed);
  const referredBy = new Int32Array(signups + 1);
  const referrals = new Int32Array(signups + 1);
  const referralsMade = new Int32Array(signups); // the referrer of every referral so far, in order
  let made = 0;
  for (let seq = 2; seq <= signups; seq++) {
    if (random() >= REFERRED_SHARE) continue;
    const referrer =
      made === 0 || random() < NEW_REFERRER_SHARE ? 1 + randomIndex(random, seq - 1) : referralsMade[randomIndex(random, made)];
    referredBy[seq] = referrer;
    referrals[referrer] += 1;
    referralsMade[made++] = referrer;
  }
  return { referredBy, referrals };
}

/**
 * Inserts the seeded people and the rank tree into an empty database that has the migrations applied.
 * @param db the D1 binding
 * @param options what to seed
 * @param onProgress called after each INSERT with the people stored so far
 * @throws Error when the database already holds signups
 */
export async function seedDatabase(db: D1Database, options: SeedOptions, onProgress?: (stored: number) => void): Promise<SeedReport> {
  const started = performance.now();
  const { signups, placesPerReferral } = options;
  if (await db.prepare("SELECT 1 FROM signups LIMIT 1").first()) throw new Error("The database already holds signups: seed an empty one.");
  const { referredBy, referrals } = referralGraph(options);
  const scores = (function* () {
    for (let seq = 1; seq <= signups; seq++) yield scoreOf(seq, referrals[seq], placesPerReferral);
  })();
  const tree = treeRows(scores);

  const firstCreatedAt = Date.now() - signups * SECONDS_BETWEEN_SIGNUPS * 1000;
  const createdAtMs = (seq: number) => firstCreatedAt + seq * SECONDS_BETWEEN_SIGNUPS * 1000;
  const ids = Array.from({ length: signups + 1 }, (_, seq) => uuidV7(createdAtMs(seq)));
  const seqDigits = String(signups).length;
  const codes = new Set<string>();
  const sampleEvery = Math.max(1, Math.floor(signups / SEED_SAMPLE_SIZE));
  const sample: SampledPerson[] = [];
  async function* people() {
    for (let seq = 1; seq <= signups; seq++) {
      let code = newReferralCode();
      while (codes.has(code)) code = newReferralCode();
      codes.add(code);
      const referrer = referredBy[seq] ? ids[referredBy[seq]] : null;
      const createdAt = new Date(createdAtMs(seq)).toISOString();
      // A sampled person's status token is made and hashed as the service does; everyone else's token is one the bench
      // never needs, so a random digest stands in for its hash (Web Crypto hashing a million tokens one by one takes a minute).
      let statusTokenHash = randomBytes(32).toString("hex");
      if (seq % sampleEvery === 0 && sample.length < SEED_SAMPLE_SIZE) {
        const statusToken = newStatusToken();
        statusTokenHash = await hashStatusToken(statusToken);
        sample.push({ id: ids[seq], seq, referralCode: code, statusToken, referrals: referrals[seq] });
      }
      yield [
        ids[seq],
        seq,
        `person${String(seq).padStart(seqDigits, "0")}@example.com`,
        FIRST_NAMES[seq % FIRST_NAMES.length],
        LAST_NAMES[(seq * 7) % LAST_NAMES.length],
        createdAt,
        code,
        statusTokenHash,
        referrer,
        referrals[seq],
        scoreOf(seq, referrals[seq], placesPerReferral),
        referrer ? createdAt : null,
      ];
    }
  }
  const phasesMs = { people: 0, tree: 0, indexes: 0 };
  let phaseStarted = performance.now();
  const phaseEnds = (phase: keyof typeof phasesMs) => {
    phasesMs[phase] = performance.now() - phaseStarted;
    phaseStarted = performance.now();
  };
  await withIndexesBuiltAfter(db, async () => {
    await insertInChunks(db, INSERT_PEOPLE, people(), onProgress);
    phaseEnds("people");
    await insertInChunks(db, INSERT_TREE, tree);
    phaseEnds("tree");
  });
  phaseEnds("indexes");
  let topReferrals = 0;
  let referrers = 0;
  for (const count of referrals) {
    topReferrals = Math.max(topReferrals, count);
    if (count > 0) referrers++;
  }
  return { signups, referrers, topReferrals, treeRows: tree.length, elapsedMs: performance.now() - started, phasesMs, sample };
}

/**
 * A version 7 UUID (RFC 9562): the time in ms in the first 48 bits, then random bits. The seeded people's ids are
 * version 7 so that they sort in signup order and the id index (like seq's and email_key's, whose zero-padded seeded
 * addresses sort the same way) is built by appending, not by a million inserts at random places; the service's own ids
 * are version 4 (random), which a lookup by id finds with the same one B-tree descent.
 * @param unixMs the time to embed, ms since 1970
 */
function uuidV7(unixMs: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(unixMs, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Runs a bulk load with the signups table's secondary indexes dropped and then created again from the very statements the
 * migrations ran (SQLite keeps each index's CREATE statement in sqlite_master): building an index once from sorted
 * rows is much faster than keeping it up to date through a million random-order inserts. The indexes SQLite makes for
 * column constraints (the primary key, UNIQUE seq and email_key) stay, and every UNIQUE index is checked when it is
 * built again.
 */
async function withIndexesBuiltAfter(db: D1Database, load: () => Promise<void>): Promise<void> {
  const { results: indexes } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'signups' AND sql IS NOT NULL")
    .all<{ name: string; sql: string }>();
  await db.batch(indexes.map(({ name }) => db.prepare(`DROP INDEX "${name}"`)));
  try {
    await load();
  } finally {
    await db.batch(indexes.map(({ sql }) => db.prepare(sql)));
  }
}

/**
 * Inserts rows with one statement per SEED_STATEMENT_BYTES of JSON (the statement's only parameter, read by json_each).
 * @param onProgress called after each statement with the rows inserted so far
 */
async function insertInChunks(
  db: D1Database,
  sql: string,
  rows: Iterable<unknown[]> | AsyncIterable<unknown[]>,
  onProgress?: (inserted: number) => void,
): Promise<void> {
  let chunk: string[] = [];
  let bytes = 0;
  let inserted = 0;
  const flush = async () => {
    await db
      .prepare(sql)
      .bind(`[${chunk.join(",")}]`)
      .run();
    inserted += chunk.length;
    onProgress?.(inserted);
    chunk = [];
    bytes = 0;
  };
  for await (const row of rows) {
    const json = JSON.stringify(row);
    if (bytes + json.length > SEED_STATEMENT_BYTES) await flush();
    chunk.push(json);
    bytes += json.length + 1;
  }
  if (chunk.length) await flush();
}

/** Seeded people are already delivered: the service's delivery retries must not pick a million rows up. */
const INSERT_PEOPLE = `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at, delivery_state, delivered_at,
  referral_code, status_token_hash, referred_by, referrals, score, referral_counted_at)
SELECT
  json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[2]'),
  json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), 'delivered', json_extract(value, '$[5]'),
  json_extract(value, '$[6]'), json_extract(value, '$[7]'), json_extract(value, '$[8]'), json_extract(value, '$[9]'),
  json_extract(value, '$[10]'), json_extract(value, '$[11]')
FROM json_each(?1)`;

const INSERT_TREE = `INSERT INTO rank_tree (node, count) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1)`;

/**
 * Seeds the local database that `wrangler dev --persist-to persistTo` serves for the repository's wrangler.jsonc:
 * applies the migrations with wrangler (as `npm start` does), opens the same files with Miniflare, seeds, and writes
 * the sample file beside them.
 * @param persistTo wrangler's --persist-to directory
 * @param options what to seed
 * @throws Error when a migration fails, the configuration has no D1 binding DB, or the database already holds signups
 */
export async function seedLocalD1(persistTo: string, options: SeedOptions): Promise<SeedReport> {
  await applyMigrations(persistTo);
  const local = await openLocalD1(persistTo);
  try {
    const report = await seedDatabase(local.db, options, (stored) =>
      process.stdout.write(`\r${stored.toLocaleString("en-US")} people stored`),
    );
    process.stdout.write("\n");
    await writeFile(path.join(persistTo, SEED_SAMPLE_FILE), JSON.stringify(report.sample));
    return report;
  } finally {
    await local.dispose();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "persist-to": { type: "string" },
      signups: { type: "string" },
      "places-per-referral": { type: "string" },
      seed: { type: "string", default: "1" },
    },
  });
  const persistTo = values["persist-to"];
  const signups = Number(values.signups);
  const placesPerReferral = Number(values["places-per-referral"]);
  if (!persistTo || !Number.isSafeInteger(signups) || signups < 1 || !Number.isSafeInteger(placesPerReferral) || placesPerReferral < 0) {
    console.error(
      "Usage: tsx scripts/bench/api/seed.ts --persist-to DIR --signups N --places-per-referral K [--seed S] [--config wrangler.jsonc]",
    );
    process.exit(2);
  }
  const report = await seedLocalD1(path.resolve(persistTo), { signups, placesPerReferral, seed: Number(values.seed) });
  console.log(
    `Seeded ${report.signups.toLocaleString("en-US")} people (${report.referrers.toLocaleString("en-US")} referrers, the top one with ` +
      `${report.topReferrals.toLocaleString("en-US")} referrals; ${report.treeRows.toLocaleString("en-US")} tree rows) in ` +
      `${seconds(report.elapsedMs)} (people ${seconds(report.phasesMs.people)}, tree ${seconds(report.phasesMs.tree)}, indexes ` +
      `${seconds(report.phasesMs.indexes)}); sample: ${path.join(persistTo, SEED_SAMPLE_FILE)}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
