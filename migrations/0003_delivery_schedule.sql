-- Delivery to Klaviyo: when a pending row's next attempt is due (worker/src/store/delivery.ts owns every query).
-- The queue consumer sets it with each retry it schedules (now + the retry's delay); the cron sweep re-enqueues a
-- pending row only once it is overdue by a grace period, so a row whose message is still waiting in the queue is not
-- sent twice, and a row whose message was lost (never enqueued, or out of retries) goes out when Klaviyo is back.
-- ISO 8601 UTC; NULL until the first attempt (the sweep then goes by created_at) and once the row is settled.
ALTER TABLE signups ADD COLUMN delivery_due_at TEXT;
