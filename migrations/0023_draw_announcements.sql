-- Every draw id the site has announced (content: draw.id), seen by the cron, so a draw dropped before its commitment
-- stays listed on the transparency page (worker/src/transparency/report.ts) with the rules it was announced with.
CREATE TABLE draw_announcements (
  id TEXT PRIMARY KEY,
  first_seen_at TEXT NOT NULL,  -- ISO 8601 UTC: the cron run that first saw it
  cutoff TEXT NOT NULL,         -- ISO 8601 UTC
  winners INTEGER NOT NULL
) WITHOUT ROWID;
