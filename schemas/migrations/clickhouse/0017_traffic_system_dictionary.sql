-- The names of the traffic systems (search engines, social networks, messengers, ad systems, …)
-- that events hold as ids in traffic_system, search_system, social_network and the other system
-- columns: «Яндекс» for `yandex`. Written by the aggregator at its start from the referrer tables it
-- classifies with (aggregator/data/referrers/, which operators may extend), as ch_geo is from its
-- geo files: each write is stamped with the tables' digest and a version, and readers take the
-- newest version of each id. The api, in its own process in a cluster, reads names from here.
CREATE TABLE IF NOT EXISTS ch_traffic_systems
(
    traffic_type LowCardinality(String),
    id           String,
    name         String,
    digest       LowCardinality(String),
    version      UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (traffic_type, id);
