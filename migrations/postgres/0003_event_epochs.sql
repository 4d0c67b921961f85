-- Issue 15 §3–4: the lease epoch each event was written under (NULL: a room's first event,
-- and events stored before leases). Epochs never fall along a room's log: an older owner
-- writing after a newer one would be two owners at once, which fencing forbids and the chaos
-- tool checks.
ALTER TABLE match_events ADD COLUMN lease_epoch BIGINT;
