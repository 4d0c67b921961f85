-- Accounts, the one-time administrator setup token, and rooms.
-- Times are milliseconds since the Unix epoch (UTC), the same on SQLite and PostgreSQL.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE COLLATE NOCASE, -- "Kim" and "kim" are one name
    password_hash TEXT    NOT NULL,             -- argon2id PHC string
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'player')),
    created_at_ms INTEGER NOT NULL
);

-- Only a SHA-256 digest of the token is stored: the token itself is printed once at start.
CREATE TABLE setup_tokens (
    id            INTEGER PRIMARY KEY,
    token_sha256  TEXT    NOT NULL UNIQUE,
    created_at_ms INTEGER NOT NULL,
    used_at_ms    INTEGER,
    revoked       INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);

CREATE TABLE rooms (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    preset        TEXT    NOT NULL CHECK (preset IN ('space', 'classic')),
    size_x        INTEGER NOT NULL CHECK (size_x BETWEEN 1 AND 25),
    size_y        INTEGER NOT NULL CHECK (size_y BETWEEN 1 AND 25),
    size_z        INTEGER NOT NULL CHECK (size_z BETWEEN 1 AND 25),
    status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished')),
    created_by    INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL
);
