/**
 * The public record behind /transparency/ (shared/transparency.ts), written by the cron to the TRANSPARENCY bucket:
 * counts per week, every draw ever announced or committed with its state, and the audit log's head signed as a
 * checkpoint, kept by its size so anyone who saved an earlier one can fetch it again and prove a rewrite. docs/operators.md:
 * Transparency.
 */
import { AUDIT_CHAIN_GENESIS, checkpointText } from "../../../shared/audit-chain";
import type { ServiceSettings } from "../../../shared/service-settings";
import { signNote, verifierKeyOf } from "../../../shared/signed-note";
import {
  auditLogOrigin,
  type DrawRecord,
  type DrawRecordState,
  TRANSPARENCY_KEYS,
  type TransparencyReport,
  type WeekCounts,
} from "../../../shared/transparency";
import { AUDIT_ACTIONS } from "../../../shared/console";
import { auditSigner } from "../console/audit-log";
import type { ServiceEnv } from "../env";
import { readSettings, SettingsUnavailable } from "../settings";
import { errorName, log } from "../log";
import { readWeeks } from "../store/rollups";

/** How old the report may grow before the cron writes it again although the audit log has not moved (ms). */
export const TRANSPARENCY_REFRESH_MS = 60 * 60 * 1000;

/** What a report.json object carries as R2 custom metadata, to tell whether it is current without reading it. */
interface ReportMetadata {
  /** The audit log's size it was written at. */
  size: string;
  generatedAt: string;
}

/** The draws table's states as the record names them. */
const STATE_OF: Record<string, DrawRecordState> = {
  listing: "committing",
  writing: "committing",
  publishing: "committing",
  published: "committed",
  drawn: "drawn",
  failed: "failed",
};

interface DrawRecordRow {
  id: string;
  cutoff: string;
  winners: number;
  state: string | null;
  round: number | null;
  committed_at: string | null;
  list_hash: string | null;
  n: number | null;
  failure: string | null;
}

/**
 * Every draw announced (draw_announcements) or committed (draws), newest cut-off first. Rows read: both tables' rows,
 * a handful.
 */
async function readDraws(db: D1Database, announced: string): Promise<DrawRecord[]> {
  const columns = "d.state, d.round, d.committed_at, d.list_hash, d.n, d.failure";
  const { results } = await db
    .prepare(
      `SELECT a.id, a.cutoff, a.winners, ${columns} FROM draw_announcements AS a LEFT JOIN draws AS d ON d.id = a.id
       UNION ALL
       SELECT d.id, d.cutoff, d.winners, ${columns} FROM draws AS d WHERE d.id NOT IN (SELECT id FROM draw_announcements)
       ORDER BY cutoff DESC, id`,
    )
    .all<DrawRecordRow>();
  return results.map((row) => {
    const state = row.state ? STATE_OF[row.state] : "announced";
    const committed = state === "committed" || state === "drawn";
    return {
      id: row.id,
      state,
      cutoff: row.cutoff,
      winners: row.winners,
      round: committed ? row.round : null,
      committedAt: committed ? row.committed_at : null,
      listHash: committed ? row.list_hash : null,
      entrants: committed ? row.n : null,
      failure: state === "failed" ? row.failure : null,
      replacedBy: state !== "drawn" && row.id !== announced ? announced : null,
    };
  });
}

/**
 * Counts per week: the rollups' (signups, confirmed, invited) and the audit log's disqualifications and erasures by
 * the local week of their time. Rows read: readWeeks' and every audit_log row (the log holds operators' actions,
 * not one row per signup).
 */
