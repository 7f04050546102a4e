-- The material of an article page: the full counter sends its title, author and published time
-- on every hit of an article page view (schemas/src/hit.ts: mt, ma, mp); the media reports
-- («Материалы», «Авторы») group by them. Empty, and 1970-01-01 for an unknown published time,
-- on every other hit and on the events stored before this migration. New columns only: no data
-- is rewritten.
ALTER TABLE events ADD COLUMN IF NOT EXISTS media_title String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS author_name LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS published_datetime DateTime('UTC');
