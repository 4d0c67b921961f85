-- Reports (003 §6.4–6.5): kept beside the rooms, not in their logs (who reported is for
-- the administrators). Reports about the same person (or the match itself) in the same
-- match merge into one open case; sanctions are the room's own events.
CREATE TABLE report_cases (
    id              INTEGER PRIMARY KEY,
    room_id         INTEGER NOT NULL REFERENCES rooms (id),
    subject_user_id INTEGER REFERENCES users (id),   -- NULL: the match itself
    opened_at_ms    INTEGER NOT NULL,
    decided_at_ms   INTEGER,
    decided_by      INTEGER REFERENCES users (id),
    outcome         TEXT,                            -- app::matches::conduct::CaseOutcome
    sanction        INTEGER,                         -- the room's sanction number
    reasons         TEXT
);
CREATE UNIQUE INDEX report_cases_open
    ON report_cases (room_id, IFNULL(subject_user_id, 0)) WHERE decided_at_ms IS NULL;

CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    case_id     INTEGER NOT NULL REFERENCES report_cases (id),
    reporter_id INTEGER NOT NULL REFERENCES users (id),
    category    TEXT    NOT NULL,                    -- app::matches::conduct::Category
    description TEXT    NOT NULL,
    at_seq      INTEGER NOT NULL,
    at_ms       INTEGER NOT NULL
);
CREATE INDEX reports_by_case ON reports (case_id);

-- Signed-in accounts that watched a room's live stream: who may report as a spectator and
-- be reported as one.
CREATE TABLE room_viewers (
    room_id     INTEGER NOT NULL REFERENCES rooms (id),
    user_id     INTEGER NOT NULL REFERENCES users (id),
    first_ms    INTEGER NOT NULL,
    PRIMARY KEY (room_id, user_id)
);
