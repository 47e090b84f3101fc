-- The audit log as a hash chain (shared/audit-chain.ts): every row from here on holds the SHA-256 of the row before
-- it (prev_hash) and of that and its own fields (hash), computed by the Worker, the only writer. Rows written before
-- this migration keep NULLs and stay outside the chain (audit verify counts them).
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;

-- Two rows can never follow the same row, so two writers at once cannot fork the chain: the second one's insert fails
-- and it appends again after the first.
CREATE UNIQUE INDEX audit_log_prev_hash ON audit_log (prev_hash);

-- A new row must name its id (the last id + 1), carry a hash and follow the last row's hash (the genesis value, 64
-- zeros, after no row or an unchained one).
CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
WHEN NEW.hash IS NULL
  OR NEW.id IS NOT coalesce((SELECT max(id) FROM audit_log), 0) + 1
  OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), '0000000000000000000000000000000000000000000000000000000000000000')
BEGIN
  SELECT RAISE(ABORT, 'audit_log is a hash chain: append after its last row');
END;
