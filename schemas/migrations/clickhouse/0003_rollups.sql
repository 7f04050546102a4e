-- Rollups of a project's traffic at five minutes, an hour and a Moscow day, filled by
-- materialized views on every insert into events. Moscow is UTC+3 all year, so its five-minute
-- and hour buckets are the same instants as UTC's; the day rollup is keyed by the Moscow day.
-- Visits and visitors are uniq states, so any set of buckets merges into distinct counts.
-- Bounces and durations are sums of the events' deltas (see 0002): exact over any period that
-- holds whole visits, and attributed to the bucket of the event that changed them.
CREATE TABLE IF NOT EXISTS rollup_5m
(
    project_id UInt32,
    bucket     DateTime('UTC'),
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (project_id, bucket);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_5m_mv TO rollup_5m AS
SELECT project_id, toStartOfFiveMinutes(toDateTime(ts, 'UTC')) AS bucket,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
GROUP BY project_id, bucket;

CREATE TABLE IF NOT EXISTS rollup_hour
(
    project_id UInt32,
    bucket     DateTime('UTC'),
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (project_id, bucket);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_hour_mv TO rollup_hour AS
SELECT project_id, toStartOfHour(toDateTime(ts, 'UTC')) AS bucket,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
GROUP BY project_id, bucket;

CREATE TABLE IF NOT EXISTS rollup_day
(
    project_id UInt32,
    event_date Date,
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_day_mv TO rollup_day AS
SELECT project_id, event_date,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
GROUP BY project_id, event_date;
