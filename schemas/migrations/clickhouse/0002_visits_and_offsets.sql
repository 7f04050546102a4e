-- The visit a hit belongs to starts at session_start; the visits table is keyed by its day.
-- event_number is the hit's place in its visit. bounce_delta (+1 on a visit's first page view,
-- -1 on its second) and duration_delta (ms the hit added to its visit) let the rollups hold
-- bounces and durations as plain sums, although a visit's end is not known when it is written.
ALTER TABLE events ADD COLUMN IF NOT EXISTS session_start DateTime64(3, 'UTC') AFTER session_id;
ALTER TABLE events ADD COLUMN IF NOT EXISTS event_number UInt32 AFTER session_start;
ALTER TABLE events ADD COLUMN IF NOT EXISTS bounce_delta Int8 AFTER event_number;
ALTER TABLE events ADD COLUMN IF NOT EXISTS duration_delta UInt32 AFTER bounce_delta;

-- Where each event sat on the bus (Kafka topic, partition, offset; -1 for the in-process bus).
-- The highest offset written per partition is what makes a replayed batch harmless.
ALTER TABLE events ADD COLUMN IF NOT EXISTS bus_topic LowCardinality(String) DEFAULT '';
ALTER TABLE events ADD COLUMN IF NOT EXISTS bus_partition Int32 DEFAULT -1;
ALTER TABLE events ADD COLUMN IF NOT EXISTS bus_offset Int64 DEFAULT -1;

CREATE TABLE IF NOT EXISTS ingest_offsets
(
    topic     LowCardinality(String),
    partition Int32,
    offset    SimpleAggregateFunction(max, Int64)
)
ENGINE = AggregatingMergeTree
ORDER BY (topic, partition);

-- Written in the same INSERT as the events, so the offsets never run ahead of the data.
CREATE MATERIALIZED VIEW IF NOT EXISTS ingest_offsets_mv TO ingest_offsets AS
SELECT bus_topic AS topic, bus_partition AS partition, max(bus_offset) AS offset
FROM events
WHERE bus_partition >= 0
GROUP BY topic, partition;

-- One row per visit, kept current as the visit grows: every insert of its events merges into
-- it, so entry and exit page, depth and duration are one lookup, not a scan of the events.
CREATE TABLE IF NOT EXISTS visits
(
    project_id   UInt32,
    start_date   Date,
    visitor_hash UInt32,
    session_id   UInt64,
    visitor_id   SimpleAggregateFunction(any, String),
    start_ts     SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    end_ts       SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
    page_views   SimpleAggregateFunction(sum, UInt64),
    events       SimpleAggregateFunction(sum, UInt64),
    entry_url    AggregateFunction(argMin, String, DateTime64(3, 'UTC')),
    exit_url     AggregateFunction(argMax, String, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(start_date)
ORDER BY (project_id, start_date, visitor_hash, session_id)
SAMPLE BY visitor_hash;

CREATE MATERIALIZED VIEW IF NOT EXISTS visits_mv TO visits AS
SELECT
    project_id,
    toDate(session_start, 'Europe/Moscow') AS start_date,
    visitor_hash,
    session_id,
    any(visitor_id) AS visitor_id,
    min(ts) AS start_ts,
    max(ts) AS end_ts,
    countIf(event_type = 'pageview') AS page_views,
    count() AS events,
    argMinState(url, ts) AS entry_url,
    argMaxState(url, ts) AS exit_url
FROM events
GROUP BY project_id, start_date, visitor_hash, session_id;
