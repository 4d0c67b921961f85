-- Issue 15 §3: which server instance owns each live room. `epoch` grows with every taking
-- and never goes back (a lease given up keeps its row, expired): each append checks it in
-- its own transaction, so an instance whose lease was taken cannot write (fencing).
CREATE TABLE room_leases (
    room_id       INTEGER PRIMARY KEY REFERENCES rooms (id),
    owner         TEXT    NOT NULL,
    epoch         INTEGER NOT NULL CHECK (epoch >= 1),
    expires_at_ms INTEGER NOT NULL
);
CREATE INDEX room_leases_by_owner ON room_leases (owner);

-- The server instances and where their peers reach them (a command sent to a room another
-- instance owns is forwarded there, with the owner's `peer_key`: only a reader of this
-- table can send one); `seen_at_ms` is renewed with their leases.
CREATE TABLE server_instances (
    id         TEXT   PRIMARY KEY,
    address    TEXT,
    peer_key   TEXT   NOT NULL,
    seen_at_ms BIGINT NOT NULL
);

-- The sign-in throttle's failures per key (a user name's key or a client address), shared by
-- every instance; keys an hour without failures are deleted as new failures come.
CREATE TABLE sign_in_failures (
    key             TEXT   PRIMARY KEY,
    failures        BIGINT NOT NULL,
    last_failure_ms BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_failure_ms);
