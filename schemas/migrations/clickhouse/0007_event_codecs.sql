-- Codecs chosen by measured bytes per event (benchmarks/RESULTS.md, "Bytes per event on disk",
-- 10 million generated events, codec experiments): each change below saved compressed bytes
-- per event on a scratch copy with the same key; the ones that lost (DoubleDelta or T64 on
-- these columns) are not taken. A codec change applies to new parts and to parts as they
-- merge; it rewrites nothing at once.
--   session_start  LZ4 → Delta(8), ZSTD(1)   0.55 B/event saved
--   session_id     LZ4 → ZSTD(1)             0.49
--   screen_width   LZ4 → ZSTD(1)             0.44
--   screen_height  LZ4 → ZSTD(1)             0.44
--   geo_city       LZ4 → ZSTD(1)             0.33
--   geo_area       LZ4 → ZSTD(1)             0.33
ALTER TABLE events MODIFY COLUMN session_start DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1));
ALTER TABLE events MODIFY COLUMN session_id UInt64 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN screen_width UInt16 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN screen_height UInt16 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN geo_city UInt32 CODEC(ZSTD(1));
ALTER TABLE events MODIFY COLUMN geo_area UInt32 CODEC(ZSTD(1));
