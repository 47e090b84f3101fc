-- The operator's dashboard's counts (worker/src/store/rollups.ts reads them; README: The dashboard's numbers), so that a
-- dashboard load reads a few rows per day instead of the whole list. Triggers on signups keep them inside the very
-- statement that inserts, changes or deletes a row, whoever runs it (a signup, a confirmation, a credit, a delivery, a
-- console action, hand-typed SQL): the rollups always equal a full count of the rows as they are. An erased person's
-- row is gone, so they leave every count.

-- One row: how days are cut and how many UTM values are kept. The triggers and the rebuild read it.
CREATE TABLE rollup_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- The site's time zone (service-settings.json: utcOffsetMinutes) the days below were cut in, minutes east of UTC. The
  -- dashboard cuts them again when the build's differs (rollups.ts: rezoneStatements).
  utc_offset_minutes INTEGER NOT NULL,
  -- Distinct utm_source (and utm_campaign) values kept per day, and over all time; a value first seen once they are
  -- full counts in the day's `other` row, so a stranger cannot grow rollup_utm without bound.
  utm_values_per_day INTEGER NOT NULL,
  utm_values_all_time INTEGER NOT NULL
);
INSERT INTO rollup_settings (id, utc_offset_minutes, utm_values_per_day, utm_values_all_time) VALUES (1, 0, 20, 100);

-- Signups per local day and custom source, and how many of those people are confirmed, came through a referral link
-- (referred_by) and had their referral counted (referral_counted_at): the chart and the funnel.
CREATE TABLE rollup_days (
  day TEXT NOT NULL,                  -- YYYY-MM-DD: date(created_at) at rollup_settings.utc_offset_minutes
  source TEXT NOT NULL,               -- signups.source, '' for none
  signups INTEGER NOT NULL,
  confirmed INTEGER NOT NULL,
  referred INTEGER NOT NULL,
  referral_counted INTEGER NOT NULL,
  PRIMARY KEY (day, source)
) WITHOUT ROWID;

-- Signups per day (and over all time: day '') per utm_source / utm_campaign value, at most rollup_settings' number of
-- values each; the rest in one `other` row (value ''). A row is never deleted (its count may fall to 0), so a value's
-- signups are all in its own row or all in `other`, and a row leaving knows which to take them from.
CREATE TABLE rollup_utm (
  day TEXT NOT NULL,                  -- YYYY-MM-DD, or '' for all time
  kind TEXT NOT NULL CHECK (kind IN ('utm_source', 'utm_campaign')),
  other INTEGER NOT NULL,             -- 1: the values past the limit
  value TEXT NOT NULL,
  signups INTEGER NOT NULL,
  PRIMARY KEY (day, kind, other, value)
) WITHOUT ROWID;

-- Rows per delivery state now (delivery_pending, delivery_delivered, delivery_refused, delivery_demo), and messages
-- that reached the dead-letter queue ever (dead_lettered; worker/src/delivery/dead-letters.ts adds to it).
CREATE TABLE rollup_counters (
  name TEXT PRIMARY KEY,
  count INTEGER NOT NULL
) WITHOUT ROWID;

-- The dashboard's top referrers, whoever they are (signups_leaderboard holds only those shown on the public board).
CREATE INDEX signups_referrers ON signups (referrals DESC, seq) WHERE referrals > 0;

