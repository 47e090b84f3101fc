/**
 * The local D1 database that `wrangler dev --persist-to DIR` serves for the repository's wrangler.jsonc, opened from
 * the bench's own process: Miniflare (wrangler's local runtime) on the same files, as `wrangler d1 execute --local`
 * opens them beside a running `wrangler dev`. One process start, then each query is a round trip of milliseconds
 * instead of a wrangler run of seconds: for seeding a million rows and for reading the rows a load run stored.
 */
import path from "node:path";
import type { D1Database } from "@cloudflare/workers-types";
import { Miniflare } from "miniflare";
import { PROJECT_DIR, retryWhileLocked } from "../../lib/wrangler";

/** The D1 binding's name in wrangler.jsonc. */
const D1_BINDING = "DB";

/**
 * wrangler.jsonc's database_id of the binding DB: the local database's file is named after it.
 * @throws Error when the configuration has no D1 binding DB with a database_id
 */
export async function localDatabaseId(): Promise<string> {
  const configPath = path.join(PROJECT_DIR, "wrangler.jsonc");
  // wrangler's own reading of its configuration (JSONC, environments); its published types name packages it bundles, so
  // this names the little it uses.
  const { unstable_readConfig } = (await import("wrangler")) as unknown as {
    unstable_readConfig(args: { config: string }): { d1_databases: Array<{ binding: string; database_id?: string }> };
  };
  const binding = unstable_readConfig({ config: configPath }).d1_databases.find((database) => database.binding === D1_BINDING);
  if (!binding?.database_id) throw new Error(`${configPath} has no D1 binding named ${D1_BINDING} with a database_id.`);
  return binding.database_id;
}

/** An open local database. */
export interface LocalD1 {
  /** The D1 binding, driven from this process (each call a round trip through Miniflare's proxy). */
  db: D1Database;
  /** Rows of one statement with bound parameters. */
  query<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** Close it (stops Miniflare's workerd). */
  dispose(): Promise<void>;
}

/**
 * Open the local database of a wrangler `--persist-to` directory (migrations are not applied here).
 * @param persistTo wrangler's --persist-to directory
 * @throws Error when wrangler.jsonc has no D1 binding DB, or workerd cannot start
 */
export async function openLocalD1(persistTo: string): Promise<LocalD1> {
  const miniflare = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
    // The database wrangler dev opens: keyed by the binding's database_id, in wrangler's local state layout (<persist-to>/v3/d1).
    d1Databases: { [D1_BINDING]: await localDatabaseId() },
    d1Persist: path.join(persistTo, "v3", "d1"),
  });
  const db = await miniflare.getD1Database(D1_BINDING);
  return {
    db,
    query: <Row>(sql: string, ...params: unknown[]) =>
      retryWhileLocked(
        async () =>
          (
            await db
              .prepare(sql)
              .bind(...params)
              .all<Row>()
          ).results,
      ),
    dispose: () => miniflare.dispose(),
  };
}
