-- The catalogue's names for what events already hold (specification 001, §3 "Dimensions";
-- schemas/src/dimensions.ts maps every dimension to its column). ALIAS columns are computed
-- when read and take no disk.
ALTER TABLE events ADD COLUMN IF NOT EXISTS referer String ALIAS referrer;
ALTER TABLE events ADD COLUMN IF NOT EXISTS external_url String ALIAS link_url;
ALTER TABLE events ADD COLUMN IF NOT EXISTS screen_size String ALIAS concat(toString(screen_width), 'x', toString(screen_height));
ALTER TABLE events ADD COLUMN IF NOT EXISTS device_family String ALIAS trim(concat(toString(device_brand), ' ', toString(device_model)));
ALTER TABLE events ADD COLUMN IF NOT EXISTS native_mobile UInt8 ALIAS page_format IN ('Android', 'iOS');
ALTER TABLE events ADD COLUMN IF NOT EXISTS ad_campaign String ALIAS if(ad_system != '', utm_campaign, '');
ALTER TABLE events ADD COLUMN IF NOT EXISTS customer_params_key Array(String) ALIAS mapKeys(event_params);
ALTER TABLE events ADD COLUMN IF NOT EXISTS auth_top100 UInt8 ALIAS user_id != '';
