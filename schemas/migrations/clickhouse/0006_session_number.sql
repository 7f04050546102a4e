-- The visitor's visit number (the catalogue's session_number): 1 for a visitor's first visit to
-- the project, 2 for the next, and so on. The aggregator stamps it on every event of the visit;
-- it learns a returning visitor's count from visitor_visits, one row per visitor, keyed so that
-- a batch's visitors are found by the primary key. Events stored before this migration keep 0.
ALTER TABLE events ADD COLUMN IF NOT EXISTS session_number UInt32 CODEC(ZSTD(1)) AFTER session_start;

ALTER TABLE visits ADD COLUMN IF NOT EXISTS session_number SimpleAggregateFunction(max, UInt32);

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
    max(session_number) AS session_number
FROM events
GROUP BY project_id, start_date, visitor_hash, session_id;

CREATE TABLE IF NOT EXISTS visitor_visits
(
    project_id UInt32,
    visitor_id String,
    visits     SimpleAggregateFunction(max, UInt32),
    last_ts    SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
ORDER BY (project_id, visitor_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS visitor_visits_mv TO visitor_visits AS
SELECT project_id, visitor_id, max(session_number) AS visits, max(ts) AS last_ts
FROM events
GROUP BY project_id, visitor_id;

-- Visitors of the events stored before: their visits counted once (max is idempotent, so a
-- second run of this statement changes nothing).
INSERT INTO visitor_visits
SELECT project_id, visitor_id, toUInt32(uniqExact(session_id)) AS visits, max(ts) AS last_ts
FROM events
GROUP BY project_id, visitor_id;
