//! Why a game action was refused: moves ([`IllegalMove`], [`IllegalKind`],
//! [`RepetitionKind`]), undo, setup and phase changes.

use super::Phase;
use crate::board::Color;
use crate::geometry::{Coord, Point};
use crate::labels::HandicapError;
use serde::{Deserialize, Serialize};

/// Which repetition rule rejected a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionKind {
    /// 003 §2.3: would restore the arrangement from just before the
    /// opponent's most recent move.
    Immediate,
    /// 000 §5.3: would recreate an arrangement seen earlier in the game.
    Superko,
    /// 003 §5.3: would recreate the arrangement that was just undone.
    AfterUndo,
}

/// Why a move was rejected. Every board-related variant carries the point
/// and its actual coordinates (003 §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum IllegalMove {
    #[error("illegal move at {at}: the point is occupied")]
    Occupied { point: Point, at: Coord },
    #[error("illegal move at {at}: suicide (the stone would have no liberty and captures nothing)")]
    Suicide { point: Point, at: Coord },
    #[error("illegal move at {at}: repetition ({})", match kind {
        RepetitionKind::Immediate => "restores the arrangement from before the opponent's last move",
        RepetitionKind::Superko => "recreates an earlier arrangement",
        RepetitionKind::AfterUndo => "recreates the arrangement that was just undone",
    })]
    Repetition { kind: RepetitionKind, point: Point, at: Coord },
    #[error("illegal move at {at}: ko (a single stone may not be retaken immediately)")]
    Ko { point: Point, at: Coord },
    #[error("illegal move: point index {index} is off the board")]
    OffBoard { index: u32 },
    #[error("illegal move: it is {}'s turn, not {}'s", to_move.english(), color.english())]
    NotYourTurn { color: Color, to_move: Color },
    #[error("illegal move: the game is not in play (phase {phase:?})")]
    NotInPlay { phase: Phase },
}

/// Flat list of rejection kinds, with stable words for protocols: `occupied`, `suicide`,
/// `repetition`, `superko`, `undo_repetition`, `ko`, `off_board`, `not_your_turn`,
/// `not_in_play` (the serde names; `as_str` is derived from the same spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum IllegalKind {
    Occupied,
    Suicide,
    Repetition,
    Superko,
    UndoRepetition,
    Ko,
    OffBoard,
    NotYourTurn,
    NotInPlay,
}

impl IllegalKind {
    /// The stable word, equal to the serde name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl IllegalMove {
    pub const fn kind(&self) -> IllegalKind {
        match self {
            IllegalMove::Occupied { .. } => IllegalKind::Occupied,
            IllegalMove::Suicide { .. } => IllegalKind::Suicide,
            IllegalMove::Repetition { kind: RepetitionKind::Immediate, .. } => IllegalKind::Repetition,
            IllegalMove::Repetition { kind: RepetitionKind::Superko, .. } => IllegalKind::Superko,
            IllegalMove::Repetition { kind: RepetitionKind::AfterUndo, .. } => IllegalKind::UndoRepetition,
            IllegalMove::Ko { .. } => IllegalKind::Ko,
            IllegalMove::OffBoard { .. } => IllegalKind::OffBoard,
            IllegalMove::NotYourTurn { .. } => IllegalKind::NotYourTurn,
            IllegalMove::NotInPlay { .. } => IllegalKind::NotInPlay,
        }
    }
    /// The reason word (see [`IllegalKind::as_str`]).
    pub fn reason_word(&self) -> &'static str {
        self.kind().as_str()
    }
    /// The point concerned, if any.
    pub const fn point(&self) -> Option<Point> {
        match *self {
            IllegalMove::Occupied { point, .. }
            | IllegalMove::Suicide { point, .. }
            | IllegalMove::Repetition { point, .. }
            | IllegalMove::Ko { point, .. } => Some(point),
            _ => None,
        }
    }
}

/// Why an undo was refused (003 §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum UndoError {
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("a pass cannot be undone (003 §5.1)")]
    LastWasPass,
    #[error("undo is not allowed in phase {phase:?} (003 §4.4, §5.1)")]
    NotInPlay { phase: Phase },
}

/// Problems with setup stones or handicap.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SetupError {
    #[error("setup stones can only be placed before the first move")]
    GameStarted,
    #[error("setup point index {index} is off the board")]
    OffBoard { index: u32 },
    #[error("setup would leave a chain without liberties")]
    NoLiberties,
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// Phase-changing actions refused in the current phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("not allowed in phase {phase:?}")]
pub struct PhaseError {
    pub phase: Phase,
}
