-- A Klaviyo deletion job Klaviyo refused (any 4xx but 429: our key's scope, or the address) is no longer dropped or
-- retried at the queue's pace: its row stays, with Klaviyo's status, asked again once a week
-- (worker/src/delivery/erasures.ts) and counted on the dashboard until Klaviyo takes it. NULL: not refused.
ALTER TABLE erasures ADD COLUMN refused_status INTEGER;
