-- A crash in the middle of an insert into events can leave it half done: the events' part
-- written and some of the materialized views' parts not (ClickHouse writes the table and each
-- view apart, not in one transaction; seen here with kill -9 of chDB). So every insert of the
-- aggregator puts a token of its own on its rows: after a crash the aggregator finds the
-- batch's events stored, reads by their tokens which projects and days the insert touched, and
-- rebuilds those slices of every view's table from the events (aggregator/src/batch/rebuild-slices.ts).
-- Empty on the events stored before this migration.
ALTER TABLE events ADD COLUMN IF NOT EXISTS insert_token LowCardinality(String) DEFAULT '';
ALTER TABLE events ADD INDEX IF NOT EXISTS insert_token_idx insert_token TYPE bloom_filter GRANULARITY 4;
