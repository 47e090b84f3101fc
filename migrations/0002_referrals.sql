-- The referral program's columns, and the Fenwick tree over scores that orders the line (worker/src/store/rank.ts).
-- SQLite cannot ADD a UNIQUE column, so uniqueness comes from unique indexes (NULLs never collide).

-- 8 characters from worker/src/referrals/codes.ts's REFERRAL_CODE_ALPHABET; what a referral link carries.
ALTER TABLE signups ADD COLUMN referral_code TEXT;
-- SHA-256 (hex) of the status link's secret token; the token itself is never stored.
ALTER TABLE signups ADD COLUMN status_token_hash TEXT;
-- The referrer's signups.id, written once by the INSERT (the first referrer only). ON DELETE SET NULL: erasing
-- a referrer keeps the people they referred.
ALTER TABLE signups ADD COLUMN referred_by TEXT REFERENCES signups (id) ON DELETE SET NULL;
-- Counted referrals (content: referrals.countAfter decides when one counts).
ALTER TABLE signups ADD COLUMN referrals INTEGER NOT NULL DEFAULT 0;
-- seq − placesPerReferral × referrals: smaller goes first. NULL until the person is in rank_tree.
ALTER TABLE signups ADD COLUMN score INTEGER;
-- Space-separated flag words for the operator's review, e.g. `same_ip_as_referrer`; NULL when none.
ALTER TABLE signups ADD COLUMN flags TEXT;
-- When the address was confirmed (the list's double opt-in), ISO 8601 UTC.
ALTER TABLE signups ADD COLUMN confirmed_at TEXT;
-- When this person's referral was credited to referred_by, ISO 8601 UTC: set once, so a credit is never counted twice.
ALTER TABLE signups ADD COLUMN referral_counted_at TEXT;

CREATE UNIQUE INDEX signups_referral_code ON signups (referral_code);
CREATE UNIQUE INDEX signups_status_token_hash ON signups (status_token_hash);
-- Who someone referred (the operator's audit, the same-IP flag).
CREATE INDEX signups_referred_by ON signups (referred_by);
-- Position ties: people with the same score and more referrals go first (a covering index for that count).
CREATE INDEX signups_rank ON signups (score, referrals);
-- The leaderboard: top referrers, more referrals first, then the earlier signup; people without referrals are not in it.
CREATE INDEX signups_leaderboard ON signups (referrals DESC, seq) WHERE referrals > 0;

-- One row per Fenwick tree node that has ever held someone: node = score + 2^24, clamped to 1 … 2^25
-- (worker/src/store/rank.ts: SCORE_TREE_CAPACITY, SCORE_OFFSET); count = people in the node's range.
CREATE TABLE rank_tree (
  node INTEGER PRIMARY KEY,
  count INTEGER NOT NULL
);

-- Rows stored before this migration get a referral code here, so every existing person has a link at once
-- (abs() of the remainder avoids abs()'s overflow on the smallest integer). A collision fails the UNIQUE index and
-- rolls the migration back; it is rare enough that applying it again, which draws new codes, is the remedy.
-- No status tokens: only a token's hash is stored, so a token made in SQL could never reach its person.
UPDATE signups
SET referral_code =
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1) ||
  substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz', 1 + abs(random() % 56), 1)
WHERE referral_code IS NULL;

-- Rows stored before this migration enter the line in signup order (no referrals yet: score = seq), and the tree
-- gets each one's update path (node, node + lowbit(node), … up to 2^25), counted per node.
WITH RECURSIVE path (node) AS (
  SELECT min(max(seq, -16777215), 16777216) + 16777216 FROM signups
  UNION ALL
  SELECT node + (node & -node) FROM path WHERE node + (node & -node) <= 33554432
)
INSERT INTO rank_tree (node, count)
SELECT node, count(*) FROM path GROUP BY node;

UPDATE signups SET score = seq WHERE score IS NULL;
