-- The administrator's queue and everyone's notifications (003 §1.6, §3.6, §4.7, §5.7, §6.2,
-- §10.2). The queue's items are derived from the rooms' states (each room's actor writes its
-- own after every change); what is kept beside them is who claimed each item.
CREATE TABLE queue_items (
    room_id       INTEGER NOT NULL REFERENCES rooms (id),
    kind          TEXT    NOT NULL,           -- app::matches::referee::QueueKind
    since_ms      INTEGER NOT NULL,
    claimed_by    INTEGER REFERENCES users (id),
    claimed_at_ms INTEGER,
    PRIMARY KEY (room_id, kind)
);

CREATE TABLE notifications (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    room_id    INTEGER REFERENCES rooms (id),
    kind       TEXT    NOT NULL,              -- app::data::notices::NoticeKind
    detail     TEXT,                          -- a queue kind or an administrator's name
    at_ms      INTEGER NOT NULL,
    read_at_ms INTEGER
);
CREATE INDEX notifications_by_user ON notifications (user_id, id);
