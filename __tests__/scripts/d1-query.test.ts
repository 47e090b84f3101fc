/**
 * `d1Query` on a local database that another wrangler is writing to (the operator's reads beside a running
 * service, `npm start`): workerd refuses the read with SQLITE_BUSY while the write holds the lock, and the read is run
 * again until it gets the rows, rather than failing.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, d1Query } from "../../scripts/lib/wrangler";

/**
 * Rows the long write inserts: about 3 s of SQLite work on this machine (2 s per 5 million rows). That outlasts the
 * start of the reading wrangler (about 1.5 s), so the read meets the lock, and is well inside d1Query's retries
 * (about 15 s).
 */
const WRITE_ROWS = 8_000_000;

/** How much the write-ahead log grows before the write counts as under way (bytes). */
const WRITE_UNDER_WAY_BYTES = 1_000_000;

let stateDir: string;

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "d1-query-"));
  await applyMigrations(stateDir);
  await d1Query(stateDir, "CREATE TABLE filler (x INTEGER)");
});

afterAll(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

/** Bytes in the write-ahead logs of the state directory's D1 databases (SQLite in WAL mode). */
async function walBytes(): Promise<number> {
  const d1Dir = path.join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const names = (await readdir(d1Dir)).filter((name) => name.endsWith(".sqlite-wal"));
  const sizes = await Promise.all(names.map(async (name) => (await stat(path.join(d1Dir, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

it("reads the rows it was asked for while another wrangler holds the database's write lock", async () => {
  const before = await walBytes();
  let writeEnded = false;
  const write = d1Query(
    stateDir,
    `INSERT INTO filler WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${WRITE_ROWS}) SELECT x FROM c`,
  ).finally(() => (writeEnded = true));

  // The read starts only once the write is visibly under way, so that the two overlap on any machine.
  for (let polls = 0; (await walBytes()) - before < WRITE_UNDER_WAY_BYTES && !writeEnded && polls < 3_000; polls += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(writeEnded).toBe(false);

  const rows = await d1Query<{ tables: number }>(stateDir, "SELECT count(*) AS tables FROM sqlite_master WHERE name = 'signups'");
  expect(rows).toEqual([{ tables: 1 }]);
  await write;
  expect(await d1Query<{ n: number }>(stateDir, "SELECT count(*) AS n FROM filler")).toEqual([{ n: WRITE_ROWS }]);
});
