-- Issue 14 §2: the room lists. Who may take an open room's free seat; what the lists show of
-- a room (JSON, written in the transaction of the events that change it); and each room's
-- seated accounts, for "your games" and profiles. A room its creator cancelled before play
-- is closed like a finished one (`status` 'finished': the column is coarse, and SQLite
-- cannot widen its CHECK in place); its listing says `cancelled`.
ALTER TABLE rooms ADD COLUMN access TEXT NOT NULL DEFAULT 'invitation';
ALTER TABLE rooms ADD COLUMN listing TEXT;

CREATE TABLE room_players (
    room_id INTEGER NOT NULL REFERENCES rooms (id),
    user_id INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (room_id, user_id)
);
CREATE INDEX room_players_by_user ON room_players (user_id, room_id);

-- Rooms from before: their seated accounts, from the seat events (nobody could leave then).
INSERT OR IGNORE INTO room_players (room_id, user_id)
    SELECT room_id, json_extract(body, '$.user_id') FROM match_events
    WHERE kind = 'seat_taken' AND json_extract(body, '$.user_id') IN (SELECT id FROM users);

CREATE INDEX rooms_by_status ON rooms (status, access, created_at_ms);
