-- Bytes per event (issue "report engine", target ≤ 60 in all tables at 10 million events; 69.5
-- measured before this file, benchmarks/RESULTS.md). Each change was measured on a scratch copy
-- of 1 million generated events (benchmarks/storage/codec-lab.mjs), compressed bytes per event:
--
-- 1. The events' key: the collector's random UUID took 16.07 bytes of every row, a third of the
--    table, and nothing reads it but the checks that no hit is stored twice. The stored key is now
--    `event_key UInt64`: the UUID's last 64 bits (62 of them random, the rest the UUID's variant),
--    8 bytes. Two hits share a key with a chance of n² / 2⁶³ (0.01 % at 30 million events of one
--    project). The wire, `dead_hits` and `dropped_hits` keep the whole UUID. Old rows get the same
--    key from their UUID here; the UUID column is dropped by 0016, a migration of its own, so that
--    a start that stops between the two statements repeats only what is safe to repeat.
-- 2. The LowCardinality columns' indices and the small counters compress with ZSTD, not LZ4:
--    −5.4 bytes. `user_agent` is a few hundred values a day even on large sites: LowCardinality,
--    −1.8 bytes (measured on 10 million events, RESULTS.md «Bytes per event on disk»).
-- 3. The visits' strings and counters: ZSTD, −1.3 bytes. Their session ids and visitor hashes
--    grew under ZSTD and keep LZ4.
-- A codec applies to new parts and to parts as they merge; the type change of `user_agent` and
-- the key's fill are mutations that rewrite one column each.
ALTER TABLE events ADD COLUMN IF NOT EXISTS event_key UInt64 AFTER event_id;
ALTER TABLE events UPDATE event_key = reinterpretAsUInt64(reverse(substring(UUIDToNum(event_id), 9, 8))) WHERE event_key = 0;
ALTER TABLE events MODIFY COLUMN user_agent LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN event_type LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN event_class LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN event_name LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN block_name LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN browser_family LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN browser_version_major LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN browser_version_minor LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN os_family LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN os_version_major LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN os_version_minor LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN device_type LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN device_brand LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN device_model LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN page_format LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN traffic_type LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN traffic_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN search_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN social_network LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN message_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN recom_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN aggrnews_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN exchange_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN ad_system LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN url_args_key LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN utm_source LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN utm_medium LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN utm_campaign LowCardinality(String) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN visitor_hash UInt32 DEFAULT xxHash32(visitor_id) CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN event_number UInt32 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN duration_delta UInt32 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN engaged_ms UInt32 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN scroll_percent UInt8 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN read_percent UInt8 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN bounce_delta Int8 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN geo_country UInt32 CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN visitor_id SimpleAggregateFunction(any, String) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN entry_url AggregateFunction(argMin, String, DateTime64(3, 'UTC')) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN exit_url AggregateFunction(argMax, String, DateTime64(3, 'UTC')) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN events SimpleAggregateFunction(sum, UInt64) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN page_views SimpleAggregateFunction(sum, UInt64) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN session_number SimpleAggregateFunction(max, UInt32) CODEC(ZSTD(1));
ALTER TABLE visits MODIFY COLUMN bounce SimpleAggregateFunction(sum, Int64) CODEC(ZSTD(1));
