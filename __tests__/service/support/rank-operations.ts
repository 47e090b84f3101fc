/** What the rank tests do to D1 (worker/src/store/rank.ts's statements), one operation per call. */
import { creditStatements, insertStatements, positionOf, removeStatements, type Position } from "../../../worker/src/store/rank";
export type RankOperation =
  | { kind: "signUp"; id: string; referredBy?: string | null; countNow?: boolean; placesPerReferral?: number; seq?: number }
  | { kind: "credit"; referredId: string; placesPerReferral: number }
  | { kind: "remove"; id: string }
  | { kind: "positions"; ids: string[] };

/** When a test's referral counts (any fixed instant: the tests compare rows, not times). */
export const COUNTED_AT = "2026-11-22T12:00:00.000Z";

/**
 * The row the service's INSERT stores: seq assigned inside the statement (so concurrent inserts never share one), the
 * referrer's id when the person came through a referral link. `seq` may be forced, for people far down the line.
 */
function insertPerson(db: D1Database, id: string, referredBy: string | null, seq: number | null): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at, referred_by)
       VALUES (?1, coalesce(?3, (SELECT coalesce(max(seq), 0) + 1 FROM signups)), ?1 || '@example.com', ?1 || '@example.com', 'Test', 'Person', ?4, ?2)`,
    )
    .bind(id, referredBy, seq, COUNTED_AT);
}

/**
 * Run one operation inside workerd, as the service's routes will (each call a batch of its own, interleaving with
 * concurrent calls), so the tests exercise the statements where they run in production.
 * @returns null, or the positions asked for (one per id, null for nobody)
 */
export async function runRankOperation(db: D1Database, operation: RankOperation): Promise<unknown> {
  switch (operation.kind) {
    case "signUp": {
      // One batch, as the signup route will run it: store, put in line, count the referral when it counts at signup.
      const { id, referredBy = null, countNow = true, placesPerReferral = 1, seq = null } = operation;
      await db.batch([
        insertPerson(db, id, referredBy, seq),
        ...insertStatements(db, id),
        ...(referredBy && countNow ? creditStatements(db, id, placesPerReferral, COUNTED_AT) : []),
      ]);
      return null;
    }
    case "credit":
      await db.batch(creditStatements(db, operation.referredId, operation.placesPerReferral, COUNTED_AT));
      return null;
    case "remove":
      await db.batch([...removeStatements(db, operation.id), db.prepare("DELETE FROM signups WHERE id = ?1").bind(operation.id)]);
      return null;
    case "positions": {
      const positions = [];
      for (const id of operation.ids) positions.push(await positionOf(db, id));
      return positions;
    }
  }
}

/** positionOf for each id, in order (null for nobody), run as one operation. */
export async function positionsOf(db: D1Database, ids: string[]): Promise<Array<Position | null>> {
  return (await runRankOperation(db, { kind: "positions", ids })) as Array<Position | null>;
}
