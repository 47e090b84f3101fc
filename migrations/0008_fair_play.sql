-- Fair play (README: Fair play): what a referral needs to be held for review or flagged, and the "already on the list"
-- e-mail's schedule. worker/src/store/signups.ts writes the first two at the INSERT; worker/src/store/referrals.ts the
-- last.

-- The address's domain (of its comparison key): the per-domain limit and the domain-cluster flag count by it.
ALTER TABLE signups ADD COLUMN email_domain TEXT;
-- Why a referral is held for the operator's review instead of counted (`code_limit`, `domain_limit`); NULL: not held.
ALTER TABLE signups ADD COLUMN referral_hold TEXT;
-- When the person was last told by e-mail that someone signed up again with their address, ISO 8601 UTC.
ALTER TABLE signups ADD COLUMN notified_again_at TEXT;

UPDATE signups SET email_domain = substr(email_key, instr(email_key, '@') + 1);

-- A referrer's friends: in time order (the per-code limit, the burst flag), by network and by domain (the flags). Each
-- count stops at its limit, so it reads a bounded range of one of these.
DROP INDEX signups_referred_by;
CREATE INDEX signups_referred_recent ON signups (referred_by, created_at);
CREATE INDEX signups_referred_network ON signups (referred_by, ip_hash);
CREATE INDEX signups_referred_domain ON signups (referred_by, email_domain);
-- Referred signups per domain in time order (the per-domain limit); people who came without a link are not in it.
CREATE INDEX signups_domain_recent ON signups (email_domain, created_at) WHERE referred_by IS NOT NULL;
