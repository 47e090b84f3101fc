-- How many people each person brought through their link, kept by triggers in the statement that adds, moves or
-- removes a referred row, so the console's person page reads one number instead of counting every friend (a lookup
-- reads at most 100 rows, whatever the referrer's reach). Counts every referred row, credited or not.
ALTER TABLE signups ADD COLUMN referred_count INTEGER NOT NULL DEFAULT 0;

UPDATE signups SET referred_count = (SELECT count(*) FROM signups AS friend WHERE friend.referred_by = signups.id)
WHERE id IN (SELECT referred_by FROM signups WHERE referred_by IS NOT NULL);

CREATE TRIGGER referred_count_inserted AFTER INSERT ON signups
WHEN NEW.referred_by IS NOT NULL
BEGIN
  UPDATE signups SET referred_count = referred_count + 1 WHERE id = NEW.referred_by;
END;

CREATE TRIGGER referred_count_deleted AFTER DELETE ON signups
WHEN OLD.referred_by IS NOT NULL
BEGIN
  UPDATE signups SET referred_count = referred_count - 1 WHERE id = OLD.referred_by;
END;

-- An erased referrer's friends lose referred_by (ON DELETE SET NULL): the erased row is gone, so that decrement finds nothing.
CREATE TRIGGER referred_count_moved AFTER UPDATE OF referred_by ON signups
WHEN OLD.referred_by IS NOT NEW.referred_by
BEGIN
  UPDATE signups SET referred_count = referred_count - 1 WHERE id = OLD.referred_by;
  UPDATE signups SET referred_count = referred_count + 1 WHERE id = NEW.referred_by;
END;
