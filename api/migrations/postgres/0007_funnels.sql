-- Funnels (specification 002, §3 "Funnel", §4, §5): ordered steps of goals on one project. A
-- funnel is public (everyone who views the project sees it); the goals of its steps are made
-- public when it is saved.
CREATE TABLE funnels
(
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    -- Null when the author's account is gone.
    author_id  bigint REFERENCES users ON DELETE SET NULL,
    -- Trimmed by the api; 1 to 255 characters.
    title      text        NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX funnels_project ON funnels (project_id, id);

-- The steps of a funnel, numbered 1 to 11 in their order (renumbered on every save).
CREATE TABLE funnel_steps
(
    funnel_id   bigint   NOT NULL REFERENCES funnels ON DELETE CASCADE,
    step_number smallint NOT NULL CHECK (step_number BETWEEN 1 AND 11),
    step_title  text     NOT NULL CHECK (char_length(step_title) BETWEEN 1 AND 255),
    -- The goals any of which reaches the step (goals of the funnel's project; checked by the api).
    goal_ids    bigint[] NOT NULL CHECK (cardinality(goal_ids) BETWEEN 1 AND 20),
    PRIMARY KEY (funnel_id, step_number)
);

-- The demo project (7596044) comes with goals over what its generated traffic holds
-- (server/src/demo/traffic.ts: outbound links, site searches, newsletter subscriptions, shares)
-- and a funnel of two of them, so that a visitor sees these pages filled. Public and without an
-- owner: administrators may change them; nobody deletes them (only an owner deletes a goal).
WITH demo_goals AS (
    INSERT INTO goals (project_id, owner_id, title, description, access, is_protected, is_td_sending, body, goal_template_id)
    VALUES (7596044, NULL, 'Клик по внешней ссылке', 'Переход по ссылке на другой сайт', 'common', true, true,
            '{"dimension_filters": [{"key": "event_type", "op": "=", "value": "outbound"}, {"key": "event_name", "op": "=", "value": "outbound"}]}', 1),
           (7596044, NULL, 'Поиск по сайту', 'Событие site_search', 'common', false, false,
            '{"dimension_filters": [{"key": "event_name", "op": "=", "value": "site_search", "extra": {"eventClass": "cv"}}]}', NULL),
           (7596044, NULL, 'Подписка на рассылку', 'Событие newsletter_subscribe', 'common', false, false,
            '{"dimension_filters": [{"key": "event_name", "op": "=", "value": "newsletter_subscribe", "extra": {"eventClass": "cv"}}]}', NULL),
           (7596044, NULL, 'Поделиться', 'Событие share', 'common', false, false,
            '{"dimension_filters": [{"key": "event_name", "op": "=", "value": "share", "extra": {"eventClass": "cv"}}]}', NULL)
    RETURNING id, title
), demo_funnel AS (
    INSERT INTO funnels (project_id, author_id, title) VALUES (7596044, NULL, 'Поиск и подписка') RETURNING id
)
INSERT INTO funnel_steps (funnel_id, step_number, step_title, goal_ids)
SELECT f.id, s.step_number, s.title, ARRAY[g.id]
FROM demo_funnel f
CROSS JOIN (VALUES (1, 'Поиск по сайту'), (2, 'Подписка на рассылку')) AS s(step_number, title)
JOIN demo_goals g ON g.title = s.title;
