-- Random invitation tokens (worker/src/launch/tokens.ts): each invitation's token is random, so the Worker can no
-- longer compute it from the invitation's id for the reminder. The row keeps it sealed (AES-256-GCM under a key from
-- INVITATION_TOKEN_KEY, the invitation's id as associated data) beside its SHA-256 in token_hash, which check-in still
-- looks up; the database alone opens no link.
--
-- Invitations made before this column have none: their tokens could be computed from their ids, so check-in refuses
-- them and their events are not sent (docs/operators.md: Launch says to revoke and invite such a person anew).
ALTER TABLE invitations ADD COLUMN token_sealed TEXT; -- base64url of nonce ‖ ciphertext and tag; NULL: made before
