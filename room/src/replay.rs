//! Rebuilding a room from its stored log: the same `apply` as live play, so replay and play
//! cannot disagree; a log that stops replaying holds the room as damaged (003 §6.2).
//!
//! The repair of a damaged log is an event too (`record_repaired`): it sets the unreplayable
//! events aside — kept in the log, skipped on replay — and the room goes on. A stored log is never
//! edited.

use super::*;

/// Replay found an event that does not fit the state: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {why}")]
pub struct ReplayError {
    pub seq: i64,
    pub why: String,
}

impl MatchState {
    /// Rebuilds a room from its stored log as far as it replays (003 §6.2): a log that
    /// fails at event `seq` (unreadable there, `damage`, or not applying) gives the room as
    /// the events before it left it, held as a damaged record until an administrator
    /// repairs it; its version stays the log's last (`last_seq`) so that the repair is
    /// appended after everything stored. Only a log without its first event fails.
    pub fn replay_checked(
        events: &[StoredEvent],
        secrets: RoomSecrets,
        damage: Option<(i64, String)>,
        last_seq: i64,
        now: i64,
    ) -> Result<MatchState, ReplayError> {
        let (mut state, failure) = Self::replay_prefix(events, secrets)?;
        let Some((seq, why)) = failure.or(damage) else {
            return Ok(state);
        };
        let scoring = state.phase.take_scoring();
        state.clocks.pause(state.last_event_ms);
        state.phase = Phase::Held { reason: HoldReason::DamagedRecord { seq, why }, scoring, since_ms: now };
        state.version = last_seq.max(state.version);
        Ok(state)
    }

    /// Rebuilds a room from its stored events (the first must be `RoomCreated`).
    pub fn replay(events: &[StoredEvent], secrets: RoomSecrets) -> Result<MatchState, ReplayError> {
        match Self::replay_prefix(events, secrets)? {
            (state, None) => Ok(state),
            (_, Some((seq, why))) => Err(ReplayError { seq, why }),
        }
    }

    /// The room as far as its events replay, and where and why replay stopped. Events a
    /// later `RecordRepaired` set aside are skipped.
    pub(super) fn replay_prefix(
        events: &[StoredEvent],
        secrets: RoomSecrets,
    ) -> Result<(MatchState, Option<(i64, String)>), ReplayError> {
        let first = events.first().ok_or(ReplayError { seq: 0, why: "empty log".into() })?;
        let Event::RoomCreated { name, settings, created_by } = &first.event else {
            return Err(ReplayError { seq: first.seq, why: "log does not start with room_created".into() });
        };
        let mut state = MatchState::new(name.clone(), settings.clone(), *created_by, secrets)
            .map_err(|why| ReplayError { seq: first.seq, why })?;
        state.version = first.seq;
        state.last_event_ms = first.at_ms;
        let set_aside: Vec<(i64, i64)> = events
            .iter()
            .filter_map(|e| match e.event {
                Event::RecordRepaired { resume_after, .. } => Some((resume_after, e.seq)),
                _ => None,
            })
            .collect();
        for (i, e) in events.iter().enumerate().skip(1) {
            if set_aside.iter().any(|(after, repair)| e.seq > *after && e.seq < *repair) {
                continue;
            }
            let resumes =
                matches!(e.event, Event::RecordRepaired { resume_after, .. } if resume_after == state.version);
            if e.seq != state.version + 1 && !resumes {
                let why = format!("expected event {}", state.version + 1);
                return Ok((state, Some((e.seq, why))));
            }
            if let Err(why) = state.apply(&e.event, e.at_ms) {
                // The failed event may have changed part of the state: the room is what the
                // events before it make (replayed again; this is the rare path).
                let (before, _) = Self::replay_prefix(&events[..i], state.secrets.clone())?;
                return Ok((before, Some((e.seq, why))));
            }
            state.version = e.seq;
        }
        Ok((state, None))
    }
}
