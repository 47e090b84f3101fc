-- The giveaway draw at any size (worker/src/draw/; docs/operators.md: The giveaway draw).
--
-- Each person's secret ticket: 128 random bits as 32 hex characters, the seed of their pseudonym in a draw
-- (sha256("<draw id>:<ticket>")), shown only to them (their status page and data export). A referral code, which is in
-- every link a person shares, would let anyone who has seen the link find their line. Every row gets one here, and
-- every row inserted later through the trigger, whichever code path inserts it.
ALTER TABLE signups ADD COLUMN draw_ticket TEXT;
UPDATE signups SET draw_ticket = lower(hex(randomblob(16))) WHERE draw_ticket IS NULL;
CREATE TRIGGER signups_draw_ticket AFTER INSERT ON signups WHEN NEW.draw_ticket IS NULL
BEGIN
  UPDATE signups SET draw_ticket = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;

-- One row per draw, ever: the key refuses a second commitment, whoever asks and however often. The row is also the
-- commitment job's state, so a job that dies resumes from it.
CREATE TABLE draws (
  id TEXT PRIMARY KEY,                 -- the rules' draw id (content: draw.id)
  cutoff TEXT NOT NULL,                -- ISO 8601 UTC
  winners INTEGER NOT NULL,
  round INTEGER NOT NULL,              -- the rules' drand round
  round_at TEXT NOT NULL,              -- when it is published, ISO 8601 UTC
  operator TEXT NOT NULL,              -- the Access identity that committed
  requested_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('listing', 'writing', 'publishing', 'published', 'drawn', 'failed')),
  step INTEGER NOT NULL DEFAULT 0,     -- steps done; a job message for another step is stale and dropped
  page_rows INTEGER NOT NULL,          -- signups.seq read per page while listing
  part_lines INTEGER NOT NULL,         -- lines per part of the list (a power of two: a part is a complete subtree)
  cursor INTEGER NOT NULL DEFAULT 0,   -- listing: the last signups.seq read; writing: parts written
  after_pseudonym TEXT NOT NULL DEFAULT '', -- writing: the last pseudonym written (the next part starts after it)
  eligible INTEGER NOT NULL DEFAULT 0, -- eligible people read so far
  n INTEGER NOT NULL DEFAULT 0,        -- lines written so far
  total_entries INTEGER NOT NULL DEFAULT 0,
  list_bytes INTEGER,
  list_hash TEXT,
  merkle_root TEXT,
  committed_at TEXT,                   -- when the list and the commitment were published
  failure TEXT,                        -- why the job stopped (state failed)
  updated_at TEXT NOT NULL
);

-- The entrants of a draw being committed, by pseudonym: the key sorts them as the list does, and a repeated pseudonym
-- is found by it. Emptied once the list is published.
CREATE TABLE draw_entrants (
  draw TEXT NOT NULL,
  pseudonym TEXT NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (draw, pseudonym)
) WITHOUT ROWID;

-- The list's parts as written: each part of a power-of-two number of lines is a complete subtree of the Merkle tree,
-- so its root is kept, and a person's audit path needs only their own part's lines besides these roots.
CREATE TABLE draw_parts (
  draw TEXT NOT NULL,
  part INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  root TEXT NOT NULL,                  -- the part's Merkle subtree root, hex
  PRIMARY KEY (draw, part)
) WITHOUT ROWID;
