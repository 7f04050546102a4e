-- The day rollup answers the totals of the page reports without a filter.
--
-- Every event is in every path rollup (their views group all events), so the totals of the pages
-- report's top level, unfiltered, are the site's: the same states and sums over the same events.
-- Merging every page's distinct-count states to get them cost the pages report most of its time
-- (at 10 million events 72 ms of the first page's 233; ten times that at 100 million: benchmarks/
-- RESULTS.md, 2026-11-25, "keys first"); a day of the site is one row here, so the period's totals
-- merge 30 states. The day rollup gains what the path rollups count and it did not: distinct visits
-- (`sessions`, the visits of pages), engaged time (`engaged_ms`) and logged-in users (`uid`), each
-- computed as the path rollups compute it, so both give the very same numbers.
-- A table's columns of states cannot be filled in place: the rollup is dropped with its view,
-- created again and filled from the events, as 0019 did. The migration runs before this process
-- writes (server/src/main.ts; in the cluster the aggregator migrates before any consumer starts),
-- and runs whole again if a start stops in the middle (every statement drops or creates).

DROP VIEW IF EXISTS rollup_day_mv;
DROP TABLE IF EXISTS rollup_day;
CREATE TABLE IF NOT EXISTS rollup_day
(
    project_id    UInt32,
    event_date    Date,
    page_views    SimpleAggregateFunction(sum, UInt64),
    events        SimpleAggregateFunction(sum, UInt64),
    bounces       SimpleAggregateFunction(sum, Int64),
    duration_ms   SimpleAggregateFunction(sum, UInt64),
    visitors      AggregateFunction(uniqCombined(17), UInt32),
    visit_starts  SimpleAggregateFunction(sum, UInt64),
    custom_events SimpleAggregateFunction(sum, UInt64),
    engaged_ms    SimpleAggregateFunction(sum, UInt64),
    sessions      AggregateFunction(uniqCombined(17), UInt64),
    uid           AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date);
INSERT INTO rollup_day
SELECT project_id, event_date AS event_date,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors,
       countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events,
       sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqCombinedState(17)(session_id) AS sessions, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_day_mv TO rollup_day AS
SELECT project_id, event_date AS event_date,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqCombinedState(17)(visitor_hash) AS visitors,
       countIf(event_number = 1) AS visit_starts, countIf(event_type = 'event') AS custom_events,
       sumIf(toUInt64(engaged_ms), event_type = 'engagement') AS engaged_ms,
       uniqCombinedState(17)(session_id) AS sessions, uniqIfState(user_id, user_id != '') AS uid
FROM events
GROUP BY project_id, event_date;
