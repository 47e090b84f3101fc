/**
 * The transparency page's public record (/transparency/, docs/operators.md: Transparency): what the Worker publishes
 * (worker/src/transparency/) and the page reads. Counts per week, every draw ever announced or committed with its
 * state, and the audit log's latest signed checkpoint (shared/audit-chain.ts) with the key that checks it.
 */

/** Where the files are served, on the site's host. */
export const TRANSPARENCY_PATHS = {
  /** The report (TransparencyReport as JSON). */
  report: "/transparency/report.json",
  /** The latest checkpoint, a signed note. */
  checkpoint: "/transparency/checkpoint.txt",
  /** Every checkpoint ever published, by the log's size then: /transparency/checkpoints/<size>.txt. */
  checkpoints: "/transparency/checkpoints/",
} as const;

/** The R2 keys behind them (the TRANSPARENCY bucket). */
export const TRANSPARENCY_KEYS = {
  report: "report.json",
  checkpoint: "checkpoint.txt",
  checkpointAt: (size: number) => `checkpoints/${size}.txt`,
} as const;

/** One week's counts, Monday to Sunday in the site's time zone. */
export interface WeekCounts {
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  /** Signups made that week and still on the list (an erased person's count leaves with them). */
  signups: number;
  /** Of those, the people who confirmed their address. */
  confirmed: number;
  /** Operators' disqualifications that week. */
  disqualified: number;
  /** Erasures that week (operators' and people's own). */
  erased: number;
  /** Invitations made that week. */
  invited: number;
}

/**
 * A draw's state: announced (the rules are public, nothing committed), committing (the list is being built),
 * committed (the list and the round are published), drawn, or failed (the job stopped; `failure` says why).
 */
export const DRAW_STATES = ["announced", "committing", "committed", "drawn", "failed"] as const;
export type DrawRecordState = (typeof DRAW_STATES)[number];

/** One draw as the record keeps it. */
export interface DrawRecord {
  id: string;
  state: DrawRecordState;
  /** When entries closed (ISO 8601 UTC). */
  cutoff: string;
  winners: number;
  /** The drand round it is drawn by, once committed; null before. */
  round: number | null;
  /** When its list and commitment were published; null before. */
  committedAt: string | null;
  /** The committed list's SHA-256, hex; null before. */
  listHash: string | null;
  /** Entrants in the committed list; null before. */
  entrants: number | null;
  /** Why the commitment job stopped (a code: pseudonym_clash, round_published, …); null unless failed. */
  failure: string | null;
  /** The draw the site announces now, when it is another one and this one was never drawn; null otherwise. */
  replacedBy: string | null;
}

/** The report the page reads. */
export interface TransparencyReport {
  /** When it was written (ISO 8601 UTC). */
  generatedAt: string;
  /** The weeks' time zone, minutes east of UTC (the build's). */
  utcOffsetMinutes: number;
  /** Newest week first; weeks with nothing left out. */
  weeks: WeekCounts[];
  draws: DrawRecord[];
  auditLog: {
    /** The checkpoint's origin line and key name. */
    origin: string;
    /** The key that checks every entry and checkpoint (shared/signed-note.ts: parseVerifierKey). */
    verifierKey: string;
    /** Entries in the log at the checkpoint. */
    size: number;
    /** The checkpoint, a signed note (also at TRANSPARENCY_PATHS.checkpoint). */
    checkpoint: string;
  };
}

/** The audit log's origin and note key name for a site at `siteUrl`: its host and "/audit-log". */
export function auditLogOrigin(siteUrl: string): string {
  return `${new URL(siteUrl).host}/audit-log`;
}
