-- The pages rollup by the address without arguments.
--
-- The pages rollups (day and week, 0020) keep a row per address *with* its arguments
-- (`url_no_args`, `url`): at 10 million events 95 000 week rows and 128 000 day rows, for 8 400
-- addresses without arguments. A report whose rows are addresses without arguments (page_urls'
-- top level, its CSV, «Разделы сайта» at every level) merged a visitors and a visits state per
-- row with arguments: the merge of those states is 92 % of the CSV's time (benchmarks/RESULTS.md,
-- 2026-11-25). These twins keep one row per address without arguments (and day, or Monday-to-
-- Sunday week): 37 000 and 18 000 rows at 10 million events, the CSV of all pages in half the
-- time, the very same numbers (the states merge exactly as the rows with arguments do). The engine
-- reads them whenever a table neither shows nor filters by the address with arguments
-- (api/src/reports/compile.ts, PATH_ROLLUPS).
--
-- Both are fed by materialized views from the day rollup (its inserted rows merged again, as the
-- week twins of 0020 are) and filled from it here. The migration runs before this process writes
-- (server/src/main.ts; in the cluster the aggregator migrates before any consumer starts), and runs
-- whole again if a start stops in the middle: every statement drops, creates, or fills a table it
-- created.

DROP VIEW IF EXISTS rollup_pages_noargs_day_mv;
DROP VIEW IF EXISTS rollup_pages_noargs_week_mv;
DROP TABLE IF EXISTS rollup_pages_noargs_day;
CREATE TABLE rollup_pages_noargs_day
(
    project_id   UInt32,
    event_date   Date,
    url_no_args  String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    engaged_ms   SimpleAggregateFunction(sum, UInt64),
    sessions     AggregateFunction(uniqCombined(17), UInt64),
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, url_no_args)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_pages_noargs_day
SELECT project_id, event_date, url_no_args, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args;
DROP TABLE IF EXISTS rollup_pages_noargs_week;
CREATE TABLE rollup_pages_noargs_week
(
    project_id   UInt32,
    event_date   Date,
    url_no_args  String,
    page_views   SimpleAggregateFunction(sum, UInt64),
    engaged_ms   SimpleAggregateFunction(sum, UInt64),
    sessions     AggregateFunction(uniqCombined(17), UInt64),
    visitors     AggregateFunction(uniqCombined(17), UInt32),
    uid          AggregateFunction(uniqIf, String, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, event_date, url_no_args)
SETTINGS index_granularity_bytes = 16384;
INSERT INTO rollup_pages_noargs_week
SELECT project_id, toMonday(event_date) AS event_date, url_no_args, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_noargs_day_mv TO rollup_pages_noargs_day AS
SELECT project_id, event_date, url_no_args, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args;
CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_pages_noargs_week_mv TO rollup_pages_noargs_week AS
SELECT project_id, toMonday(event_date) AS event_date, url_no_args, sum(page_views) AS page_views, sum(engaged_ms) AS engaged_ms, uniqCombinedMergeState(17)(sessions) AS sessions, uniqCombinedMergeState(17)(visitors) AS visitors, uniqIfMergeState(uid) AS uid
FROM rollup_pages_day
GROUP BY project_id, event_date, url_no_args;
