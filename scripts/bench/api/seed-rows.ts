/**
 * The API bench's waitlist of N people and their referrals, written through any D1 binding (seed.ts opens a local D1
 * for the bench; the service tests pass their own, inside workerd). The skew, the correctness by construction and the
 * chunked INSERT … SELECT FROM json_each(?) are described in seed.ts's header.
 */
import { randomBytes } from "node:crypto";
import type { D1Database } from "@cloudflare/workers-types";
import { hashStatusToken, newReferralCode, newStatusToken } from "../../../worker/src/referrals/codes";
import { scoreOf } from "../../../worker/src/referrals/standing";
import { treeRows } from "../../../worker/src/store/rank";
import { rebuildStatements, ROLLUP_TRIGGERS } from "../../../worker/src/store/rollups";
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

/** Seconds between two seeded signups' created_at (a steady trickle, about a day per 86,400 people) unless spanDays is given. */
const SECONDS_BETWEEN_SIGNUPS = 1;

/**
 * The attribution people come with, by seq: utm_source for 6 in 10 (a few common values), utm_campaign for 3 in 10,
 * and for 1 in 100 a utm_source of its own (a stranger's junk values, more per day than the dashboard reads).
 */
const UTM_SOURCES = ["newsletter", "twitter", "facebook", "instagram", "reddit", "podcast"];
const UTM_CAMPAIGNS = ["launch", "spring", "nba-ads", "friends"];
const JUNK_UTM_EVERY = 100;

/** The profile properties JSON of the seeded person `seq`. */
function seededProperties(seq: number): string {
  const properties: Record<string, string> = {};
  if (seq % JUNK_UTM_EVERY === 0) properties.utm_source = `junk-${seq}`;
  else if (seq % 10 < 6) properties.utm_source = UTM_SOURCES[seq % UTM_SOURCES.length];
  if (seq % 10 >= 7) properties.utm_campaign = UTM_CAMPAIGNS[seq % UTM_CAMPAIGNS.length];
  return JSON.stringify(properties);
}

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
  /** The days the signups spread over, up to now (default: one second apart). */
  spanDays?: number;
  /** The custom sources people came by, in turn (default: none, NULL). */
  sources?: string[];
  /**
   * Who confirmed their address, at signup: everyone but every `unconfirmedEvery`-th person (seq), whom an invitation
   * batch skips and a draw leaves out. Default: nobody confirmed.
   */
  confirmation?: { unconfirmedEvery: number };
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
  /** Of which: people generated and inserted, tree rows inserted, secondary indexes built again, the dashboard's rollups counted (ms). */
  phasesMs: { people: number; tree: number; indexes: number; rollups: number };
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

  const stepMs = options.spanDays === undefined ? SECONDS_BETWEEN_SIGNUPS * 1000 : (options.spanDays * 86_400_000) / signups;
  const firstCreatedAt = Date.now() - signups * stepMs;
  const createdAtMs = (seq: number) => Math.floor(firstCreatedAt + seq * stepMs);
  const sources = options.sources ?? [];
  const unconfirmedEvery = options.confirmation?.unconfirmedEvery;
  const confirmed = (seq: number) => unconfirmedEvery !== undefined && seq % unconfirmedEvery !== 0;
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
        sources.length > 0 ? sources[seq % sources.length] : null,
        seededProperties(seq),
        confirmed(seq) ? createdAt : null,
      ];
    }
  }
  const phasesMs = { people: 0, tree: 0, indexes: 0, rollups: 0 };
  let phaseStarted = performance.now();
  const phaseEnds = (phase: keyof typeof phasesMs) => {
    phasesMs[phase] = performance.now() - phaseStarted;
    phaseStarted = performance.now();
  };
  await withRollupsCountedAfter(db, async () => {
    await withIndexesBuiltAfter(db, async () => {
      await insertInChunks(db, INSERT_PEOPLE, people(), onProgress);
      phaseEnds("people");
      await insertInChunks(db, INSERT_TREE, tree);
      phaseEnds("tree");
    });
    phaseEnds("indexes");
  });
  phaseEnds("rollups");
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
 * Runs a bulk load with the dashboard's rollup triggers (migrations 0010 and 0013) dropped, then counts the rollups
 * from the loaded rows at once (worker/src/store/rollups.ts: rebuildStatements, what the migration's backfill counts)
 * and creates the triggers again from their own statements: counting a million rows once is much faster than a million
 * times one row.
 */
async function withRollupsCountedAfter(db: D1Database, load: () => Promise<void>): Promise<void> {
  const { results: triggers } = await db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(ROLLUP_TRIGGERS))
    .all<{ name: string; sql: string }>();
  if (triggers.length > 0) await db.batch(triggers.map(({ name }) => db.prepare(`DROP TRIGGER "${name}"`)));
  try {
    await load();
    await db.batch(rebuildStatements(db));
  } finally {
    if (triggers.length > 0) await db.batch(triggers.map(({ sql }) => db.prepare(sql)));
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

/**
 * Seeded people are already delivered: the service's delivery retries must not pick a million rows up. They have all
 * chosen to be shown on the leaderboard (at signup), so its reads are measured on a full board.
 */
const INSERT_PEOPLE = `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at, delivery_state, delivered_at,
  referral_code, status_token_hash, referred_by, referrals, score, referral_counted_at, leaderboard_shown_at, source, properties,
  confirmed_at)
SELECT
  json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[2]'),
  json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), 'delivered', json_extract(value, '$[5]'),
  json_extract(value, '$[6]'), json_extract(value, '$[7]'), json_extract(value, '$[8]'), json_extract(value, '$[9]'),
  json_extract(value, '$[10]'), json_extract(value, '$[11]'), json_extract(value, '$[5]'), json_extract(value, '$[12]'),
  json_extract(value, '$[13]'), json_extract(value, '$[14]')
FROM json_each(?1)`;

const INSERT_TREE = `INSERT INTO rank_tree (node, count) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1)`;
