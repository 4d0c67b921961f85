-- Accounts (issue 12 point 6): each sign-in as a row its owner can see and end, disabled
-- accounts, one-time password-reset links, and the log of what administrators did to
-- accounts (the start of the audit log, issue 12 point 7).

ALTER TABLE users ADD COLUMN disabled_at_ms INTEGER;

-- One row per sign-in; the session holds its id. A session whose login has ended is signed
-- out, wherever it is (sessions made before this migration hold none: signed out).
CREATE TABLE logins (
    id            TEXT    PRIMARY KEY,               -- random hex
    user_id       INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL,                  -- system time, as the session store's
    last_seen_ms  INTEGER NOT NULL,                  -- refreshed at most hourly; idle 30 days: over
    agent         TEXT,                              -- the browser's User-Agent, shortened
    address       TEXT,                              -- the client address at sign-in
    ended_at_ms   INTEGER,
    ended_why     TEXT                               -- app::data::logins::EndReason
);
CREATE INDEX logins_by_user ON logins (user_id, ended_at_ms);

-- Only a SHA-256 digest of each link's token is stored; the link is shown once.
CREATE TABLE password_resets (
    token_sha256  TEXT    PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users (id),
    issued_by     INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    used_at_ms    INTEGER
);

-- Append-only: rows are inserted, never changed or deleted.
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    at_ms       INTEGER NOT NULL,
    actor_id    INTEGER NOT NULL REFERENCES users (id),
    action      TEXT    NOT NULL,                    -- app::data::audit::AuditAction
    target_user INTEGER REFERENCES users (id),
    room_id     INTEGER REFERENCES rooms (id),
    reasons     TEXT    NOT NULL,
    before_json TEXT,
    after_json  TEXT
);
CREATE INDEX audit_by_time ON audit_log (at_ms, id);
