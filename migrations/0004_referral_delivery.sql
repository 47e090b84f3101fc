-- The status link's token on its way to Klaviyo: the welcome e-mail needs the link itself, so the token waits here
-- until the row's delivery settles, then only its hash (status_token_hash) is kept.
ALTER TABLE signups ADD COLUMN status_token TEXT;
