-- The operator's console (README: The operator's console): review marks, Klaviyo deletion jobs owed after an erase,
-- and the indexes its pages read through (worker/src/console/ owns every query).

-- When an operator approved this person after review (flags or a held referral found fair), ISO 8601 UTC; NULL: not
-- reviewed. A reviewed person leaves the review queue.
ALTER TABLE signups ADD COLUMN reviewed_at TEXT;

-- One row per erased person whose profile Klaviyo still has to delete (Data Privacy API): only what that request
-- needs, the address, kept until Klaviyo answers 202, then deleted. id is the erased signups.id (the audit entry's
-- person_id), never reused: ids are random UUIDs.
CREATE TABLE erasures (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  created_at TEXT NOT NULL,          -- ISO 8601 UTC, when the person was erased
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,                   -- Klaviyo's reason for the last failure (no personal data)
  due_at TEXT                        -- when the next attempt is due, ISO 8601 UTC; NULL: go by created_at (the sweep)
);

-- The review queue: the flagged or held people not reviewed yet and not disqualified, in signup order. Partial, so
-- it holds only them and a page reads about as many rows as it lists.
CREATE INDEX signups_review ON signups (seq)
  WHERE reviewed_at IS NULL AND disqualified_at IS NULL AND (flags IS NOT NULL OR referral_hold IS NOT NULL);

-- A person's console actions, newest first (their page and their export).
CREATE INDEX audit_log_person ON audit_log (person_id, id);

-- The leaderboard leaves disqualified people out; the partial index holds only the people it may show.
DROP INDEX signups_leaderboard;
CREATE INDEX signups_leaderboard ON signups (referrals DESC, seq)
  WHERE referrals > 0 AND leaderboard_shown_at IS NOT NULL AND disqualified_at IS NULL;
