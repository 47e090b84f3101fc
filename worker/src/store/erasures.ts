/**
 * The `erasures` table: the Klaviyo deletion jobs owed for erased people (migrations/0009_review.sql). A row holds
 * only the address the Data Privacy API call needs and is deleted as soon as Klaviyo accepts the job. Its
 * `created_at` is when the deletion was last owed: the erase, or a Klaviyo write about the person that was in flight
 * during it (oweErasuresIfErased), so a job finishing for an older debt never clears a newer one.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";

/** One owed deletion job. */
export interface ErasureRow {
  /** The erased person's signups.id. */
  id: string;
  email: string;
  attempts: number;
  /** When the deletion was last owed (ISO 8601 UTC); markErasureDone clears only this debt. */
  created_at: string;
}

/** The owed jobs among these ids (one query); an id without a row (done already) is absent. */
export async function readErasures(db: D1Database, ids: string[]): Promise<Map<string, ErasureRow>> {
  const { results } = await db
    .prepare("SELECT id, email, attempts, created_at FROM erasures WHERE id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(ids))
    .all<ErasureRow>();
  return new Map(results.map((row) => [row.id, row]));
}

/**
 * Klaviyo accepted the job (or there is no Klaviyo to ask): the address is gone with the row, unless the deletion
 * was owed again since the job read it (`owedAt` is the row's created_at as read), which leaves the newer debt.
 */
export function markErasureDone(db: D1Database, id: string, owedAt: string): D1PreparedStatement {
  return db.prepare("DELETE FROM erasures WHERE id = ?1 AND created_at = ?2").bind(id, owedAt);
}

/** A person a Klaviyo write named: their signups.id and the address it went to. */
export interface KlaviyoWrite {
  id: string;
  email: string;
}

/** People one statement names at most: two bound parameters each, and D1 takes up to 100 a statement. */
const WRITES_PER_STATEMENT = 49;

/**
 * After Klaviyo writes about people (welcomes, profile updates, notices, invitation events): anyone whose row is gone
 * was erased while the write was in flight, and the write may have reached Klaviyo after the deletion job and made
 * the profile again. Their deletion is then owed anew at `now` (ISO 8601 UTC), over any older debt (a person named
 * twice is owed once, at the last address). The people are bound one by one (a JSON array would cost a row read per
 * element), so a person still there costs one primary-key probe.
 * @returns statements (one per WRITES_PER_STATEMENT people; none for no writes) whose RETURNING rows (`{ id }`) name
 *   the deletions owed again
 */
export function oweErasuresIfErased(db: D1Database, writes: KlaviyoWrite[], now: string): D1PreparedStatement[] {
  const people = [...new Map(writes.map(({ id, email }) => [id, email])).entries()];
  const statements: D1PreparedStatement[] = [];
  for (let start = 0; start < people.length; start += WRITES_PER_STATEMENT) {
    const page = people.slice(start, start + WRITES_PER_STATEMENT);
    const rows = page.map((_, n) => `(?${2 * n + 2}, ?${2 * n + 3})`).join(", ");
    statements.push(
      db
        .prepare(
          `INSERT INTO erasures (id, email, created_at)
           SELECT column1, column2, ?1 FROM (VALUES ${rows}) WHERE NOT EXISTS (SELECT 1 FROM signups WHERE id = column1)
           ON CONFLICT (id) DO UPDATE SET email = excluded.email, created_at = excluded.created_at, attempts = 0,
             last_error = NULL, due_at = NULL, refused_status = NULL
           RETURNING id`,
        )
        .bind(now, ...page.flat()),
    );
  }
  return statements;
}

/**
 * Klaviyo refused the job with `status` (a 4xx but 429): one more attempt, its reason and status, and the next ask at
 * `dueAt` (ISO 8601 UTC). The row, and so the address, stays until Klaviyo takes the job.
 */
export function markErasureRefused(db: D1Database, id: string, status: number, reason: string, dueAt: string): D1PreparedStatement {
  return db
    .prepare("UPDATE erasures SET attempts = attempts + 1, refused_status = ?2, last_error = ?3, due_at = ?4 WHERE id = ?1")
    .bind(id, status, reason, dueAt);
}

/** The attempt failed: one more attempt, its reason (no personal data) and when the next is due (ISO 8601 UTC). */
export function markErasureRetrying(db: D1Database, id: string, reason: string, dueAt: string): D1PreparedStatement {
  return db.prepare("UPDATE erasures SET attempts = attempts + 1, last_error = ?2, due_at = ?3 WHERE id = ?1").bind(id, reason, dueAt);
}

/**
 * Claim the owed jobs whose next attempt is overdue (due before `overdueBefore`, or never attempted and erased before
 * it); their due time becomes `now`, in one statement, so two sweeps never claim one job.
 * @param limit rows at most, oldest first
 * @returns the claimed ids
 */
export async function claimOverdueErasures(db: D1Database, overdueBefore: string, now: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `UPDATE erasures SET due_at = ?2 WHERE id IN (
         SELECT id FROM erasures WHERE COALESCE(due_at, created_at) < ?1 ORDER BY created_at LIMIT ?3
       ) RETURNING id`,
    )
    .bind(overdueBefore, now, limit)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}
