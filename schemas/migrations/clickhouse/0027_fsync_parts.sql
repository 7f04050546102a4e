-- An insert's return is the aggregator's word that the batch is stored: the embedded hit log
-- then deletes the batch's records, and in cluster mode the Kafka offset is committed. Without
-- these settings ClickHouse leaves a new part to the kernel's write-back (up to half a minute
-- here), so a power cut or a kernel panic in that time lost hits answered 204. With them every
-- part of an insert, the events' and each view's, is fsynced, files and directory, before the
-- insert returns. The cost is measured in benchmarks/RESULTS.md (2026-12-07); a deployment
-- whose ClickHouse is replicated may turn them off (README, «What 204 promises»).
ALTER TABLE events MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE ingest_offsets MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE visits MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE visitor_visits MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_5m MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_hour MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_day MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_sources_day MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_sources_week MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_geo_day MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_geo_week MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_pages_day MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE rollup_pages_week MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE dropped_hits MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
ALTER TABLE dead_hits MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1;
