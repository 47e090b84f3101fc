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
 * the ones the service's statements would have produced one signup at a time. The operator's dashboard's rollups are
 * counted from the loaded rows once, with their triggers dropped during the load (seed-rows.ts: withRollupsCountedAfter).
 *
 * Fast: rows go in through the D1 binding of a Miniflare opened on the same files, SEED_STATEMENT_BYTES of JSON per
 * INSERT … SELECT FROM json_each(?) (one bound JSON parameter), rather than `wrangler d1 execute --file` on generated
 * SQL, which started a wrangler per chunk and took far longer (see the closing note of the bench's report).
 * Writes SEED_SAMPLE_FILE beside the database: some people's ids, referral codes and status tokens, which the bench
 * needs to look people up (the database holds only the tokens' hashes).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations } from "../../lib/wrangler";
import { openLocalD1 } from "./local-d1";
import { SEED_SAMPLE_FILE, seedDatabase, type SeedOptions, type SeedReport } from "./seed-rows";

export * from "./seed-rows";

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
      `${seconds(report.phasesMs.indexes)}, rollups ${seconds(report.phasesMs.rollups)}); sample: ${path.join(persistTo, SEED_SAMPLE_FILE)}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
