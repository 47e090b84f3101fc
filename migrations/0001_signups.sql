-- The waitlist: one row per person, stored before the service answers, then delivered to Klaviyo by the queue
-- consumer (worker/src/store/signups.ts and worker/src/store/delivery.ts own every query).
CREATE TABLE signups (
  id TEXT PRIMARY KEY,                 -- random UUID
  seq INTEGER NOT NULL UNIQUE,         -- signup order, 1, 2, 3 … (assigned inside the INSERT: (SELECT COALESCE(MAX(seq),0)+1 FROM signups))
  email TEXT NOT NULL,                 -- trimmed, as typed
  email_key TEXT NOT NULL UNIQUE,      -- the address compared (worker/src/signups/email-key.ts: lower case, no +tag, Gmail without dots)
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  source TEXT,                         -- Klaviyo custom source (campaign)
  properties TEXT NOT NULL DEFAULT '{}', -- JSON: UTM / attribution profile properties
  ip_hash TEXT,
  created_at TEXT NOT NULL,            -- ISO 8601 UTC
  delivery_state TEXT NOT NULL DEFAULT 'pending' CHECK (delivery_state IN ('pending','delivered','refused','demo')),
  delivery_attempts INTEGER NOT NULL DEFAULT 0,
  delivery_error TEXT,                 -- Klaviyo's detail for a refusal / last failure (no personal data)
  delivered_at TEXT
);
CREATE INDEX signups_delivery ON signups (delivery_state, seq);