async function readWeekCounts(db: D1Database, utcOffsetMinutes: number): Promise<WeekCounts[]> {
  const weeks = new Map<string, WeekCounts>();
  const weekOf = (week: string) => {
    const found = weeks.get(week) ?? { week, signups: 0, confirmed: 0, disqualified: 0, erased: 0, invited: 0 };
    weeks.set(week, found);
    return found;
  };
  for (const row of await readWeeks(db, utcOffsetMinutes)) Object.assign(weekOf(row.week), row);
  const { results } = await db
    .prepare(
      `SELECT date(at, printf('%+d minutes', ?1), '-6 days', 'weekday 1') AS week,
         sum(action = ?2) AS disqualified, sum(action = ?3) AS erased
       FROM audit_log WHERE action IN (?2, ?3) GROUP BY week`,
    )
    .bind(utcOffsetMinutes, AUDIT_ACTIONS.disqualify, AUDIT_ACTIONS.erase)
    .all<{ week: string; disqualified: number; erased: number }>();
  for (const row of results) Object.assign(weekOf(row.week), { disqualified: row.disqualified, erased: row.erased });
  return [...weeks.values()].sort((a, b) => b.week.localeCompare(a.week));
}

/**
 * Record the draw the content announces, once (one row read, one written the first time).
 * @param nowMs Unix time in ms
 */
async function recordAnnouncement(db: D1Database, settings: ServiceSettings, nowMs: number): Promise<void> {
  const { id, cutoff, winners } = settings.draw;
  await db
    .prepare("INSERT INTO draw_announcements (id, first_seen_at, cutoff, winners) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING")
    .bind(id, new Date(nowMs).toISOString(), cutoff, winners)
    .run();
}

/**
 * The cron's step: record the announced draw, then, when the audit log has moved since the last report or that report
 * is older than TRANSPARENCY_REFRESH_MS, sign a checkpoint of the log's head and write it with a new report. Reads 1
 * audit row and one R2 head when nothing changed.
 * @param nowMs Unix time in ms (the report's generatedAt)
 * @throws whatever D1 and R2 throw (the cron logs it by step and the next run tries again); a build without the
 *   service's settings is skipped, not failed
 */
export async function publishTransparency(env: ServiceEnv, nowMs: number): Promise<void> {
  let settings: ServiceSettings;
  try {
    settings = await readSettings(env.ASSETS);
  } catch (error) {
    // A build without the service's settings (another transport) has no record to publish, as it has no launch.
    if (!(error instanceof SettingsUnavailable)) throw error;
    log("transparency_skipped", { reason: errorName(error) });
    return;
  }
  const db = env.DB;
  await recordAnnouncement(db, settings, nowMs);
  const last = await db.prepare("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").first<{ id: number; hash: string }>();
  const head = { size: last?.id ?? 0, hash: last?.hash ?? AUDIT_CHAIN_GENESIS };
  const published = (await env.TRANSPARENCY.head(TRANSPARENCY_KEYS.report))?.customMetadata as ReportMetadata | undefined;
  if (published && Number(published.size) === head.size && nowMs - Date.parse(published.generatedAt) < TRANSPARENCY_REFRESH_MS) return;

  const origin = auditLogOrigin(settings.siteUrl);
  const signer = auditSigner(env, origin);
  const checkpoint = signNote(checkpointText(origin, head), signer);
  const generatedAt = new Date(nowMs).toISOString();
  const report: TransparencyReport = {
    generatedAt,
    utcOffsetMinutes: settings.utcOffsetMinutes,
    weeks: await readWeekCounts(db, settings.utcOffsetMinutes),
    draws: await readDraws(db, settings.draw.id),
    auditLog: { origin, verifierKey: verifierKeyOf(signer), size: head.size, checkpoint },
  };
  const text = { httpMetadata: { contentType: "text/plain; charset=utf-8" } };
  await env.TRANSPARENCY.put(TRANSPARENCY_KEYS.checkpointAt(head.size), checkpoint, text);
  await env.TRANSPARENCY.put(TRANSPARENCY_KEYS.checkpoint, checkpoint, text);
  const metadata: ReportMetadata = { size: String(head.size), generatedAt };
  await env.TRANSPARENCY.put(TRANSPARENCY_KEYS.report, JSON.stringify(report), {
    httpMetadata: { contentType: "application/json; charset=utf-8" },
    customMetadata: { ...metadata },
  });
}
