-- The operator's records: who is out of the giveaway, and an append-only log of what operators did.
-- (The giveaway draw, scripts/giveaway/draw.ts, reads the first and writes the second; the operator's console builds on both.)

-- When the operator disqualified this person, ISO 8601 UTC; NULL: eligible. An erased person has no row at all, so
-- erasure needs no mark.
ALTER TABLE signups ADD COLUMN disqualified_at TEXT;

-- One row per operator action, never changed or removed (the triggers below refuse it). It never holds an address or
-- a name: person_id is the signups.id it concerned (kept after the person is erased), before/after are JSON of the
-- values that changed (a draw's list hash and round, a disqualification's time).
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,   -- order of the actions
  at TEXT NOT NULL,         -- ISO 8601 UTC
  operator TEXT NOT NULL,   -- who acted: their e-mail address as an operator (git config user.email or --operator)
  action TEXT NOT NULL,     -- e.g. draw_commit, draw_run
  person_id TEXT,           -- NULL for an action on no one person
  reason TEXT NOT NULL,     -- why, in the operator's words
  before TEXT,              -- JSON or NULL
  after TEXT                -- JSON or NULL
);

CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows are never changed');
END;

CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows are never removed');
END;
