-- Every audit_log row is signed: `signature` holds the Worker's Ed25519 signature (base64) of its `hash` under
-- AUDIT_SIGNING_KEY (shared/audit-chain.ts), so a rewrite with fresh hashes needs a key the database does not hold.
ALTER TABLE audit_log ADD COLUMN signature TEXT;

-- The chain trigger of 0016, now also refusing a row without its signature.
DROP TRIGGER audit_log_chained;
CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
WHEN NEW.hash IS NULL
  OR NEW.signature IS NULL
  OR NEW.id IS NOT coalesce((SELECT max(id) FROM audit_log), 0) + 1
  OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), '0000000000000000000000000000000000000000000000000000000000000000')
BEGIN
  SELECT RAISE(ABORT, 'audit_log is a hash chain: append after its last row');
END;
