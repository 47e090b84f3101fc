-- Launch day's costs at a million signups (docs/operators.md: Launch). A batch's page makes up to a hundred
-- invitations in one statement, and per-row triggers made each of them read the rollups again: the page now counts
-- its invitations in the funnel with one statement of its own (worker/src/launch/batches.ts), so these two insert
-- triggers count only the invitations made one at a time (no batch_id). And the queue consumer finds paused batches
-- through an index of its own.

DROP TRIGGER launch_invitation_inserted;
CREATE TRIGGER launch_invitation_inserted AFTER INSERT ON invitations
WHEN NEW.batch_id IS NULL
BEGIN
  UPDATE rollup_counters SET count = count + 1 WHERE name = 'invitations_' || NEW.state;
END;

DROP TRIGGER rollups_launch_invited;
CREATE TRIGGER rollups_launch_invited AFTER INSERT ON invitations
WHEN NEW.batch_id IS NULL
BEGIN
  INSERT INTO rollup_launch_days (day, state, count)
  SELECT date(NEW.invited_at, utc_offset_minutes || ' minutes'), 'invited', 1 FROM rollup_settings WHERE true
  ON CONFLICT (day, state) DO UPDATE SET count = count + 1;
END;

-- The batches paused now, which the queue consumer reads once per queue batch instead of joining each invitation's
-- batch: no row read while none is paused.
CREATE INDEX launch_batches_paused ON launch_batches (id) WHERE paused_at IS NOT NULL;
