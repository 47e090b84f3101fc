-- The dashboard's UTM counts by value, with each value's confirmed signups (worker/src/store/rollups.ts reads them;
-- docs/operators.md: The dashboard's numbers). 0010 kept the first 20 values of a day (100 over all time) and counted
-- later ones in `other`, so junk values that arrived first pushed real ones out for good, and a row whose count fell to
-- 0 kept an erased person's value. Now every value has its row (values are labels: shared/validation.ts,
-- UTM_VALUE_PATTERN), the dashboard reads the values with the most confirmed signups through rollup_utm_top, and a
-- rollup row whose count reaches 0 is deleted, in rollup_days too.

DROP TRIGGER rollups_signup_inserted;
DROP TRIGGER rollups_signup_deleted;
DROP TRIGGER rollups_signup_counts_changed;
DROP TRIGGER rollups_signup_utm_changed;

DROP TABLE rollup_utm;
-- rollup_settings without the value limits, which nothing reads any more (made anew: SQLite's DROP COLUMN cannot
-- rewrite a definition that carries comments).
CREATE TABLE rollup_settings_new (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- The site's time zone (service-settings.json: utcOffsetMinutes) the days were cut in, minutes east of UTC.
  utc_offset_minutes INTEGER NOT NULL
);
INSERT INTO rollup_settings_new (id, utc_offset_minutes) SELECT id, utc_offset_minutes FROM rollup_settings;
DROP TABLE rollup_settings;
ALTER TABLE rollup_settings_new RENAME TO rollup_settings;

-- Signups per day (and over all time: day '') per utm_source / utm_campaign value, and how many of them confirmed.
-- Every row counts at least one signup: one whose count reaches 0 is deleted.
CREATE TABLE rollup_utm (
  day TEXT NOT NULL,                  -- YYYY-MM-DD, or '' for all time
  kind TEXT NOT NULL CHECK (kind IN ('utm_source', 'utm_campaign')),
  value TEXT NOT NULL,
  signups INTEGER NOT NULL,
  confirmed INTEGER NOT NULL,
  PRIMARY KEY (day, kind, value)
) WITHOUT ROWID;

-- A day's (or all time's) values, most confirmed first: the dashboard reads the first few of each day, never them all.
CREATE INDEX rollup_utm_top ON rollup_utm (day, kind, confirmed DESC, signups DESC, value);

-- Signups with a value, per day (and all time) and kind: the dashboard's "other" is this less the values it lists.
CREATE TABLE rollup_utm_totals (
  day TEXT NOT NULL,
  kind TEXT NOT NULL,
  signups INTEGER NOT NULL,
  PRIMARY KEY (day, kind)
) WITHOUT ROWID;

