-- The status link's token on its way to Klaviyo: only its SHA-256 hash is kept for good (status_token_hash), but the
-- welcome e-mail needs the link itself, so the token waits here until the queue consumer has sent the profile
-- (`waitlist_status_url`) and is cleared when the row's delivery settles (delivered, refused or demo).
-- worker/src/store/signups.ts writes it, worker/src/store/delivery.ts clears it.
ALTER TABLE signups ADD COLUMN status_token TEXT;
