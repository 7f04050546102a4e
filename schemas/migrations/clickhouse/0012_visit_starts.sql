-- A visit is counted once, in the bucket where it starts (README, "Metric definitions"). The
-- rollups' uniq state of session ids counts a visit in every bucket it touches, so a five-minute
-- graph showed more visits than page views. visit_starts counts the events that begin a visit
-- (event_number 1): a plain sum, exact over any set of buckets; the uniq state of session ids,
-- which no report reads any more, is dropped (2 of 70 bytes per event at 10 million events,
-- benchmarks/RESULTS.md, 2026-11-24). custom_events counts the custom
-- events (the catalogue's events_count), so that the sites list reads them from the rollups too.
-- The old rows are filled from the events once (the insert reads nothing when the rollup already
-- holds visit starts).
-- url_chapter: the site section of a page, its first path segment (the «chapters» report).
ALTER TABLE events ADD COLUMN IF NOT EXISTS url_chapter String ALIAS concat('/', splitByChar('/', path(url_no_args))[2]);

ALTER TABLE rollup_5m ADD COLUMN IF NOT EXISTS visit_starts SimpleAggregateFunction(sum, UInt64);
ALTER TABLE rollup_5m ADD COLUMN IF NOT EXISTS custom_events SimpleAggregateFunction(sum, UInt64);

DROP VIEW IF EXISTS rollup_5m_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_5m_mv TO rollup_5m AS
SELECT project_id, toStartOfFiveMinutes(toDateTime(ts, 'UTC')) AS bucket,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_id) AS visitors,
       countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
GROUP BY project_id, bucket;

INSERT INTO rollup_5m (project_id, bucket, visit_starts, custom_events)
SELECT project_id, toStartOfFiveMinutes(toDateTime(ts, 'UTC')) AS bucket, countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
WHERE (SELECT sum(visit_starts) FROM rollup_5m) = 0
GROUP BY project_id, bucket;

ALTER TABLE rollup_5m DROP COLUMN IF EXISTS visits;

ALTER TABLE rollup_hour ADD COLUMN IF NOT EXISTS visit_starts SimpleAggregateFunction(sum, UInt64);
ALTER TABLE rollup_hour ADD COLUMN IF NOT EXISTS custom_events SimpleAggregateFunction(sum, UInt64);

DROP VIEW IF EXISTS rollup_hour_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_hour_mv TO rollup_hour AS
SELECT project_id, toStartOfHour(toDateTime(ts, 'UTC')) AS bucket,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_id) AS visitors,
       countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
GROUP BY project_id, bucket;

INSERT INTO rollup_hour (project_id, bucket, visit_starts, custom_events)
SELECT project_id, toStartOfHour(toDateTime(ts, 'UTC')) AS bucket, countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
WHERE (SELECT sum(visit_starts) FROM rollup_hour) = 0
GROUP BY project_id, bucket;

ALTER TABLE rollup_hour DROP COLUMN IF EXISTS visits;

ALTER TABLE rollup_day ADD COLUMN IF NOT EXISTS visit_starts SimpleAggregateFunction(sum, UInt64);
ALTER TABLE rollup_day ADD COLUMN IF NOT EXISTS custom_events SimpleAggregateFunction(sum, UInt64);

DROP VIEW IF EXISTS rollup_day_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_day_mv TO rollup_day AS
SELECT project_id, event_date,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_id) AS visitors,
       countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
GROUP BY project_id, event_date;

INSERT INTO rollup_day (project_id, event_date, visit_starts, custom_events)
SELECT project_id, event_date, countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events
FROM events
WHERE (SELECT sum(visit_starts) FROM rollup_day) = 0
GROUP BY project_id, event_date;

ALTER TABLE rollup_day DROP COLUMN IF EXISTS visits;

-- A visit's bounce as the aggregator decides it (README, "Metric definitions"): the sum of its
-- events' bounce deltas, 1 or 0, so that reports read from the visits (entry and exit pages,
-- depth, time) count bounces as the reports read from the events do. Visits stored before this
-- migration keep 0.
ALTER TABLE visits ADD COLUMN IF NOT EXISTS bounce SimpleAggregateFunction(sum, Int64);

DROP VIEW IF EXISTS visits_mv;

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
    argMaxState(url, ts) AS exit_url,
    max(session_number) AS session_number,
    sum(toInt64(bounce_delta)) AS bounce
FROM events
GROUP BY project_id, start_date, visitor_hash, session_id;
