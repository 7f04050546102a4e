-- The demo project's «Рейтинг» (specification 000, §4: rating reports are asked for only in the
-- statuses included, editing and need_change; "the demo project is always allowed"). Its page
-- asked, and the api answered «the site takes no part in the rating»: the demo stood in no rating
-- theme, so there was no rating to show it in. It gets the theme its pages are about («Новости и
-- СМИ» / «Новости»), and nothing else of a rated site: its status stays, so it is not in the public
-- catalogue, the daily positions or any real site's rating (its traffic is generated); its own
-- rating page ranks it among that theme's rated sites (api/src/projects/rating-report.ts).
-- A theme an administrator has already set is kept.
UPDATE projects SET categories = '{101}' WHERE id = 7596044 AND categories = '{}';
