-- The basic computer's models (003 §12.5): every training run and every import is a new
-- row; rows are never changed or deleted, so a room pinned to a model keeps playing it.
CREATE TABLE models (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 1, 2, 3, … in order of creation.
    version INTEGER NOT NULL UNIQUE,
    -- How it came to be: builtin | trained | imported.
    source TEXT NOT NULL,
    -- The eight weights, a JSON array in the engine's feature order.
    weights TEXT NOT NULL,
    -- sha256:<hex> of the canonical weights serialisation (engine computer::model).
    fingerprint TEXT NOT NULL,
    -- JSON: source games with their statement numbers, metrics, parent, note.
    provenance TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    created_by INTEGER REFERENCES users(id)
);

-- Lists mark a room's mode (one device, practice, against the computer; 003 §11.1).
ALTER TABLE rooms ADD COLUMN mode TEXT NOT NULL DEFAULT 'match';