-- The rows already stored (worker/src/store/rollups.ts: rebuildStatements runs the same counts).
INSERT INTO rollup_utm (day, kind, value, signups, confirmed)
SELECT day, kind, value, count(*), count(confirmed_at)
FROM (
  SELECT CASE WHEN span.all_time THEN '' ELSE date(signups.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') END AS day,
    utm.kind, signups.confirmed_at,
    CASE WHEN json_valid(signups.properties) AND json_type(signups.properties, utm.path) = 'text'
      THEN nullif(json_extract(signups.properties, utm.path), '') END AS value
  FROM signups,
    (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS utm,
    (SELECT 0 AS all_time UNION ALL SELECT 1) AS span
)
WHERE value IS NOT NULL
GROUP BY day, kind, value;

INSERT INTO rollup_utm_totals (day, kind, signups)
SELECT day, kind, sum(signups) FROM rollup_utm GROUP BY day, kind;

DELETE FROM rollup_days WHERE signups <= 0;

-- A row arrives: its day and source, its delivery state.
CREATE TRIGGER rollups_signup_inserted AFTER INSERT ON signups
BEGIN
  INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
  SELECT date(NEW.created_at, utc_offset_minutes || ' minutes'), coalesce(NEW.source, ''), 1,
    NEW.confirmed_at IS NOT NULL, NEW.referred_by IS NOT NULL, NEW.referral_counted_at IS NOT NULL
  FROM rollup_settings
  WHERE true
  ON CONFLICT (day, source) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed,
    referred = referred + excluded.referred, referral_counted = referral_counted + excluded.referral_counted;

  UPDATE rollup_counters SET count = count + 1 WHERE name = 'delivery_' || NEW.delivery_state;
END;

-- A row leaves (an erase): it leaves every count it was in, and a count left at 0 goes. The people it referred lose
-- their referred_by through the foreign key's ON DELETE SET NULL, which runs rollups_signup_counts_changed for each.
CREATE TRIGGER rollups_signup_deleted AFTER DELETE ON signups
BEGIN
  UPDATE rollup_days SET signups = signups - 1, confirmed = confirmed - (OLD.confirmed_at IS NOT NULL),
    referred = referred - (OLD.referred_by IS NOT NULL), referral_counted = referral_counted - (OLD.referral_counted_at IS NOT NULL)
  WHERE day = date(OLD.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AND source = coalesce(OLD.source, '');
  DELETE FROM rollup_days
  WHERE day = date(OLD.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AND source = coalesce(OLD.source, '')
    AND signups <= 0;

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
  DELETE FROM rollup_days
  WHERE day = date(OLD.created_at, (SELECT utc_offset_minutes FROM rollup_settings) || ' minutes') AND source = coalesce(OLD.source, '')
    AND signups <= 0;

  INSERT INTO rollup_days (day, source, signups, confirmed, referred, referral_counted)
  SELECT date(NEW.created_at, utc_offset_minutes || ' minutes'), coalesce(NEW.source, ''), 1,
    NEW.confirmed_at IS NOT NULL, NEW.referred_by IS NOT NULL, NEW.referral_counted_at IS NOT NULL
  FROM rollup_settings
  WHERE true
  ON CONFLICT (day, source) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed,
    referred = referred + excluded.referred, referral_counted = referral_counted + excluded.referral_counted;
END;

-- A row arrives: its UTM values (its day's and all time's), and whether it is confirmed.
CREATE TRIGGER rollups_utm_inserted AFTER INSERT ON signups
BEGIN
  INSERT INTO rollup_utm (day, kind, value, signups, confirmed)
  SELECT day, kind, value, 1, NEW.confirmed_at IS NOT NULL
  FROM (
    SELECT span.day, k.kind, CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
      THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  )
  WHERE value IS NOT NULL
  ON CONFLICT (day, kind, value) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed;

  INSERT INTO rollup_utm_totals (day, kind, signups)
  SELECT day, kind, 1
  FROM (
    SELECT span.day, k.kind, CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
      THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  )
  WHERE value IS NOT NULL
  ON CONFLICT (day, kind) DO UPDATE SET signups = signups + 1;
END;

-- A row leaves (an erase): out of its values' counts; a value left with no signup is deleted, so the erased person's
-- value leaves with them.
CREATE TRIGGER rollups_utm_deleted AFTER DELETE ON signups
BEGIN
  UPDATE rollup_utm SET signups = signups - 1, confirmed = confirmed - (OLD.confirmed_at IS NOT NULL)
  WHERE (day, kind, value) IN (
    SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
      THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  );
  DELETE FROM rollup_utm WHERE signups <= 0 AND (day, kind, value) IN (
    SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
      THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  );

  UPDATE rollup_utm_totals SET signups = signups - 1
  WHERE (day, kind) IN (
    SELECT span.day, k.kind
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
    WHERE json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text' AND json_extract(OLD.properties, k.path) <> ''
  );
  DELETE FROM rollup_utm_totals WHERE signups <= 0
    AND day IN ((SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') FROM rollup_settings), '');
END;

-- A confirmation, or the attribution or the time changed (no route changes those two; an operator's SQL might): the
-- row leaves its old values' counts and joins its new ones.
CREATE TRIGGER rollups_utm_changed AFTER UPDATE OF created_at, properties, confirmed_at ON signups
WHEN OLD.created_at IS NOT NEW.created_at OR OLD.properties IS NOT NEW.properties
  OR (OLD.confirmed_at IS NULL) <> (NEW.confirmed_at IS NULL)
BEGIN
  UPDATE rollup_utm SET signups = signups - 1, confirmed = confirmed - (OLD.confirmed_at IS NOT NULL)
  WHERE (day, kind, value) IN (
    SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
      THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  );
  DELETE FROM rollup_utm WHERE signups <= 0 AND (day, kind, value) IN (
    SELECT span.day, k.kind, CASE WHEN json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text'
      THEN nullif(json_extract(OLD.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  );
  UPDATE rollup_utm_totals SET signups = signups - 1
  WHERE (day, kind) IN (
    SELECT span.day, k.kind
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
    WHERE json_valid(OLD.properties) AND json_type(OLD.properties, k.path) = 'text' AND json_extract(OLD.properties, k.path) <> ''
  );
  DELETE FROM rollup_utm_totals WHERE signups <= 0
    AND day IN ((SELECT date(OLD.created_at, utc_offset_minutes || ' minutes') FROM rollup_settings), '');

  INSERT INTO rollup_utm (day, kind, value, signups, confirmed)
  SELECT day, kind, value, 1, NEW.confirmed_at IS NOT NULL
  FROM (
    SELECT span.day, k.kind, CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
      THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  )
  WHERE value IS NOT NULL
  ON CONFLICT (day, kind, value) DO UPDATE SET signups = signups + 1, confirmed = confirmed + excluded.confirmed;
  INSERT INTO rollup_utm_totals (day, kind, signups)
  SELECT day, kind, 1
  FROM (
    SELECT span.day, k.kind, CASE WHEN json_valid(NEW.properties) AND json_type(NEW.properties, k.path) = 'text'
      THEN nullif(json_extract(NEW.properties, k.path), '') END AS value
    FROM (SELECT 'utm_source' AS kind, '$.utm_source' AS path UNION ALL SELECT 'utm_campaign', '$.utm_campaign') AS k,
      (SELECT date(NEW.created_at, utc_offset_minutes || ' minutes') AS day FROM rollup_settings UNION ALL SELECT '') AS span
  )
  WHERE value IS NOT NULL
  ON CONFLICT (day, kind) DO UPDATE SET signups = signups + 1;
END;
