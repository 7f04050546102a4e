-- What the aggregator learns of each hit: user agent, geography (GeoNames ids; the address
-- itself is never stored), source (a visit's source, taken from its first hit, so that page views
-- are counted under the source of their visit), the page address and its campaign tags.
ALTER TABLE events ADD COLUMN IF NOT EXISTS browser_family LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS browser_version_major LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS browser_version_minor LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS os_family LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS os_version_major LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS os_version_minor LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS device_type LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS device_brand LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS device_model LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS geo_country UInt32;
ALTER TABLE events ADD COLUMN IF NOT EXISTS geo_area UInt32;
ALTER TABLE events ADD COLUMN IF NOT EXISTS geo_city UInt32;
ALTER TABLE events ADD COLUMN IF NOT EXISTS traffic_type LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS traffic_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS search_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS search_phrase String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS social_network LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS message_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS recom_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS aggrnews_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS exchange_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS ad_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS qr_system LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS referer_domain String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS referer_path String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS url_no_args String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS url_args_key LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS page_format LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS utm_source LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS utm_medium LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS utm_campaign LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS utm_content String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS utm_term String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS openstat_service LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS openstat_campaign LowCardinality(String);
ALTER TABLE events ADD COLUMN IF NOT EXISTS openstat_ad String CODEC(ZSTD(1));
ALTER TABLE events ADD COLUMN IF NOT EXISTS openstat_source String CODEC(ZSTD(1));

-- Rollups by each common dimension of the catalogue, at five minutes, an hour and a Moscow day:
-- one row per project, dimension, value and bucket. One materialized view per granularity turns
-- each event into one row per dimension (ARRAY JOIN), so a new dimension is one more pair here.
CREATE TABLE IF NOT EXISTS rollup_dim_5m
(
    project_id UInt32,
    dimension  LowCardinality(String),
    bucket     DateTime('UTC'),
    value      String,
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (project_id, dimension, bucket, value);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_dim_5m_mv TO rollup_dim_5m AS
SELECT project_id, pair.1 AS dimension, toStartOfFiveMinutes(toDateTime(ts, 'UTC')) AS bucket, pair.2 AS value,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
ARRAY JOIN [
        ('traffic_type', toString(traffic_type)),
        ('traffic_system', toString(traffic_system)),
        ('search_system', toString(search_system)),
        ('search_phrase', toString(search_phrase)),
        ('social_network', toString(social_network)),
        ('message_system', toString(message_system)),
        ('recom_system', toString(recom_system)),
        ('aggrnews_system', toString(aggrnews_system)),
        ('exchange_system', toString(exchange_system)),
        ('ad_system', toString(ad_system)),
        ('qr_system', toString(qr_system)),
        ('referer_domain', toString(referer_domain)),
        ('geo_country', toString(geo_country)),
        ('geo_area', toString(geo_area)),
        ('geo_city', toString(geo_city)),
        ('device_type', toString(device_type)),
        ('device_brand', toString(device_brand)),
        ('browser_family', toString(browser_family)),
        ('os_family', toString(os_family)),
        ('page_format', toString(page_format)),
        ('url_no_args', toString(url_no_args)),
        ('utm_source', toString(utm_source)),
        ('utm_medium', toString(utm_medium)),
        ('utm_campaign', toString(utm_campaign)),
        ('utm_content', toString(utm_content)),
        ('utm_term', toString(utm_term))
    ] AS pair
GROUP BY project_id, dimension, bucket, value;

CREATE TABLE IF NOT EXISTS rollup_dim_hour
(
    project_id UInt32,
    dimension  LowCardinality(String),
    bucket     DateTime('UTC'),
    value      String,
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (project_id, dimension, bucket, value);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_dim_hour_mv TO rollup_dim_hour AS
SELECT project_id, pair.1 AS dimension, toStartOfHour(toDateTime(ts, 'UTC')) AS bucket, pair.2 AS value,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
ARRAY JOIN [
        ('traffic_type', toString(traffic_type)),
        ('traffic_system', toString(traffic_system)),
        ('search_system', toString(search_system)),
        ('search_phrase', toString(search_phrase)),
        ('social_network', toString(social_network)),
        ('message_system', toString(message_system)),
        ('recom_system', toString(recom_system)),
        ('aggrnews_system', toString(aggrnews_system)),
        ('exchange_system', toString(exchange_system)),
        ('ad_system', toString(ad_system)),
        ('qr_system', toString(qr_system)),
        ('referer_domain', toString(referer_domain)),
        ('geo_country', toString(geo_country)),
        ('geo_area', toString(geo_area)),
        ('geo_city', toString(geo_city)),
        ('device_type', toString(device_type)),
        ('device_brand', toString(device_brand)),
        ('browser_family', toString(browser_family)),
        ('os_family', toString(os_family)),
        ('page_format', toString(page_format)),
        ('url_no_args', toString(url_no_args)),
        ('utm_source', toString(utm_source)),
        ('utm_medium', toString(utm_medium)),
        ('utm_campaign', toString(utm_campaign)),
        ('utm_content', toString(utm_content)),
        ('utm_term', toString(utm_term))
    ] AS pair
GROUP BY project_id, dimension, bucket, value;

CREATE TABLE IF NOT EXISTS rollup_dim_day
(
    project_id UInt32,
    dimension  LowCardinality(String),
    event_date Date,
    value      String,
    page_views SimpleAggregateFunction(sum, UInt64),
    events     SimpleAggregateFunction(sum, UInt64),
    bounces    SimpleAggregateFunction(sum, Int64),
    duration_ms SimpleAggregateFunction(sum, UInt64),
    visits     AggregateFunction(uniq, UInt64),
    visitors   AggregateFunction(uniq, String)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (project_id, dimension, event_date, value);

CREATE MATERIALIZED VIEW IF NOT EXISTS rollup_dim_day_mv TO rollup_dim_day AS
SELECT project_id, pair.1 AS dimension, event_date AS event_date, pair.2 AS value,
       countIf(event_type = 'pageview') AS page_views, count() AS events,
       sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms,
       uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors
FROM events
ARRAY JOIN [
        ('traffic_type', toString(traffic_type)),
        ('traffic_system', toString(traffic_system)),
        ('search_system', toString(search_system)),
        ('search_phrase', toString(search_phrase)),
        ('social_network', toString(social_network)),
        ('message_system', toString(message_system)),
        ('recom_system', toString(recom_system)),
        ('aggrnews_system', toString(aggrnews_system)),
        ('exchange_system', toString(exchange_system)),
        ('ad_system', toString(ad_system)),
        ('qr_system', toString(qr_system)),
        ('referer_domain', toString(referer_domain)),
        ('geo_country', toString(geo_country)),
        ('geo_area', toString(geo_area)),
        ('geo_city', toString(geo_city)),
        ('device_type', toString(device_type)),
        ('device_brand', toString(device_brand)),
        ('browser_family', toString(browser_family)),
        ('os_family', toString(os_family)),
        ('page_format', toString(page_format)),
        ('url_no_args', toString(url_no_args)),
        ('utm_source', toString(utm_source)),
        ('utm_medium', toString(utm_medium)),
        ('utm_campaign', toString(utm_campaign)),
        ('utm_content', toString(utm_content)),
        ('utm_term', toString(utm_term))
    ] AS pair
GROUP BY project_id, dimension, event_date, value;
