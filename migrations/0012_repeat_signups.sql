-- A stranger's signup with someone's address must not act on that person (docs/referrals.md: The status link, and
-- signing up again; worker/src/store/referrals.ts owns both).

-- SHA-256 (hex) of the status token an "already on the list" notice sent, until its link is first used: then it
-- replaces status_token_hash and this is cleared. Until then the person's link in use keeps working, so a repeat
-- signup never takes a working link away. NULL when no notice waits.
ALTER TABLE signups ADD COLUMN pending_status_token_hash TEXT;
CREATE UNIQUE INDEX signups_pending_status_token_hash ON signups (pending_status_token_hash);

-- "Already on the list" notices granted per client network (the salted hash of the IPv4 address or IPv6 /64, '' when
-- the request had none) and UTC day: past ALREADY_NOTICES_PER_NETWORK_PER_DAY a repeat signup is answered as ever but
-- e-mails no one. The cron sweep deletes past days.
CREATE TABLE already_notices (
  day TEXT NOT NULL,                  -- YYYY-MM-DD, UTC
  network TEXT NOT NULL,
  notices INTEGER NOT NULL,
  PRIMARY KEY (day, network)
) WITHOUT ROWID;
