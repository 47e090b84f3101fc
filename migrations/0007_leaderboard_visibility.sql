-- Whether a person is shown on the public leaderboard: only once they chose to be, from their status page
-- (PUT /api/status/leaderboard). NULL: hidden, the default, since nobody agreed to a public board by signing up;
-- otherwise when they chose it (ISO 8601 UTC), the record of that choice. Hiding again sets it back to NULL.
ALTER TABLE signups ADD COLUMN leaderboard_shown_at TEXT;

-- The leaderboard reads only people who chose to be shown: the partial index holds them alone, so the board still
-- reads about as many rows as it lists, however many people stay hidden.
DROP INDEX signups_leaderboard;
CREATE INDEX signups_leaderboard ON signups (referrals DESC, seq) WHERE referrals > 0 AND leaderboard_shown_at IS NOT NULL;
