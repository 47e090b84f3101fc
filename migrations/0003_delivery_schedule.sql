-- When a pending row's next delivery attempt is due, ISO 8601 UTC (worker/src/store/delivery.ts): the cron sweep
-- queues a row again only once it is overdue, so a message still waiting in the queue is not doubled.
-- NULL until the first attempt (the sweep then goes by created_at) and once the row is settled.
ALTER TABLE signups ADD COLUMN delivery_due_at TEXT;
