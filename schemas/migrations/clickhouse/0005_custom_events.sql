-- What the counter sends besides page views (see schemas/src/hit.ts): custom events with their
-- class, name and parameters; block-analytics clicks and shows; outbound links; engaged time;
-- reading depth; the site's own user id. Empty or zero where a hit type has no such field.
ALTER TABLE events ADD COLUMN IF NOT EXISTS event_class LowCardinality(String) AFTER event_type;
ALTER TABLE events ADD COLUMN IF NOT EXISTS event_name LowCardinality(String) AFTER event_class;
ALTER TABLE events ADD COLUMN IF NOT EXISTS event_params Map(LowCardinality(String), String) CODEC(ZSTD(1)) AFTER event_name;
ALTER TABLE events ADD COLUMN IF NOT EXISTS user_id String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS block_name LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS link_url String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS engaged_ms UInt32;
ALTER TABLE events ADD COLUMN IF NOT EXISTS scroll_percent UInt8;
ALTER TABLE events ADD COLUMN IF NOT EXISTS read_percent UInt8;
