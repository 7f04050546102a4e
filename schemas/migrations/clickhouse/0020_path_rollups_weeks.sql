-- Whole weeks of the path rollups, and rows read in small granules.
--
-- A report's table over a month merges one state of distinct visitors (and of visits, for pages)
-- per row and day: at 100 million events the filtered pages report spent 400 ms deserializing
-- states, most of them of rows its filter drops (benchmarks/RESULTS.md, 2026-11-25). Two changes,
-- both giving the very same numbers (the states merge exactly as the day rows do):
-- 1. Each path rollup gets a week twin, `rollup_*_week`: the same columns, `event_date` the Monday
--    of the Moscow week, fed by a materialized view from its day rollup (day rows merged into their
--    week; cheaper than grouping the events again). A table of a period reads its whole Monday to
--    Sunday weeks from the week twin and only the days around them from the day rollup (compile.ts,
--    `wholeWeeks`): a 30-day period merges 6 states a page instead of 30.
-- 2. Granules of about 16 KB (`index_granularity_bytes`; the default 10 MB made a granule of
--    thousands of rows): a filter on the path's columns is applied before the states are read, and
--    only the granules holding a kept row are read, so a filter that keeps one page in ten reads
--    about that share of the states.
-- The setting cannot be altered in place: each day rollup is copied into a new table with it and
-- exchanged with the old (no recount from the events); the week twins are filled from the day
-- rollups. The migration runs before this process writes (server/src/main.ts; in the cluster the
-- aggregator migrates before any consumer starts), and runs whole again if a start stops in the
-- middle: every statement drops, creates, copies into a table it created, or exchanges the copy
-- with a table that holds the same rows.

DROP VIEW IF EXISTS rollup_sources_day_mv;
DROP VIEW IF EXISTS rollup_sources_week_mv;
DROP TABLE IF EXISTS rollup_sources_day_next;
CREATE TABLE rollup_sources_day_next
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, traffic_type, traffic_system, search_phrase)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_sources_day_next SELECT * FROM rollup_sources_day;
EXCHANGE TABLES rollup_sources_day AND rollup_sources_day_next;
DROP TABLE IF EXISTS rollup_sources_day_next;
DROP TABLE IF EXISTS rollup_sources_week;
CREATE TABLE rollup_sources_week
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, traffic_type, traffic_system, search_phrase)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_sources_week
SELECT project_id, toMonday(event_date) AS event_date, traffic_type, traffic_system, search_phrase, sum(page_views) AS page_views, sum(visit_starts) AS visit_starts, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_sources_day
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_sources_day_mv TO rollup_sources_day AS
SELECT project_id, event_date, traffic_type, traffic_system, search_phrase,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_sources_week_mv TO rollup_sources_week AS
SELECT project_id, toMonday(event_date) AS event_date, traffic_type, traffic_system, search_phrase, sum(page_views) AS page_views, sum(visit_starts) AS visit_starts, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_sources_day
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;

DROP VIEW IF EXISTS rollup_geo_day_mv;
DROP VIEW IF EXISTS rollup_geo_week_mv;
DROP TABLE IF EXISTS rollup_geo_day_next;
CREATE TABLE rollup_geo_day_next
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, geo_country, geo_area, geo_city)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_geo_day_next SELECT * FROM rollup_geo_day;
EXCHANGE TABLES rollup_geo_day AND rollup_geo_day_next;
DROP TABLE IF EXISTS rollup_geo_day_next;
DROP TABLE IF EXISTS rollup_geo_week;
CREATE TABLE rollup_geo_week
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, geo_country, geo_area, geo_city)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_geo_week
SELECT project_id, toMonday(event_date) AS event_date, geo_country, geo_area, geo_city, sum(page_views) AS page_views, sum(visit_starts) AS visit_starts, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_geo_day
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_geo_day_mv TO rollup_geo_day AS
SELECT project_id, event_date, geo_country, geo_area, geo_city,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_geo_week_mv TO rollup_geo_week AS
SELECT project_id, toMonday(event_date) AS event_date, geo_country, geo_area, geo_city, sum(page_views) AS page_views, sum(visit_starts) AS visit_starts, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_geo_day
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;

DROP VIEW IF EXISTS rollup_pages_day_mv;
DROP VIEW IF EXISTS rollup_pages_week_mv;
DROP TABLE IF EXISTS rollup_pages_day_next;
CREATE TABLE rollup_pages_day_next
(
    project_id   UInt32,
    event_date   Date,
    url_no_args  String,
    url          String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    engaged_ms   SimpleAggregateFunction(sum, UInt64),
    sessions     AggregateFunction(uniqCombined(17), UInt64),
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, url_no_args, url)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_pages_day_next SELECT * FROM rollup_pages_day;
EXCHANGE TABLES rollup_pages_day AND rollup_pages_day_next;
DROP TABLE IF EXISTS rollup_pages_day_next;
DROP TABLE IF EXISTS rollup_pages_week;
CREATE TABLE rollup_pages_week
(
    project_id   UInt32,
    event_date   Date,
    url_no_args  String,
    url          String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    engaged_ms   SimpleAggregateFunction(sum, UInt64),
    sessions     AggregateFunction(uniqCombined(17), UInt64),
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, url_no_args, url)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_pages_week
SELECT project_id, toMonday(event_date) AS event_date, url_no_args, url, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args, url;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_day_mv TO rollup_pages_day AS
SELECT project_id, event_date, url_no_args, url,
       countIf(event_type = 'pageview') AS page_views, sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqCombinedState(17)(session_id) AS sessions, uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, url_no_args, url;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_week_mv TO rollup_pages_week AS
SELECT project_id, toMonday(event_date) AS event_date, url_no_args, url, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args, url;
