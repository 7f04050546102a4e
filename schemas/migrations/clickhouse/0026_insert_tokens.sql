-- A crash in the middle of an insert into events can leave it half done: the events' part
-- written and some of the materialized views' parts not (ClickHouse writes the table and each
-- view apart, not in one transaction; seen here with kill -9 of chDB). The aggregator then finds
-- the batch's events stored and skips them, and the rollups lack them for good.
--
-- So every insert of the aggregator carries a token of its own (insert_deduplication_token),
-- kept on its rows, and the tables remember the tokens of their last blocks: after a crash the
-- aggregator inserts the stored rows of a token again, with that token, and every table that
-- has the block already skips it while every view that missed it gets it (per view, with
-- deduplicate_blocks_in_dependent_materialized_views). The window is how many later inserts a
-- token is remembered for: the replayed batches are the last few before the crash.
ALTER TABLE events ADD COLUMN IF NOT EXISTS insert_token LowCardinality(String) DEFAULT '';
ALTER TABLE events ADD INDEX IF NOT EXISTS insert_token_idx insert_token TYPE bloom_filter GRANULARITY 4;
ALTER TABLE events MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE ingest_offsets MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE visits MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE visitor_visits MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_5m MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_hour MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_day MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_sources_day MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_sources_week MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_geo_day MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_geo_week MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_pages_day MODIFY SETTING non_replicated_deduplication_window = 10000;
ALTER TABLE rollup_pages_week MODIFY SETTING non_replicated_deduplication_window = 10000;
