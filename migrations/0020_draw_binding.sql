-- A draw bound to its commitment (worker/src/draw/binding.ts; docs/operators.md: The giveaway draw): the drand chain,
-- the relay and the rules a draw is committed with, written into its row by the commitment request. The commitment job
-- publishes these, and the run verifies the round against them and refuses while the content names others: a content
-- deploy after the commitment must not choose the key a round is checked against, nor the relay that serves it.
--
-- A draw committed before this migration keeps NULLs here: its run is bound to the chain and rules its published
-- commitment (draw.json) names, and to the content's relay, which only carries the round (the key checks it).
ALTER TABLE draws ADD COLUMN chain_hash TEXT;           -- 64 hex characters: what a relay's address names
ALTER TABLE draws ADD COLUMN chain_public_key TEXT;     -- the group's BLS public key on G2, 192 hex characters
ALTER TABLE draws ADD COLUMN chain_period INTEGER;      -- seconds between rounds
ALTER TABLE draws ADD COLUMN chain_genesis INTEGER;     -- when round 1 was published, Unix time in seconds
ALTER TABLE draws ADD COLUMN relay_url TEXT;            -- the relay the run fetches the round from
ALTER TABLE draws ADD COLUMN round_delay_hours INTEGER; -- the rules' hours from the cut-off to the round
