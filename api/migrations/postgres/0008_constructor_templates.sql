-- Constructor templates (specification 001, §3 "Constructor template", §4 "Constructor", §5): the
-- constructor queries a user saved under a title. Each belongs to its author alone.
CREATE TABLE constructor_templates
(
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id       bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    -- Trimmed by the api; 3 to 255 characters (code points, as the api counts them).
    title         text        NOT NULL CHECK (char_length(title) BETWEEN 3 AND 255),
    -- The query: {metrics, dimensions, sort?, group?, viewType, sample?, graphs?, dimension_filters?,
    -- metric_filters?, limit?, offset?}. Validated by the api on save, and again on load: the
    -- catalogue can lose a dimension or metric that a stored template names.
    body          jsonb       NOT NULL CHECK (jsonb_typeof(body) = 'object'),
    -- The days between the period's start and end when it was saved.
    days_in_range integer     NOT NULL CHECK (days_in_range >= 0),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX constructor_templates_user ON constructor_templates (user_id, updated_at DESC);
