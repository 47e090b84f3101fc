/** What the rank tests ask their Worker (rank-worker.ts) to do, one operation per request. */
export type RankOperation =
  | { kind: "signUp"; id: string; referredBy?: string | null; countNow?: boolean; placesPerReferral?: number; seq?: number }
  | { kind: "credit"; referredId: string; placesPerReferral: number }
  | { kind: "remove"; id: string }
  | { kind: "positions"; ids: string[] };

/** When a test's referral counts (any fixed instant: the tests compare rows, not times). */
export const COUNTED_AT = "2026-11-22T12:00:00.000Z";
