-- Issue 15 §3: which instance printed each first-administrator link. Instances starting
-- together each print one; an instance's new link revokes only its own earlier ones, and the
-- first link used revokes every other.
ALTER TABLE setup_tokens ADD COLUMN issued_by TEXT;
