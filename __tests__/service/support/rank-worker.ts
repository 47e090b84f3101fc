/**
 * A Worker for the rank tests: it runs worker/src/store/rank.ts inside workerd, one operation per request, as the
 * service's routes will (each request a batch of its own, interleaving with the others), so the tests exercise the
 * statements where they run in production, not through Miniflare's proxy from Node. A Worker module exports only its
 * handler, so what the tests share with it lives in rank-operations.ts.
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types";
import { creditStatements, insertStatements, positionOf, removeStatements } from "../../../worker/src/store/rank";
import { COUNTED_AT, type RankOperation } from "./rank-operations";

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

async function run(db: D1Database, operation: RankOperation): Promise<unknown> {
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

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    try {
      return Response.json(await run(env.DB, (await request.json()) as RankOperation));
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  },
};
