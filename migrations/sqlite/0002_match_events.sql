-- The append-only event log of every room (lichess-style): a room's state is the fold of
-- its events. `seq` is the room's version; the primary key makes a lost race on the same
-- version fail instead of forking the history.
CREATE TABLE match_events (
    room_id  INTEGER NOT NULL REFERENCES rooms (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    at_ms    INTEGER NOT NULL,
    actor_id INTEGER REFERENCES users (id),   -- NULL: the server itself (timers, restarts)
    kind     TEXT    NOT NULL,
    body     TEXT    NOT NULL,                -- the event as JSON (app::matches::events::Event)
    PRIMARY KEY (room_id, seq)
);
