-- The events' UUID, replaced by `event_key` in 0015 (which filled the key from it first). Its own
-- file: 0015's fill reads this column, so it must never run again after the column is gone.
ALTER TABLE events DROP COLUMN IF EXISTS event_id;
