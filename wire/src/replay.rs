//! Replaying a stored record: the steps worth stepping through — moves, passes, illegal
//! attempts and undos shown as such, the end — and, on the server, the room as it stood
//! after each, rebuilt by the same fold that loads rooms from their logs.

use serde::{Deserialize, Serialize};

use super::events::{Colour, Event, StoredEvent, Xyz};

/// One step of a replay: the event's number (the frame is the room after it) and time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayStep {
    pub seq: i64,
    pub at_ms: i64,
    pub kind: StepKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepKind {
    /// Play began: the empty board, or the handicap stones (000 §4).
    Start,
    Move {
        colour: Colour,
        at: Xyz,
        move_number: u32,
        captured: u32,
    },
    Pass {
        colour: Colour,
        move_number: u32,
    },
    /// Refused by the rules and not counted (003 §2.5): the board is unchanged.
    Illegal {
        colour: Colour,
        at: Xyz,
        reason: engine::IllegalKind,
    },
    /// Moves taken back by consent: `by` asked, `moves` were removed (003 §5.1; 000 §8.2).
    Undo {
        by: Colour,
        moves: u32,
    },
    Resigned {
        colour: Colour,
    },
    TimeExpired {
        colour: Colour,
    },
    /// The result, with the agreed statement when the game was counted.
    Ended,
}

/// The steps of `log`, oldest first. Play resuming after a hold is not a step; only the
/// first start is.
pub fn steps(log: &[StoredEvent]) -> Vec<ReplayStep> {
    let mut out = Vec::new();
    let mut started = false;
    for e in log {
        let kind = match &e.event {
            Event::PlayResumed if !started => {
                started = true;
                StepKind::Start
            }
            Event::MovePlayed { colour, at, move_number, captured } => StepKind::Move {
                colour: *colour,
                at: *at,
                move_number: *move_number,
                captured: u32::try_from(captured.len()).unwrap_or(u32::MAX),
            },
            Event::Passed { colour, move_number } => StepKind::Pass { colour: *colour, move_number: *move_number },
            Event::IllegalAttempt { colour, at, reason } => {
                StepKind::Illegal { colour: *colour, at: *at, reason: *reason }
            }
            // `colour` is the one who agreed; the other asked (003 §5.1 either player may ask;
            // 000 §8.2 the requester's own move, with the reply after it).
            Event::UndoAccepted { colour, .. } => StepKind::Undo { by: colour.opponent(), moves: 1 },
            Event::TakenBack { colour, moves, .. } => {
                StepKind::Undo { by: colour.opponent(), moves: u32::try_from(moves.len()).unwrap_or(u32::MAX) }
            }
            Event::Resigned { colour } => StepKind::Resigned { colour: *colour },
            Event::TimeExpired { colour } => StepKind::TimeExpired { colour: *colour },
            Event::Ended { .. } => StepKind::Ended,
            _ => continue,
        };
        out.push(ReplayStep { seq: e.seq, at_ms: e.at_ms, kind });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seq: i64, event: Event) -> StoredEvent {
        StoredEvent { seq, at_ms: seq * 1000, actor: None, event }
    }

    #[test]
    fn steps_name_moves_passes_illegal_attempts_undos_and_the_end() {
        let p = Xyz { x: 3, y: 3, z: 1 };
        let log = vec![
            at(5, Event::PlayResumed),
            at(6, Event::MovePlayed { colour: Colour::Black, at: p, move_number: 1, captured: vec![] }),
            at(7, Event::MoveAcknowledged { colour: Colour::White, move_number: 1 }),
            at(8, Event::IllegalAttempt { colour: Colour::White, at: p, reason: engine::IllegalKind::Occupied }),
            at(9, Event::UndoAccepted { colour: Colour::White, move_number: 1, at: p, undone_colour: Colour::Black }),
            at(10, Event::PlayResumed),
            at(11, Event::Passed { colour: Colour::Black, move_number: 1 }),
            at(12, Event::Resigned { colour: Colour::White }),
        ];
        let kinds: Vec<(i64, StepKind)> = steps(&log).into_iter().map(|s| (s.seq, s.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (5, StepKind::Start),
                (6, StepKind::Move { colour: Colour::Black, at: p, move_number: 1, captured: 0 }),
                (8, StepKind::Illegal { colour: Colour::White, at: p, reason: engine::IllegalKind::Occupied }),
                (9, StepKind::Undo { by: Colour::Black, moves: 1 }),
                (11, StepKind::Pass { colour: Colour::Black, move_number: 1 }),
                (12, StepKind::Resigned { colour: Colour::White }),
            ]
        );
    }
}
