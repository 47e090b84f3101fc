/**
 * The D1 queries of signups (the `signups` table, migrations/0001_signups.sql). Every value is a bound parameter:
 * a name like `Robert'); DROP TABLE signups;--` is stored as the text it is.
 */

/** One signup to store; every value already checked and trimmed. */
export interface NewSignup {
  /** A random UUID. */
  id: string;
  /** As typed (trimmed): what Klaviyo receives. */
  email: string;
  /** The address compared (worker/src/signups/email-key.ts); one row per key. */
  emailKey: string;
  firstName: string;
  lastName: string;
  /** Klaviyo custom source; null when neither the request nor the settings name one. */
  source: string | null;
  /** Profile properties (UTM / attribution). */
  properties: Record<string, string>;
  /** Salted SHA-256 of the client IP (hex), or null when the request had none. */
  ipHash: string | null;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** The stored row a signup ended in. */
export interface StoredSignup {
  id: string;
  /** ISO 8601 UTC, when the person first signed up. */
  createdAt: string;
  /** true when this call made the row; false when the address (by its key) was on the list already. */
  created: boolean;
}

/**
 * New row, with the next `seq` taken inside the same statement. D1 runs one statement at a time, so two signups can
 * never read the same MAX(seq); `ON CONFLICT(email_key) DO NOTHING` makes a second signup of one person, even a
 * concurrent one, insert nothing. (SQLite needs the WHERE in an INSERT … SELECT that has an ON CONFLICT clause.)
 */
const INSERT_SIGNUP = `
INSERT INTO signups (id, seq, email, email_key, first_name, last_name, source, properties, ip_hash, created_at)
SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 FROM signups WHERE true
ON CONFLICT (email_key) DO NOTHING
RETURNING id, created_at`;

/** The row an address's key already has. */
const SELECT_BY_EMAIL_KEY = "SELECT id, created_at FROM signups WHERE email_key = ?1";

/**
 * Store a signup, once per person: the insert and, for an address already on the list, the read of its row go in one
 * batch (one round trip; D1 runs a batch as one transaction).
 * @returns the new row (created) or the person's existing row
 * @throws whatever D1 throws when it cannot write (the route answers 503)
 */
export async function insertSignup(db: D1Database, signup: NewSignup): Promise<StoredSignup> {
  const [inserted, existing] = await db.batch<{ id: string; created_at: string }>([
    db
      .prepare(INSERT_SIGNUP)
      .bind(
        signup.id,
        signup.email,
        signup.emailKey,
        signup.firstName,
        signup.lastName,
        signup.source,
        JSON.stringify(signup.properties),
        signup.ipHash,
        signup.createdAt,
      ),
    db.prepare(SELECT_BY_EMAIL_KEY).bind(signup.emailKey),
  ]);
  const row = inserted.results[0];
  if (row) return { id: row.id, createdAt: row.created_at, created: true };
  const found = existing.results[0];
  if (!found) throw new Error("The signup was neither stored nor found by its email key.");
  return { id: found.id, createdAt: found.created_at, created: false };
}
