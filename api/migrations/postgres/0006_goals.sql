-- Goals (target events, specification 002, §3 "Goal", §4, §5, §6): a named set of event
-- conditions on one project. A personal ('own') goal is seen by its creator only; a public
-- ('common') one by everyone who may view the project. A protected goal is not changed, only
-- deleted; deleting sets is_deleted (the goal stays for the lists that ask for deleted ones).
CREATE TABLE goals
(
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id       bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    -- Null only when the owner's account is gone: a public goal outlives its creator.
    owner_id         bigint REFERENCES users ON DELETE SET NULL,
    -- Trimmed by the api; 3 to 255 characters (code points).
    title            text        NOT NULL CHECK (char_length(title) BETWEEN 3 AND 255),
    description      text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
    access           text        NOT NULL CHECK (access IN ('own', 'common')),
    is_protected     boolean     NOT NULL DEFAULT false,
    -- Sent to the ad service: only a public, protected goal may be (§4).
    is_td_sending    boolean     NOT NULL DEFAULT false CHECK (NOT is_td_sending OR (access = 'common' AND is_protected)),
    -- {dimension_filters: [rule]}: the engine's filter rules, validated by the api.
    body             jsonb       NOT NULL CHECK (jsonb_typeof(body) = 'object'),
    -- The autogoal template it was made from (schemas/src/goals.ts, AUTOGOAL_TEMPLATES).
    goal_template_id integer,
    is_deleted       boolean     NOT NULL DEFAULT false,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX goals_project ON goals (project_id, id);
CREATE INDEX goals_owner ON goals (owner_id);
-- One live goal per autogoal template and project: choosing one already made is refused.
CREATE UNIQUE INDEX goals_template ON goals (project_id, goal_template_id) WHERE goal_template_id IS NOT NULL AND NOT is_deleted;
