-- One normalisation for user names: `name_key` is the name in Unicode NFC after full case
-- folding (app::data::accounts::name_key), so "Ärger_x" and "ärger_x", or "STRASSE" and
-- "straße", are one name. SQL cannot normalise: new rows get their key at insert and older
-- rows are filled in at start (Db::open). An older account whose key another (older) account
-- already holds keeps NULL (a unique index allows many) and signs in by its exact name only.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_name_key ON users (name_key);
