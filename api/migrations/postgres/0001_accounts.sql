-- Accounts: roles with their permissions, users, and the short-lived keys (sessions) of a
-- process that has no Redis. Role ids are the specification's: ADMIN 1 … USER 7.
CREATE TABLE roles
(
    id       smallint PRIMARY KEY,
    name     text    NOT NULL UNIQUE,
    -- is_top100_staff of every user with this role
    is_staff boolean NOT NULL
);

INSERT INTO roles (id, name, is_staff) VALUES
    (1, 'ADMIN', true),
    (2, 'SUPPORT', true),
    (3, 'ANALYST', true),
    (4, 'MANAGER', true),
    (5, 'COUNTER_OWNER', false),
    (6, 'COUNTER_READONLY', false),
    (7, 'USER', false);

CREATE TABLE role_permissions
(
    role_id    smallint NOT NULL REFERENCES roles,
    permission text     NOT NULL,
    PRIMARY KEY (role_id, permission)
);

-- read_all_projects: read every project, and the «all accessible projects» switch
-- edit_all_projects: edit every project but the demo one
-- edit_demo_project: edit the demo project
-- moderate_rating:   move projects between rating statuses
-- manage_users:      change other users' roles
-- create_projects:   add sites
-- can_read_dev_reports: staff-only beta reports (specification 000, §6)
INSERT INTO role_permissions (role_id, permission) VALUES
    (1, 'read_all_projects'), (1, 'edit_all_projects'), (1, 'edit_demo_project'), (1, 'moderate_rating'),
    (1, 'manage_users'), (1, 'create_projects'), (1, 'can_read_dev_reports'),
    (2, 'read_all_projects'), (2, 'edit_all_projects'), (2, 'moderate_rating'), (2, 'create_projects'),
    (3, 'read_all_projects'), (3, 'create_projects'), (3, 'can_read_dev_reports'),
    (4, 'read_all_projects'), (4, 'moderate_rating'), (4, 'create_projects'),
    (5, 'create_projects'),
    (7, 'create_projects');

CREATE TABLE users
(
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- stored lower-cased; one account per address
    email            text        NOT NULL UNIQUE,
    -- argon2id; null for an account of an external identity provider
    password_hash    text,
    user_name        text        NOT NULL DEFAULT '',
    role_id          smallint    NOT NULL DEFAULT 7 REFERENCES roles,
    -- 'password' here; an OpenID Connect login would add 'oidc' with external_subject
    auth_type        text        NOT NULL DEFAULT 'password',
    external_subject text,
    snackbars        jsonb       NOT NULL DEFAULT '{}',
    meta_tips        jsonb       NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (email = lower(email))
);

CREATE UNIQUE INDEX users_external_subject ON users (auth_type, external_subject) WHERE external_subject IS NOT NULL;

-- Keys with an expiry (login sessions) for a process without Redis: the embedded mode.
CREATE TABLE kv
(
    key        text PRIMARY KEY,
    value      text        NOT NULL,
    expires_at timestamptz NOT NULL
);

CREATE INDEX kv_expires_at ON kv (expires_at);
