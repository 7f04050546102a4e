-- Day rollups shaped like the drill-down paths of the reports read most: traffic sources (type →
-- system → phrase), geography (country → region → city) and pages (page → address). The report
-- engine reads one when the report's path, its filters and its metrics all fit (api/src/reports/
-- plan.ts), and the raw events otherwise. Measured on 10 million events over 30 days
-- (benchmarks/RESULTS.md, 2026-11-24): 0.58, 0.53 and 2.76 bytes per event; a month's report
-- 272 → 28 ms, 282 → 36 ms and 466 → 79 ms against the raw events, with the same numbers.
-- Visitors are uniq states of the stored visitor hash, as the engine counts them on raw events.
-- Rows stored before are filled from the events once (the insert reads nothing when the rollup
-- holds rows already).

CREATE TABLE IF NOT EXISTS rollup_sources_day
(
    project_id   UInt32,
    event_date   Date,
    traffic_type LowCardinality(String),
    traffic_system LowCardinality(String),
    search_phrase String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    visit_starts SimpleAggregateFunction(sum, UInt64),
    bounces      SimpleAggregateFunction(sum, Int64),
    duration_ms  SimpleAggregateFunction(sum, UInt64),
    visitors     AggregateFunction(uniq, UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, traffic_type, traffic_system, search_phrase);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_sources_day_mv TO rollup_sources_day AS
SELECT project_id, event_date, traffic_type, traffic_system, search_phrase,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;

INSERT INTO rollup_sources_day
SELECT project_id, event_date, traffic_type, traffic_system, search_phrase,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
WHERE (SELECT count() FROM rollup_sources_day) = 0
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;

CREATE TABLE IF NOT EXISTS rollup_geo_day
(
    project_id   UInt32,
    event_date   Date,
    geo_country  UInt32,
    geo_area     UInt32,
    geo_city     UInt32,
    page_views   SimpleAggregateFunction(sum, UInt64),
    visit_starts SimpleAggregateFunction(sum, UInt64),
    bounces      SimpleAggregateFunction(sum, Int64),
    duration_ms  SimpleAggregateFunction(sum, UInt64),
    visitors     AggregateFunction(uniq, UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, geo_country, geo_area, geo_city);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_geo_day_mv TO rollup_geo_day AS
SELECT project_id, event_date, geo_country, geo_area, geo_city,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;

INSERT INTO rollup_geo_day
SELECT project_id, event_date, geo_country, geo_area, geo_city,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
WHERE (SELECT count() FROM rollup_geo_day) = 0
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;

CREATE TABLE IF NOT EXISTS rollup_pages_day
(
    project_id   UInt32,
    event_date   Date,
    url_no_args  String,
    url          String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    engaged_ms   SimpleAggregateFunction(sum, UInt64),
    sessions     AggregateFunction(uniq, UInt64),
    visitors     AggregateFunction(uniq, UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, url_no_args, url);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_day_mv TO rollup_pages_day AS
SELECT project_id, event_date, url_no_args, url,
       countIf(event_type = 'pageview') AS page_views, sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqState(session_id) AS sessions, uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, url_no_args, url;

INSERT INTO rollup_pages_day
SELECT project_id, event_date, url_no_args, url,
       countIf(event_type = 'pageview') AS page_views, sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqState(session_id) AS sessions, uniqState(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
WHERE (SELECT count() FROM rollup_pages_day) = 0
GROUP BY project_id, event_date, url_no_args, url;
