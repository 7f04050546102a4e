-- The path rollups of 0014 again, with a cheaper state of distinct visitors (and of visits in the
-- pages rollup): `uniqCombined(17)` instead of `uniq`. `uniq` keeps up to 65 536 hashes in a state
-- (256 KB); `uniqCombined(17)` every hash up to 8 192 and a HyperLogLog of 2^17 cells above (96
-- KB), which merges cell by cell. Chosen on 10 million events (benchmarks/storage/visitors-lab.mjs
-- --paths and --error; benchmarks/RESULTS.md, 2026-11-24, third run) against uniqHLL12 and
-- uniqCombined(14..16): the smallest error (at most 0.61 % on sets of 20 000 to 1 000 000 hashes,
-- under uniq's 0.77 %; 14 and 15 reach 2 %, uniqHLL12 4 %), fewer bytes than uniq (the three
-- rollups 3.33 → 3.15 bytes per event) and its merges 8–19 % faster. Time rollups keep `uniq`.
-- A state type cannot be altered in place: each rollup is dropped with its view, created again,
-- filled from the events, then its view is created. The migration runs before this process
-- writes (server/src/main.ts; in the cluster the aggregator migrates before any consumer starts),
-- and runs whole again if a start stops in the middle (every statement drops or creates).

DROP VIEW IF EXISTS rollup_sources_day_mv;
DROP TABLE IF EXISTS rollup_sources_day;
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, traffic_type, traffic_system, search_phrase);
INSERT INTO rollup_sources_day
SELECT project_id, event_date, traffic_type, traffic_system, search_phrase,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_sources_day_mv TO rollup_sources_day AS
SELECT project_id, event_date, traffic_type, traffic_system, search_phrase,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, traffic_type, traffic_system, search_phrase;

DROP VIEW IF EXISTS rollup_geo_day_mv;
DROP TABLE IF EXISTS rollup_geo_day;
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
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, geo_country, geo_area, geo_city);
INSERT INTO rollup_geo_day
SELECT project_id, event_date, geo_country, geo_area, geo_city,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_geo_day_mv TO rollup_geo_day AS
SELECT project_id, event_date, geo_country, geo_area, geo_city,
       countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, geo_country, geo_area, geo_city;

DROP VIEW IF EXISTS rollup_pages_day_mv;
DROP TABLE IF EXISTS rollup_pages_day;
CREATE TABLE IF NOT EXISTS rollup_pages_day
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
ORDER BY (project_id, event_date, url_no_args, url);
INSERT INTO rollup_pages_day
SELECT project_id, event_date, url_no_args, url,
       countIf(event_type = 'pageview') AS page_views, sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqCombinedState(17)(session_id) AS sessions, uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, url_no_args, url;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_day_mv TO rollup_pages_day AS
SELECT project_id, event_date, url_no_args, url,
       countIf(event_type = 'pageview') AS page_views, sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqCombinedState(17)(session_id) AS sessions, uniqCombinedState(17)(visitor_hash) AS visitors, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date, url_no_args, url;
