-- Projects (sites), who may see them, the access requests and the demo project.
CREATE SEQUENCE project_ids START WITH 8000000;

CREATE TABLE projects
(
    -- a ClickHouse UInt32 in the events: 1 … 4294967295
    id                 bigint PRIMARY KEY DEFAULT nextval('project_ids') CHECK (id BETWEEN 1 AND 4294967295),
    title              text        NOT NULL,
    url                text        NOT NULL,
    -- host without www., lower case: the key of «projects with the same url»
    cleaned_url        text        NOT NULL,
    owner_id           bigint REFERENCES users ON DELETE SET NULL,
    created_by         bigint REFERENCES users ON DELETE SET NULL,
    counter_settings   jsonb       NOT NULL DEFAULT '{}',
    -- base64 of the site's icon, fetched once after creation
    favicon            text,
    favicon_checked_at timestamptz,
    deleted_at         timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    -- rating participation (specification 000, §2.7 and §4)
    in_rating          boolean     NOT NULL DEFAULT false,
    rating_status      text        NOT NULL DEFAULT 'unincluded'
        CHECK (rating_status IN ('default', 'included', 'moderation', 'editing', 'excluded', 'unincluded',
                                 'need_change', 'deleted', 'dropped_out')),
    can_be_in_rate     boolean     NOT NULL DEFAULT true,
    public_stats       boolean     NOT NULL DEFAULT true,
    keywords           text        NOT NULL DEFAULT '',
    categories         integer[]   NOT NULL DEFAULT '{}',
    regions            integer[]   NOT NULL DEFAULT '{}',
    types              integer[]   NOT NULL DEFAULT '{}'
);

CREATE INDEX projects_owner ON projects (owner_id);
CREATE INDEX projects_cleaned_url ON projects (cleaned_url);
CREATE INDEX projects_created_by ON projects (created_by, created_at);

-- Users a project is shared with: access_level 0 edits, 1 only views. The owner is not here.
CREATE TABLE project_access
(
    project_id   bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id      bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    access_level smallint    NOT NULL CHECK (access_level IN (0, 1)),
    granted_by   bigint REFERENCES users ON DELETE SET NULL,
    granted_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);

CREATE INDEX project_access_user ON project_access (user_id);

-- Every user added to a project, for the limit of 20 a day per granting user.
CREATE TABLE access_grants
(
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    granted_by bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    project_id bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id    bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    granted_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX access_grants_by ON access_grants (granted_by, granted_at);

CREATE TABLE access_requests
(
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id    bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    status     text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined')),
    created_at timestamptz NOT NULL DEFAULT now(),
    decided_at timestamptz,
    decided_by bigint REFERENCES users ON DELETE SET NULL
);

CREATE UNIQUE INDEX access_requests_pending ON access_requests (project_id, user_id) WHERE status = 'pending';

-- The token a user puts on the site to prove it is theirs (verify_ownership).
CREATE TABLE ownership_tokens
(
    project_id bigint      NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id    bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    token      text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);

-- The demo project of the specification: readable by everyone, editable by administrators only.
INSERT INTO projects (id, title, url, cleaned_url, counter_settings, favicon_checked_at)
VALUES (7596044, 'Демо-сайт', 'https://demo.stat.example', 'demo.stat.example',
        '{"color": "#313EFB", "counter_type": 0}', now());
