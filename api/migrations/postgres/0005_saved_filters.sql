-- Saved filters (filter templates, specification 001, §3 "Saved filter", §4, §6): the filter
-- rules a user saved under a title on one project. A private one is seen by its author only; a
-- shared one by everyone who may view the project, and any of them may change or delete it.
CREATE TABLE saved_filters
(
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    -- Null only when the author's account is gone: a shared filter belongs to everyone on the
    -- project and outlives its author; a private one without an author is seen by nobody.
    author_id  bigint REFERENCES users ON DELETE SET NULL,
    -- Trimmed by the api; 1 to 255 characters (code points, as the api counts them).
    title      text        NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
    type       text        NOT NULL CHECK (type IN ('private', 'shared')),
    -- {dimension_filters?: [rule], metric_filters?: [rule]}, validated by the api (its limits
    -- and the catalogue can change; stored rules are data, checked again when a report runs).
    body       jsonb       NOT NULL CHECK (jsonb_typeof(body) = 'object'),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- A title is unique among the templates one user sees: the project's shared ones and their own
-- private ones, compared exactly (case-sensitive, after trimming). These two indexes hold the
-- part one row set can hold; that a private title differs from every shared title is checked
-- by the api with the project row locked. Another user's private title may equal a shared one
-- (the author of the shared one cannot see it, so it cannot be refused without telling them
-- of it).
CREATE UNIQUE INDEX saved_filters_shared_title ON saved_filters (project_id, title) WHERE type = 'shared';
CREATE UNIQUE INDEX saved_filters_private_title ON saved_filters (project_id, author_id, title) WHERE type = 'private';
CREATE INDEX saved_filters_author ON saved_filters (author_id);
