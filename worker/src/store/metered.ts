/**
 * A D1 binding that counts what one request reads: every statement run through it adds its `meta.rows_read` (what
 * D1 bills by) to the meter, which the API reports as `Server-Timing`. Counts only; no SQL, no values.
 */
import type { D1Database, D1PreparedStatement, D1Result } from "@cloudflare/workers-types";

/** The Server-Timing metric of the rows a request read: `Server-Timing: d1-rows-read;desc="<n>"`. */
export const ROWS_READ_METRIC = "d1-rows-read";

/** A metered binding and its count. */
export interface D1Meter {
  /** Use this binding in place of the real one for the request. */
  db: D1Database;
  /** Rows D1 read so far for this request (the sum of `meta.rows_read`). */
  rowsRead(): number;
  /** Whether any statement ran through `db`. */
  touched(): boolean;
}

/**
 * Wrap a D1 binding so that it counts rows read. `first()` and `raw()` give no `meta`, so through the meter they run
 * as `all()` and take their answer from it (the same statement, one round trip): every read is counted.
 */
export function meterD1(real: D1Database): D1Meter {
  let rowsRead = 0;
  let touched = false;
  const count = (result: D1Result) => {
    touched = true;
    rowsRead += result.meta?.rows_read ?? 0;
    return result;
  };
  /** The real statement behind each wrapped one, for batch(), which takes only the runtime's own statements. */
  const realStatements = new WeakMap<object, D1PreparedStatement>();

  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, property) {
        switch (property) {
          case "bind":
            return (...values: unknown[]) => wrap(target.bind(...values));
          case "all":
            return async () => count(await target.all());
          case "run":
            return async () => count(await target.run());
          case "first":
            return async (column?: string) => {
              const rows = count(await target.all()).results as Record<string, unknown>[];
              const row = rows[0];
              if (row === undefined) return null;
              return column === undefined ? row : (row[column] ?? null);
            };
          case "raw":
            return async (options?: { columnNames?: boolean }) => {
              const records = count(await target.all()).results as Record<string, unknown>[];
              const rows = records.map((row) => Object.values(row));
              if (!options?.columnNames) return rows;
              return [Object.keys(records[0] ?? {}), ...rows];
            };
          default: {
            const value: unknown = Reflect.get(target, property, target);
            return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          }
        }
      },
    });
    realStatements.set(wrapped, statement);
    return wrapped;
  };

  const db = new Proxy(real, {
    get(target, property) {
      switch (property) {
        case "prepare":
          return (query: string) => wrap(target.prepare(query));
        case "batch":
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements.map((statement) => realStatements.get(statement) ?? statement));
            for (const result of results) count(result);
            return results;
          };
        default: {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
      }
    },
  });
  return { db, rowsRead: () => rowsRead, touched: () => touched };
}