-- The rows already stored (worker/src/store/rollups.ts: rebuildStatements runs the same counts).
INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
SELECT date(created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes'), coalesce(source, ''), count(*),
  count(confirmed_at), count(referred_by), count(referral_counted_at)
FROM signups GROUP BY 1, 2;

INSERT INTO rollup_utm (day, kind, other, value, signups)
SELECT day, kind, place > cap, CASE WHEN place > cap THEN '' ELSE value END AS value, sum(signups) AS signups
FROM (
  SELECT day, kind, value, count(*) AS signups,
    row_number() OVER (PARTITION BY day, kind ORDER BY min(seq)) AS place,
    CASE WHEN day = '' THEN (SELECT utm_values_all_time FROM rollup_settings) ELSE (SELECT utm_values_per_day FROM rollup_settings) END AS cap
  FROM (
    SELECT CASE WHEN span.all_time THEN '' ELSE date(signups.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') END AS day,
      utm.kind, signups.seq,
      CASE WHEN json_valid(signups.properties) AND json_type(signups.properties, utm.path) = 'text'
        THEN nullif(json_extract(signups.properties, utm.path), '') END AS value
    FROM signups,
      (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS utm,
      (SELECT 0 AS all_time UNION ALL SELECT 1) AS span
  )
  WHERE value IS NOT NULL
  GROUP BY day, kind, value
)
GROUP BY 1, 2, 3, 4;

INSERT INTO rollup_counters (name, count)
SELECT 'delivery_' || state.name, (SELECT count(*) FROM signups WHERE delivery_state = state.name)
FROM (SELECT 'pending' AS name UNION ALL SELECT 'delivered' UNION ALL SELECT 'refused' UNION ALL SELECT 'demo') AS state;
INSERT INTO rollup_counters (name, count) VALUES ('dead_lettered', 0);

-- A row arrives: its day and source, its UTM values (kept, or `other` once the day's values are full), its delivery state.
CREATE TRIGGER rollups_signup_inserted AFTER INSERT ON signups
BEGIN
  INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
  SELECT date(NEW.created_at, utc_offset_minutes || ' minutes'), coalesce(NEW.source, ''), 1,
    NEW.confirmed_at IS NOT NULL, NEW.referred_by IS NOT NULL, NEW.referral_counted_at IS NOT NULL
  FROM rollup_settings
  WHERE true
  ON CONFLICT (day, source) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed,
    referred = referred + excluded.referred, referral_counted = referral_counted + excluded.referral_counted;

  INSERT INTO rollup_utm (day, kind, other, value, signups)
  SELECT day, kind, NOT kept, CASE WHEN kept THEN value ELSE '' END AS value, 1 AS signups
  FROM (
    SELECT utm.day, utm.kind, utm.value,
      -- A CASE, so that the values are counted only for a value not kept yet (an OR would count them every time).
      CASE WHEN EXISTS (SELECT 1 FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0 AND own.value = utm.value) THEN 1
        WHEN (SELECT count(*) FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0) < utm.cap THEN 1
        ELSE 0 END AS kept
    FROM (
      SELECT span.day, k.kind, CASE WHEN span.day = '' THEN s.utm_values_all_time ELSE s.utm_values_per_day END AS cap,
        CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
          THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
      FROM rollup_settings AS s,
        (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
        (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
    ) AS utm
    WHERE utm.value IS NOT NULL
  )
  WHERE true
  ON CONFLICT (day, kind, other, value) DO UPDATE SET signups = signups + 1;

  UPDATE rollup_counters SET count = count + 1 WHERE name = 'delivery_' || NEW.delivery_state;
END;

-- A row leaves (an erase): it leaves every count it was in. The people it referred lose their referred_by through the
-- foreign key's ON DELETE SET NULL, which runs rollups_signup_counts_changed for each of them.
CREATE TRIGGER rollups_signup_deleted AFTER DELETE ON signups
BEGIN
  UPDATE rollup_days SET signups = signups - 1, confirmed = confirmed - (OLD.confirmed_at IS NOT NULL),
    referred = referred - (OLD.referred_by IS NOT NULL), referral_counted = referral_counted - (OLD.referral_counted_at IS NOT NULL)
  WHERE day = date(OLD.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AND source = coalesce(OLD.source, '');

  UPDATE rollup_utm SET signups = signups - 1
  WHERE (day, kind, other, value) IN (
    SELECT day, kind, NOT kept, CASE WHEN kept THEN value ELSE '' END
    FROM (
      SELECT utm.day, utm.kind, utm.value, EXISTS (SELECT 1 FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0 AND own.value = utm.value) AS kept
      FROM (
        SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
          THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
      FROM rollup_settings AS s,
        (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
        (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
      ) AS utm
      WHERE utm.value IS NOT NULL
    )
  );

  UPDATE rollup_counters SET count = count - 1 WHERE name = 'delivery_' || OLD.delivery_state;
END;

-- A confirmation, a referral credited or withdrawn, a referrer erased: the row moves from its old counts to its new.
CREATE TRIGGER rollups_signup_counts_changed AFTER UPDATE OF created_at, source, confirmed_at, referred_by, referral_counted_at ON signups
WHEN OLD.created_at IS NOT NEW.created_at OR OLD.source IS NOT NEW.source
  OR (OLD.confirmed_at IS NULL) <> (NEW.confirmed_at IS NULL) OR (OLD.referred_by IS NULL) <> (NEW.referred_by IS NULL)
  OR (OLD.referral_counted_at IS NULL) <> (NEW.referral_counted_at IS NULL)
BEGIN
  UPDATE rollup_days SET signups = signups - 1, confirmed = confirmed - (OLD.confirmed_at IS NOT NULL),
    referred = referred - (OLD.referred_by IS NOT NULL), referral_counted = referral_counted - (OLD.referral_counted_at IS NOT NULL)
  WHERE day = date(OLD.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AND source = coalesce(OLD.source, '');

  INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
  SELECT date(NEW.created_at, utc_offset_minutes || ' minutes'), coalesce(NEW.source, ''), 1,
    NEW.confirmed_at IS NOT NULL, NEW.referred_by IS NOT NULL, NEW.referral_counted_at IS NOT NULL
  FROM rollup_settings
  WHERE true
  ON CONFLICT (day, source) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed,
    referred = referred + excluded.referred, referral_counted = referral_counted + excluded.referral_counted;
END;

-- The attribution or the time changed (no route does this; an operator's SQL might): the UTM counts move with it.
CREATE TRIGGER rollups_signup_utm_changed AFTER UPDATE OF created_at, properties ON signups
WHEN OLD.created_at IS NOT NEW.created_at OR OLD.properties IS NOT NEW.properties
BEGIN
  UPDATE rollup_utm SET signups = signups - 1
  WHERE (day, kind, other, value) IN (
    SELECT day, kind, NOT kept, CASE WHEN kept THEN value ELSE '' END
    FROM (
      SELECT utm.day, utm.kind, utm.value, EXISTS (SELECT 1 FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0 AND own.value = utm.value) AS kept
      FROM (
        SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
          THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
      FROM rollup_settings AS s,
        (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
        (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
      ) AS utm
      WHERE utm.value IS NOT NULL
    )
  );

  INSERT INTO rollup_utm (day, kind, other, value, signups)
  SELECT day, kind, NOT kept, CASE WHEN kept THEN value ELSE '' END AS value, 1 AS signups
  FROM (
    SELECT utm.day, utm.kind, utm.value,
      -- A CASE, so that the values are counted only for a value not kept yet (an OR would count them every time).
      CASE WHEN EXISTS (SELECT 1 FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0 AND own.value = utm.value) THEN 1
        WHEN (SELECT count(*) FROM rollup_utm AS own WHERE own.day = utm.day AND own.kind = utm.kind AND own.other = 0) < utm.cap THEN 1
        ELSE 0 END AS kept
    FROM (
      SELECT span.day, k.kind, CASE WHEN span.day = '' THEN s.utm_values_all_time ELSE s.utm_values_per_day END AS cap,
        CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
          THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
      FROM rollup_settings AS s,
        (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
        (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
    ) AS utm
    WHERE utm.value IS NOT NULL
  )
  WHERE true
  ON CONFLICT (day, kind, other, value) DO UPDATE SET signups = signups + 1;
END;

-- A delivery settled, or was sent again.
CREATE TRIGGER rollups_signup_delivery_changed AFTER UPDATE OF delivery_state ON signups
WHEN OLD.delivery_state IS NOT NEW.delivery_state
BEGIN
  UPDATE rollup_counters SET count = count - 1 WHERE name = 'delivery_' || OLD.delivery_state;
  UPDATE rollup_counters SET count = count + 1 WHERE name = 'delivery_' || NEW.delivery_state;
END;
