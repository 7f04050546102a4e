-- The referring site and page are the visit's, on every event of it.
--
-- The aggregator stamped each event with its own referrer, so a visit brought by a link from
-- rbc.ru had that site on its first page view only; its later pages carried the site's own
-- domain (or nothing), and the «Сайты» report (visits from links, by the referring site) showed
-- the site itself as a referring site, with 0 visits and most of the page views (223 of 517 on a
-- demo day). The aggregator now writes the visit's source referrer on every event, as it writes
-- the traffic type and system; this fills the stored events alike: each event takes the
-- referrer of its visit's first event. Run again after a stop in the middle, it gives the same:
-- the first events keep their own referrer. `{database}`: the runner writes the database's name
-- (the mutation runs apart from this connection, with no current database).

DROP TABLE IF EXISTS visit_referrers_0024;
CREATE TABLE visit_referrers_0024 ENGINE = Join(ANY, LEFT, session_id) AS
SELECT session_id, argMin(referer_domain, event_number) AS domain, argMin(referer_path, event_number) AS path
FROM events
GROUP BY session_id;
ALTER TABLE events
    UPDATE referer_domain = joinGet('{database}.visit_referrers_0024', 'domain', session_id),
           referer_path = joinGet('{database}.visit_referrers_0024', 'path', session_id)
    WHERE event_number > 1
    SETTINGS mutations_sync = 2;
DROP TABLE IF EXISTS visit_referrers_0024;
