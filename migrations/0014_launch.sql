-- Launch day (docs/operators.md: Launch): people are invited from the line in batches, each invitation sent to Klaviyo
-- as an event and accepted once by the firm's product (worker/src/launch/ owns every query).
--
-- A person's state is their latest invitation's (`invitations.state`), or `waiting` while they have none. Once
-- invited a person leaves the line through the rank tree, as an erase does (score NULL), so places among those still
-- waiting stay 1…N; an expired or revoked person stays out of it (inviting them again is one person's invitation).

-- One row per batch of "invite the next N": a double press or two operators at once name the same idempotency key,
-- which the UNIQUE index turns into one batch.
CREATE TABLE launch_batches (
  id TEXT PRIMARY KEY,                   -- random UUID
  idempotency_key TEXT NOT NULL UNIQUE,  -- the client's key for this press (the console: one per preview)
  created_at TEXT NOT NULL,              -- ISO 8601 UTC
  operator TEXT NOT NULL,
  reason TEXT NOT NULL,
  requested INTEGER NOT NULL,            -- N, as asked for
  invited INTEGER NOT NULL DEFAULT 0,    -- invitations made so far (fewer than N once the line runs out)
  sent INTEGER NOT NULL DEFAULT 0,       -- of them, events Klaviyo took (kept by launch_invitation_sent below)
  failed INTEGER NOT NULL DEFAULT 0,     -- of them, events Klaviyo refused
  -- People read in line order so far (invited or skipped): the next page starts after them, and an invitation's place
  -- is counted from it. Skipped people by reason, the preview's counts as the batch met them.
  scanned INTEGER NOT NULL DEFAULT 0,
  skipped_disqualified INTEGER NOT NULL DEFAULT 0,
  skipped_unconfirmed INTEGER NOT NULL DEFAULT 0,
  skipped_flagged INTEGER NOT NULL DEFAULT 0,
  skipped_invited INTEGER NOT NULL DEFAULT 0,
  -- Where choosing stopped: the last person read's (score, referrals); NULL before the first page.
  after_score INTEGER,
  after_referrals INTEGER,
  -- The run (a random id) that wrote the last page: a page's rows are written only by the run whose claim of it held,
  -- so a message delivered twice never chooses a page twice.
  run TEXT,
  -- choosing: invitations are still being made, a page at a time; sending: all made; done: each sent or failed.
  state TEXT NOT NULL DEFAULT 'choosing' CHECK (state IN ('choosing', 'sending', 'done'))
);

-- The latest batches first (the Launch screen; the preview's idempotency key names the newest).
CREATE INDEX launch_batches_created ON launch_batches (created_at, id);

-- One row per invitation, never deleted: a reissue is a new row. The token is never stored, only its SHA-256
-- (worker/src/launch/tokens.ts derives it from the invitation's id, so the reminder can carry the same link).
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,                   -- random UUID; Klaviyo's unique_id of the invitation event
  -- The invited signups.id; NULL once the person is erased (the invitation was revoked first).
  person_id TEXT REFERENCES signups (id) ON DELETE SET NULL,
  token_hash TEXT NOT NULL UNIQUE,       -- SHA-256 (hex) of the invitation's token
  batch_id TEXT REFERENCES launch_batches (id), -- NULL for one person invited from their page or the command line
  place INTEGER NOT NULL,                -- their place in line when invited (the event's waitlist_place)
  state TEXT NOT NULL DEFAULT 'invited' CHECK (state IN ('invited', 'accepted', 'expired', 'revoked')),
  invited_at TEXT NOT NULL,              -- ISO 8601 UTC, each
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  expired_at TEXT,
  revoked_at TEXT,
  -- The invitation event's delivery: queued until Klaviyo took it (sent) or refused it (failed).
  send_state TEXT NOT NULL DEFAULT 'queued' CHECK (send_state IN ('queued', 'sent', 'failed')),
  send_attempts INTEGER NOT NULL DEFAULT 0,
  send_error TEXT,                       -- Klaviyo's reason for the last failure (no personal data)
  send_due_at TEXT,                      -- when the next attempt is due; NULL: go by invited_at (the cron sweep)
  sent_at TEXT,
  reminded_at TEXT                       -- when the reminder event was queued (once)
);

-- A person's invitations, newest last (their page, their current one).
CREATE INDEX invitations_person ON invitations (person_id, invited_at);
-- A batch's progress by send state.
CREATE INDEX invitations_batch ON invitations (batch_id, send_state);
-- The open invitations by expiry: the cron's expiry and reminder reads only these.
CREATE INDEX invitations_open ON invitations (expires_at) WHERE state = 'invited';
-- Events not sent yet: the cron sweep resumes them (a batch whose Worker died between its rows and its messages).
CREATE INDEX invitations_unsent ON invitations (invited_at) WHERE send_state = 'queued';

-- The person's latest invitation (NULL: waiting).
ALTER TABLE signups ADD COLUMN invitation_id TEXT REFERENCES invitations (id);

-- The line in order (worker/src/store/rank.ts: smaller score first, on an equal score more referrals first), for
-- choosing the next N a page at a time: partial, so it holds only the people in line.
CREATE INDEX signups_line ON signups (score, referrals DESC) WHERE score IS NOT NULL;

-- The funnel's counts (the Launch screen): invitations per state, kept by triggers like the dashboard's rollups, so the
-- screen reads a few rows however long the list. `waiting` is the rank tree's total.
INSERT INTO rollup_counters (name, count) VALUES
  ('invitations_invited', 0), ('invitations_accepted', 0), ('invitations_expired', 0), ('invitations_revoked', 0);

CREATE TRIGGER launch_invitation_inserted AFTER INSERT ON invitations
BEGIN
  UPDATE rollup_counters SET count = count + 1 WHERE name = 'invitations_' || NEW.state;
END;

CREATE TRIGGER launch_invitation_state_changed AFTER UPDATE OF state ON invitations
WHEN OLD.state <> NEW.state
BEGIN
  UPDATE rollup_counters SET count = count - 1 WHERE name = 'invitations_' || OLD.state;
  UPDATE rollup_counters SET count = count + 1 WHERE name = 'invitations_' || NEW.state;
END;

-- A batch's progress: its invitations' events sent or failed, counted on the batch row as they settle.
CREATE TRIGGER launch_invitation_sent AFTER UPDATE OF send_state ON invitations
WHEN OLD.send_state <> NEW.send_state AND NEW.batch_id IS NOT NULL
BEGIN
  UPDATE launch_batches SET
    sent = sent + (NEW.send_state = 'sent') - (OLD.send_state = 'sent'),
    failed = failed + (NEW.send_state = 'failed') - (OLD.send_state = 'failed')
  WHERE id = NEW.batch_id;
  UPDATE launch_batches SET state = 'done' WHERE id = NEW.batch_id AND state = 'sending' AND sent + failed >= invited;
END;
