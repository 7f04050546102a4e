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
