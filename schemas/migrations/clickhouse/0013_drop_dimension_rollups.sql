-- The dimension rollups of 0004 (one row per project, dimension, value and five minutes, hour or
-- day, for 26 dimensions) are read by no report: the report engine reads the time rollups, the
-- visits and the raw events (with SAMPLE for sampled reports). They took two thirds of the disk
-- (140 of 212 bytes per event at 10 million events, benchmarks/RESULTS.md) and about half of
-- each insert's work (every event became 78 rollup rows). Rollups shaped like the reports'
-- drill-down paths come back when the latency benchmarks show which ones pay.
DROP VIEW IF EXISTS rollup_dim_5m_mv;
DROP VIEW IF EXISTS rollup_dim_hour_mv;
DROP VIEW IF EXISTS rollup_dim_day_mv;
DROP TABLE IF EXISTS rollup_dim_5m;
DROP TABLE IF EXISTS rollup_dim_hour;
DROP TABLE IF EXISTS rollup_dim_day;
