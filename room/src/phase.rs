//! Where a room stands and what exists only there: the readiness wait, play's undo and draw
//! questions, the counting, holds, the result.

use serde::{Deserialize, Serialize};

use super::*;

/// A pending undo request (003 §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoRequest {
    pub colour: Colour,
    pub move_number: u32,
    /// Moves an acceptance takes back (2 only in Classic, 000 §8.2).
    pub plies: u8,
    pub since_ms: i64,
}

/// A player's connection fault (003 §5.6, §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub cause: FaultCause,
    pub since_ms: i64,
}

/// Classic draw offers (000 §8.1 `draw`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawState {
    pub pending_by: Option<Colour>,
    /// Moves and passes played by each colour.
    pub plays: ByColour<u32>,
    /// `plays` of the offerer when their last offer was declined.
    pub declined_at: ByColour<Option<u32>>,
}

/// The counting phase (003 §3.4–3.7, §4.5–4.6; 000 §5.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoringState {
    pub started_ms: i64,
    pub marks: Vec<Mark>,
    /// The latest statement's number and content.
    pub statement: u64,
    pub score: ScoreSummary,
    /// The statement number each player consented to.
    pub consents: ByColour<Option<u64>>,
    /// The scoring-wait notice was sent (Space, 003 §10.2).
    pub alerted: bool,
}

impl ScoringState {
    /// Counting entered at `t`, before its first statement (which follows at once).
    pub(super) fn entered(t: i64) -> ScoringState {
        ScoringState {
            started_ms: t,
            marks: Vec::new(),
            statement: 0,
            score: scoring::engine_fallback_summary(),
            consents: ByColour::both(None),
            alerted: false,
        }
    }
}

/// Waiting for both players' Ready (003 §1.6, §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readiness {
    /// Ready flags by colour (Black, White).
    pub ready: ByColour<bool>,
    /// Since when both players' readiness is awaited.
    pub since_ms: i64,
    /// The administrator was told the wait is long (003 §1.6).
    pub alerted: bool,
}

/// Where the room stands, with what exists only there. The wire names it by [`RoomPhase`]
/// ([`MatchState::phase`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Open,
    WaitingReady(Readiness),
    Playing,
    Scoring(ScoringState),
    /// Held for the administrator; `scoring` is the counting it interrupted, if any (it
    /// goes on when resumed; otherwise play waits for both players' Ready).
    Held {
        reason: HoldReason,
        scoring: Option<ScoringState>,
        since_ms: i64,
    },
    /// Review required: both consented to the statement in `scoring`, which waits for the
    /// administrator (003 §2.7). A player may still withdraw their consent.
    AwaitingReview(ScoringState),
    /// `scoring`: the counting the game ended in or after, if any (shown with the result).
    Finished {
        scoring: Option<ScoringState>,
    },
    /// Closed by its creator before play.
    Cancelled,
}

impl Phase {
    pub fn name(&self) -> RoomPhase {
        match self {
            Phase::Open => RoomPhase::Open,
            Phase::WaitingReady(_) => RoomPhase::WaitingReady,
            Phase::Playing => RoomPhase::Playing,
            Phase::Scoring(_) => RoomPhase::Scoring,
            Phase::Held { .. } => RoomPhase::Held,
            Phase::AwaitingReview(_) => RoomPhase::AwaitingReview,
            Phase::Finished { .. } => RoomPhase::Finished,
            Phase::Cancelled => RoomPhase::Cancelled,
        }
    }

    pub(super) fn scoring(&self) -> Option<&ScoringState> {
        match self {
            Phase::Scoring(s)
            | Phase::AwaitingReview(s)
            | Phase::Held { scoring: Some(s), .. }
            | Phase::Finished { scoring: Some(s) } => Some(s),
            _ => None,
        }
    }

    pub(super) fn scoring_mut(&mut self) -> Option<&mut ScoringState> {
        match self {
            Phase::Scoring(s)
            | Phase::AwaitingReview(s)
            | Phase::Held { scoring: Some(s), .. }
            | Phase::Finished { scoring: Some(s) } => Some(s),
            _ => None,
        }
    }

    /// Moves the counting out of this phase (which keeps whatever else it holds).
    pub(super) fn take_scoring(&mut self) -> Option<ScoringState> {
        match std::mem::replace(self, Phase::Open) {
            Phase::Scoring(s) | Phase::AwaitingReview(s) => Some(s),
            Phase::Held { reason, scoring, since_ms } => {
                *self = Phase::Held { reason, scoring: None, since_ms };
                scoring
            }
            Phase::Finished { scoring } => {
                *self = Phase::Finished { scoring: None };
                scoring
            }
            other => {
                *self = other;
                None
            }
        }
    }
}
