-- A referrer's profile update that ran out of the queue's retries: the dead-letter queue's consumer records here when
-- it fell due (ISO 8601 UTC), and the cron sweep sends it again and clears it. The update has no row of its own, so
-- without this mark a long Klaviyo outage would leave the person's referral properties stale until their next
-- referral. NULL: nothing owed. worker/src/store/delivery.ts writes and reads it.
ALTER TABLE signups ADD COLUMN profile_update_due_at TEXT;
-- The sweep reads only the rows that owe an update.
CREATE INDEX signups_profile_update_due ON signups (profile_update_due_at) WHERE profile_update_due_at IS NOT NULL;
