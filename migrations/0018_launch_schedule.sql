-- Launch day, continued (docs/operators.md: Launch): the schedule that invites up to N a day, pausing a batch, and
-- the funnel by day. worker/src/launch/ owns every query.

-- The schedule: one row once an operator sets it. The cron invites up to `daily_count` at `time_of_day` in the site's
-- time zone each day, as a batch whose idempotency key names the day (one a day however many ticks see it), until
-- `paused`. A day's time already past when the row was last written waits for the next day.
CREATE TABLE launch_schedule (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  daily_count INTEGER NOT NULL CHECK (daily_count >= 1),
  time_of_day TEXT NOT NULL,             -- HH:MM, 24-hour, in the site's time zone (service-settings: utcOffsetMinutes)
  paused INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,              -- ISO 8601 UTC
  operator TEXT NOT NULL,
  reason TEXT NOT NULL
);

-- A paused batch chooses nobody more, and holds its events not sent yet (send_held) until it is resumed.
ALTER TABLE launch_batches ADD COLUMN paused_at TEXT;
ALTER TABLE invitations ADD COLUMN send_held INTEGER NOT NULL DEFAULT 0;
-- A resumed batch's held events, released a page at a time.
CREATE INDEX invitations_held ON invitations (batch_id) WHERE send_held = 1;

-- The funnel by day: how many people reached each state on each local day (rollup_settings' time zone), kept by
-- triggers like the dashboard's rollups, so the Launch screen reads a row per day and state however long the list.
-- Invitations are never deleted, so a count only grows; the rollups' rezone rebuilds it (store/rollups.ts).
CREATE TABLE rollup_launch_days (
  day TEXT NOT NULL,                     -- YYYY-MM-DD
  state TEXT NOT NULL CHECK (state IN ('invited', 'accepted', 'expired', 'revoked')),
  count INTEGER NOT NULL,
  PRIMARY KEY (day, state)
) WITHOUT ROWID;

-- The invitations already stored.
INSERT INTO rollup_launch_days (day, state, count)
SELECT day, state, count(*) FROM (
  SELECT date(invited_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AS day, 'invited' AS state FROM invitations
  UNION ALL
  SELECT date(coalesce(accepted_at, expired_at, revoked_at), (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes'), state
  FROM invitations WHERE state <> 'invited'
) GROUP BY day, state;

CREATE TRIGGER rollups_launch_invited AFTER INSERT ON invitations
BEGIN
  INSERT INTO rollup_launch_days (day, state, count)
  SELECT date(NEW.invited_at, utc_offset_minutes || ' minutes'), 'invited', 1 FROM rollup_settings WHERE true
  ON CONFLICT (day, state) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER rollups_launch_state_changed AFTER UPDATE OF state ON invitations
WHEN OLD.state <> NEW.state AND NEW.state <> 'invited'
BEGIN
  INSERT INTO rollup_launch_days (day, state, count)
  SELECT date(coalesce(CASE NEW.state WHEN 'accepted' THEN NEW.accepted_at WHEN 'expired' THEN NEW.expired_at ELSE NEW.revoked_at END,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), utc_offset_minutes || ' minutes'), NEW.state, 1
  FROM rollup_settings WHERE true
  ON CONFLICT (day, state) DO UPDATE SET count = count + 1;
END;
