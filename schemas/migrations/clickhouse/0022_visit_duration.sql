-- A visit's duration as the README defines it and the rollups sum it: from its first hit to its
-- latest page view or action, the sum of its events' duration deltas. The reports read from the
-- visits (time on site, and the duration of entry and exit pages, depth) took the last event of
-- any kind instead: an engagement report sent when a page was hidden 20 s after a bounce made the
-- visit a bounce of «15–30 секунд» (a bounce lasts under 15 s), and their time on site longer than
-- the same visits' in every other report.
-- The visits stored before this migration get their sums from the events: one more row a visit
-- whose other columns merge into the visit unchanged (its own start, end, visitor, states and
-- number; zero page views, events and bounce). Done once: a start stopped after the insert and
-- before the runner recorded the migration finds durations already there and adds none.

ALTER TABLE visits ADD COLUMN IF NOT EXISTS duration_ms SimpleAggregateFunction(sum, UInt64) CODEC(ZSTD(1));

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
    sum(toInt64(bounce_delta)) AS bounce,
    sum(toUInt64(duration_delta)) AS duration_ms
FROM events
GROUP BY project_id, start_date, visitor_hash, session_id;

INSERT INTO visits (project_id, start_date, visitor_hash, session_id, visitor_id, start_ts, end_ts, page_views, events, entry_url, exit_url, session_number, bounce, duration_ms)
SELECT v.project_id, v.start_date, v.visitor_hash, v.session_id, v.visitor_id, v.start_ts, v.end_ts, 0, 0, v.entry_url, v.exit_url, v.session_number, 0, e.duration_ms
FROM
(
    SELECT project_id, start_date, visitor_hash, session_id, any(visitor_id) AS visitor_id, min(start_ts) AS start_ts, max(end_ts) AS end_ts,
           argMinMergeState(entry_url) AS entry_url, argMaxMergeState(exit_url) AS exit_url, max(session_number) AS session_number
    FROM visits
    GROUP BY project_id, start_date, visitor_hash, session_id
) AS v
INNER JOIN
(
    SELECT project_id, toDate(session_start, 'Europe/Moscow') AS start_date, visitor_hash, session_id, sum(toUInt64(duration_delta)) AS duration_ms
    FROM events
    GROUP BY project_id, start_date, visitor_hash, session_id
    HAVING duration_ms > 0
) AS e USING (project_id, start_date, visitor_hash, session_id)
WHERE (SELECT sum(duration_ms) FROM visits) = 0;
