-- Governance (issue 12 points 4–5; 003 §1.3–1.5, §9.7, §10.1–10.2, §12.7): the common rules
-- as versioned data with precedent, the site's announced defaults, record retention and the
-- learning archive kept apart from it.

-- Every version of the common rules (003 §1.5): its clauses with their precedents and the
-- special-rule kinds it permits, as JSON (app::governance::RulesVersion). Append-only: a
-- precedent makes the next version; rooms pin the version they were created under.
CREATE TABLE common_rules (
    version       INTEGER PRIMARY KEY CHECK (version >= 1),
    created_at_ms INTEGER NOT NULL,
    created_by    INTEGER REFERENCES users (id),      -- NULL: the version the program ships
    clauses       TEXT    NOT NULL,
    permits       TEXT    NOT NULL,
    precedent     TEXT                                -- the precedent that made this version
);

-- The site's defaults, announced before play (003 §9.7, §10.1): one row per change, the
-- newest in force; none yet: the program's own (kept for ever, 30 minutes).
CREATE TABLE site_defaults (
    id               INTEGER PRIMARY KEY,
    retention_days   INTEGER NOT NULL CHECK (retention_days BETWEEN 0 AND 36500),
    scoring_wait_min INTEGER NOT NULL CHECK (scoring_wait_min BETWEEN 0 AND 10080),
    set_at_ms        INTEGER NOT NULL,
    set_by           INTEGER NOT NULL REFERENCES users (id),
    reasons          TEXT    NOT NULL
);

-- Retention per room, pinned at creation (NULL: rooms from before retention, kept for
-- ever); when the match ended; when its stored record was deleted. The row itself stays
-- (the administrators' log and report cases point at it).
ALTER TABLE rooms ADD COLUMN retention_days INTEGER;
ALTER TABLE rooms ADD COLUMN ended_at_ms INTEGER;
ALTER TABLE rooms ADD COLUMN purged_at_ms INTEGER;
UPDATE rooms SET ended_at_ms = (SELECT MAX(e.at_ms) FROM match_events e WHERE e.room_id = rooms.id AND e.kind = 'ended')
    WHERE status = 'finished';

-- Every retention run (003 §9.7): when, why, what it deleted and what it kept, as JSON
-- (app::governance::RetentionReport).
CREATE TABLE retention_runs (
    id       INTEGER PRIMARY KEY,
    at_ms    INTEGER NOT NULL,
    trigger  TEXT    NOT NULL,                       -- app::governance::RunTrigger
    run_by   INTEGER REFERENCES users (id),          -- NULL: the server's own schedule
    report   TEXT    NOT NULL
);

-- The learning archive (003 §12.7), kept apart from room retention: the logs of games
-- training may use, copied when their room's record is deleted; no invitation digests, no
-- actor accounts.
CREATE TABLE learning_archive (
    room_id  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    body     TEXT    NOT NULL,
    PRIMARY KEY (room_id, seq)
);
