-- Bus messages the aggregator could not store and will not try again (issue 9): a message that
-- is not an accepted hit (not JSON, a field out of range, text no store can keep), or a row that
-- ClickHouse refused. reason says why (the validation's or ClickHouse's message); raw is the
-- message as it came, as JSON text, so an operator can read it and send it again once fixed.
-- event_date is the hit's Moscow day when its time was readable, else the day it was set aside;
-- event_id is '' and project_id 0 when the message had none that could be read.
-- A batch written again after a failure (a replay from Kafka, a retry) writes the same letters
-- again: the key (message and its ids) makes them one; count with FINAL or uniqExact. No
-- partitions, so that the merge that makes them one is never split by a month boundary; the
-- table stays small. Kept 30 days from when each letter was set aside.
CREATE TABLE IF NOT EXISTS dead_hits
(
    set_aside_at DateTime64(3, 'UTC'),
    event_date   Date,
    project_id   UInt32,
    event_id     String,
    reason       String,
    raw          String CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree
ORDER BY (project_id, event_date, event_id, cityHash64(raw))
TTL toDateTime(set_aside_at) + INTERVAL 30 DAY;
