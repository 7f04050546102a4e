-- Hits of live projects that the aggregator did not store, and why: 'bot' (a known crawler by
-- its user agent), 'blacklisted' and 'not_whitelisted' (the project's counter settings). One
-- row per hit, keyed by its id, so a batch written again after a failure counts once
-- (count with uniqExact(event_id), or read FINAL). Kept 90 days. Hits of unknown or deleted
-- projects are not recorded: anyone can send hits for any id, and they would fill the table.
CREATE TABLE IF NOT EXISTS dropped_hits
(
    project_id UInt32,
    event_date Date,
    reason     LowCardinality(String),
    event_id   UUID,
    ts         DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1))
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, reason, event_id)
TTL event_date + INTERVAL 90 DAY;
