-- Program matches (003 §12.4): a series of games between two programs with colours
-- swapped and identical settings. The games are ordinary rooms; this holds the series and
-- which room is which game. Rows are appended; `finished_at_ms` is set once, at the end.
CREATE TABLE program_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- JSON: the two pinned contestants, the games planned and the shared settings.
    plan TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    created_by INTEGER NOT NULL REFERENCES users(id),
    finished_at_ms INTEGER
);

CREATE TABLE program_match_games (
    series_id INTEGER NOT NULL REFERENCES program_matches(id),
    -- 1-based.
    game INTEGER NOT NULL,
    room_id INTEGER NOT NULL UNIQUE REFERENCES rooms(id),
    -- Set once the game is final, so that the report need not load the room: the result
    -- (JSON, engine GameResult) and the number of moves.
    result TEXT,
    moves INTEGER,
    PRIMARY KEY (series_id, game)
);
