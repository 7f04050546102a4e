-- The demo project shows conversions (specification 002, §3 "Conversion"): its list forced to
-- the public ones for everyone who is not an admin was empty, so a visitor of the demo never saw a
-- conversion's card or report. Two public ones of the demo's goals (0007), owned by nobody, as
-- its goals are: the visits with a subscription to the newsletter, over all visits and over the
-- visits with a search of the site.
INSERT INTO conversions (project_id, owner_id, title, description, metric, numerator_goal_id, denominator_goal_id, access)
SELECT 7596044, NULL::bigint, 'Подписка на рассылку', 'Доля визитов с подпиской на рассылку', 'visits', subscribe.id, NULL::bigint, 'common'
FROM goals AS subscribe
WHERE subscribe.project_id = 7596044 AND subscribe.title = 'Подписка на рассылку'
UNION ALL
SELECT 7596044, NULL::bigint, 'Подписки к поискам', 'Визиты с подпиской на рассылку к визитам с поиском по сайту', 'visits', subscribe.id, search.id, 'common'
FROM goals AS subscribe
JOIN goals AS search ON search.project_id = 7596044 AND search.title = 'Поиск по сайту'
WHERE subscribe.project_id = 7596044 AND subscribe.title = 'Подписка на рассылку';
