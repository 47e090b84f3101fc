/**
 * A local D1 database for tests of the service's store modules without the HTTP routes: the migrations are applied by
 * `wrangler d1 migrations apply --local` (what `npm start` does), then Miniflare opens the same database in workerd,
 * with an optional test Worker (bundled by `wrangler deploy --dry-run`, as a deploy would) bound to it as DB.
 * `db()` is the D1 binding driven from the test process (each call a round trip through Miniflare's proxy: for setup
 * and reading rows); `fetch()` sends a request to the test Worker, which runs statements inside workerd.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { D1Database } from "@cloudflare/workers-types";
import { Miniflare } from "miniflare";
import { PROJECT_DIR, runWrangler } from "../../../scripts/lib/wrangler";

const MIGRATIONS = path.join(PROJECT_DIR, "migrations");

/** The runtime's compatibility date, as in the repository's wrangler.jsonc. */
const COMPATIBILITY_DATE = "2026-04-01";

/** The test database's id: wrangler's local state and Miniflare find the database file by it. */
const DATABASE_ID = "00000000-0000-0000-0000-00000000d1d1";

/** The repository's migration files, in the order wrangler applies them (by name). */
export async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql")).sort();
}

/** A local D1 database in a temporary directory (wrangler's `--persist-to` layout). */
export class LocalD1 {
  private miniflare: Miniflare | null = null;

  private constructor(
    readonly directory: string,
    private readonly worker: string | undefined,
  ) {}

  /**
   * A new, empty database directory; nothing is applied yet.
   * @param worker the test Worker's entry module (TypeScript), if the test sends it requests
   */
  static async create(worker?: string): Promise<LocalD1> {
    const directory = await mkdtemp(path.join(tmpdir(), "local-d1-"));
    const config = { name: "local-d1-test", main: worker, compatibility_date: COMPATIBILITY_DATE, d1_databases: [d1Binding()] };
    await mkdir(path.join(directory, "migrations"));
    await writeFile(path.join(directory, "wrangler.json"), JSON.stringify(config));
    if (worker) await wrangler(directory, ["deploy", "--dry-run", "--outdir", path.join(directory, "bundle")]);
    return new LocalD1(directory, worker);
  }

  /**
   * Applies the named repository migrations (and any given before) with `wrangler d1 migrations apply DB --local`.
   * Closes the database first, if open: wrangler opens the same file.
   * @throws Error with wrangler's output when a migration fails
   */
  async migrate(names: string[]): Promise<void> {
    await this.close();
    for (const name of names) await copyFile(path.join(MIGRATIONS, name), path.join(this.directory, "migrations", name));
    await wrangler(this.directory, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", path.join(this.directory, "state")]);
  }

  /** The D1 binding, through Miniflare's proxy (opens Miniflare on first use). */
  async db(): Promise<D1Database> {
    return await this.open().getD1Database("DB");
  }

  /**
   * Sends the test Worker a JSON request and reads its JSON answer.
   * @throws Error with the Worker's answer when it is not 200
   */
  async fetch<T>(body: unknown): Promise<T> {
    const response = await this.open().dispatchFetch("http://local-d1.test/", { method: "POST", body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`The test Worker answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  private open(): Miniflare {
    const script = this.worker
      ? {
          scriptPath: path.join(this.directory, "bundle", `${path.basename(this.worker, ".ts")}.js`),
          modulesRoot: path.join(this.directory, "bundle"),
        }
      : { script: "export default { fetch() { return new Response(null, { status: 404 }); } };" };
    this.miniflare ??= new Miniflare({
      host: "127.0.0.1",
      port: 0,
      modules: true,
      ...script,
      compatibilityDate: COMPATIBILITY_DATE,
      d1Databases: { DB: DATABASE_ID },
      d1Persist: path.join(this.directory, "state/v3/d1"),
    });
    return this.miniflare;
  }

  /** Stops Miniflare's workerd (the files stay). */
  async close(): Promise<void> {
    await this.miniflare?.dispose();
    this.miniflare = null;
  }

  /** Stops Miniflare and deletes the directory (also when Miniflare had failed to start). */
  async dispose(): Promise<void> {
    try {
      await this.close();
    } finally {
      await rm(this.directory, { recursive: true, force: true });
    }
  }
}

/** Runs wrangler with the test directory's configuration. */
async function wrangler(directory: string, args: string[]): Promise<void> {
  await runWrangler([...args, "--config", path.join(directory, "wrangler.json")]);
}

function d1Binding() {
  return { binding: "DB", database_name: "local-d1-test", database_id: DATABASE_ID, migrations_dir: "migrations" };
}
