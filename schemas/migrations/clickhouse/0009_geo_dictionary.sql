-- The ch_geo dictionary of specification 001, §7: the Russian name, kind and parent of every
-- place id that events hold in geo_country, geo_area and geo_city. Written by the aggregator at
-- its start from the geo files it ships (aggregator/data/geo/); each write is stamped with the
-- files' digest and a version, and readers take the newest version of each id.
CREATE TABLE IF NOT EXISTS ch_geo
(
    id        UInt32,
    name      String,
    kind      LowCardinality(String),
    parent_id UInt32,
    digest    LowCardinality(String),
    version   UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY id;
