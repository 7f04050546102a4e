-- Conversions (specification 002, §3 "Conversion", §4, §5): a goal's share of another goal (or of
-- all visits) on one project. Personal ('own') ones are seen by their creator only, public
-- ('common') ones by everyone who views the project; only the creator deletes. Favourites are
-- per user.
CREATE TABLE conversions
(
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id          bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    owner_id            bigint REFERENCES users ON DELETE SET NULL,
    title               text        NOT NULL CHECK (char_length(title) BETWEEN 3 AND 255),
    description         text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
    metric              text        NOT NULL CHECK (metric IN ('visits', 'visitors', 'events_count')),
    numerator_goal_id   bigint      NOT NULL REFERENCES goals,
    -- Null: all visits.
    denominator_goal_id bigint REFERENCES goals,
    access              text        NOT NULL CHECK (access IN ('own', 'common')),
    attribution         text        NOT NULL DEFAULT 'last_click' CHECK (attribution IN ('last_click', 'first_click', 'last_valuable', 'sberads')),
    attribution_window  integer     NOT NULL DEFAULT 7 CHECK (attribution_window IN (7, 14, 21, 28)),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX conversions_project ON conversions (project_id, id);

CREATE TABLE conversion_favorites
(
    user_id       bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    conversion_id bigint NOT NULL REFERENCES conversions ON DELETE CASCADE,
    PRIMARY KEY (user_id, conversion_id)
);
