-- When a referrer's profile update ran out of the queue's retries (ISO 8601 UTC; NULL: nothing owed), for the cron
-- sweep: the update has no row of its own, so without this mark a long Klaviyo outage would leave the person's
-- referral properties stale until their next referral.
ALTER TABLE signups ADD COLUMN profile_update_due_at TEXT;
-- The sweep reads only the rows that owe an update.
CREATE INDEX signups_profile_update_due ON signups (profile_update_due_at) WHERE profile_update_due_at IS NOT NULL;
