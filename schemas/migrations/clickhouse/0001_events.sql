-- Raw events, one row per hit. Keyed by project, then Moscow day, then visitor hash, as
-- ClickHouse's hits_v1: a report reads one project's days, and SAMPLE reads a stable share
-- of visitors (their whole visits), never a second copy of the data.
-- ts is UTC (DateTime64 stores an instant); event_date is the Moscow calendar day, because
-- every report is cut in Moscow time and the day key must match the report's day.
CREATE TABLE IF NOT EXISTS events
(
    event_id      UUID,
    project_id    UInt32,
    event_type    LowCardinality(String),
    ts            DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    event_date    Date,
    visitor_id    String CODEC(ZSTD(1)),
    visitor_hash  UInt32 DEFAULT xxHash32(visitor_id),
    session_id    UInt64,
    url           String CODEC(ZSTD(1)),
    referrer      String CODEC(ZSTD(1)),
    title         String CODEC(ZSTD(1)),
    screen_width  UInt16,
    screen_height UInt16,
    user_agent    String CODEC(ZSTD(1))
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, visitor_hash, ts)
SAMPLE BY visitor_hash;
