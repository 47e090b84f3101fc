/**
 * Gives each test file an empty, migrated D1, empty R2 buckets and no cached leaderboard. Files share a workerd runtime (vitest's
 * `isolate: false`: one start per worker instead of one per file), so this setup file, which runs before each file,
 * first drops what an earlier file left, then applies the repository's migrations.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { LEADERBOARD_ENDPOINT } from "../../../shared/contract";
import defaultSettings from "../fixtures/public/service-settings.json";

/** The origins the tests serve from by default (service.ts: the settings' siteUrl, and LOCAL_ORIGIN). */
const DEFAULT_ORIGINS = [defaultSettings.siteUrl, "http://127.0.0.1:8787"];

/** Every table, view and trigger in the file's D1, dependants first (SQLite drops a table's indexes with it). */
async function dropEverything(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<{ type: string; name: string }>();
  if (results.length === 0) return;
  const order = { trigger: 0, view: 1, table: 2 } as Record<string, number>;
  const statements = results
    .sort((a, b) => order[a.type] - order[b.type])
    .map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`));
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = ON"), ...statements]);
}

/** Every object in an R2 bucket. */
async function emptyBucket(bucket: R2Bucket): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ cursor });
    if (listed.objects.length > 0) await bucket.delete(listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}

/** The edge cache's leaderboards (the only answers the Worker caches) on the default origins. */
async function forgetCachedAnswers(): Promise<void> {
  for (const origin of DEFAULT_ORIGINS) await caches.default.delete(new URL(LEADERBOARD_ENDPOINT, origin).href);
}

await dropEverything(env.DB);
await forgetCachedAnswers();
await emptyBucket(env.DRAWS);
await emptyBucket(env.TRANSPARENCY);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
