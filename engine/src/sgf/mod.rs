//! SGF FF[4] import and export for flat (depth-1) boards.
//!
//! Two layers:
//! - [`text`]: SGF text ↔ [`SgfGame`] (a neutral struct: size, komi, handicap,
//!   setup stones, moves with their recorded colour, result, players, date, rules);
//! - [`replay`]: [`SgfGame`] ↔ the engine's game, replaying every move through
//!   the rules.
//!
//! Every failure is an [`SgfError`]; nothing here panics on any input.

pub mod replay;
pub mod text;

pub use replay::{
    export_sgf, game_from_sgf, import_sgf, rules_from_ru, rules_to_ru, sgf_from_game, ImportedGame, SgfInfo,
};

pub use text::{parse_sgf, write_sgf, SgfColor, SgfGame, SgfMove, SgfPoint, MAX_SGF_BYTES, MAX_TREE_DEPTH};

/// Why an SGF record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SgfError {
    /// The text is not well-formed SGF.
    #[error("SGF syntax error: {0}")]
    Syntax(String),
    /// The text holds no game tree.
    #[error("SGF holds no game")]
    NoGame,
    /// The first game tree is not a game of Go (`GM` other than 1).
    #[error("SGF game is not Go (GM must be 1)")]
    NotGo,
    /// The input is larger than [`MAX_SGF_BYTES`].
    #[error("SGF too large: {bytes} bytes (limit {limit})")]
    TooLarge { bytes: usize, limit: usize },
    /// A path of the game tree is longer than [`MAX_TREE_DEPTH`] nodes.
    #[error("SGF game tree deeper than {limit} nodes")]
    TooDeep { limit: usize },
    /// `SZ` is unreadable or outside 1–52.
    #[error("bad board size SZ[{0}]")]
    BadSize(String),
    /// The size is valid SGF but the engine cannot play it (odd 1–25 per axis; 003 §1.1).
    #[error("unsupported board size {width}x{height}: {reason}")]
    UnsupportedSize { width: u8, height: u8, reason: String },
    /// A rule-relevant property has a value that cannot be read.
    #[error("bad property {property}[{value}]{}", move_suffix(*.move_number))]
    BadProperty { property: String, value: String, move_number: Option<usize> },
    /// A move lies outside the board.
    #[error("move {move_number}: {coord} is off the board")]
    OffBoard { move_number: usize, coord: String },
    /// Setup stones (`AB`/`AW`/`AE`) after the first move are not supported.
    #[error("setup stones after move {move_number} are not supported")]
    SetupAfterMoves { move_number: usize },
    /// A setup stone could not be placed (for example it leaves a chain without liberties).
    #[error("setup stone {color} {coord}: {reason}")]
    BadSetup { color: &'static str, coord: String, reason: String },
    /// A recorded move breaks the rules (occupied point, suicide, repetition ...).
    #[error("move {move_number}: {color} {coord} is illegal: {reason}")]
    IllegalMove { move_number: usize, color: &'static str, coord: String, reason: String },
    /// The game cannot be written as SGF (for example a board deeper than 1).
    #[error("cannot export as SGF: {0}")]
    Unexportable(String),
}

fn move_suffix(n: Option<usize>) -> String {
    match n {
        Some(n) => format!(" at move {n}"),
        None => String::new(),
    }
}

impl SgfError {
    /// The 1-based move number the error refers to, if any.
    pub fn move_number(&self) -> Option<usize> {
        match self {
            SgfError::OffBoard { move_number, .. }
            | SgfError::SetupAfterMoves { move_number }
            | SgfError::IllegalMove { move_number, .. } => Some(*move_number),
            SgfError::BadProperty { move_number, .. } => *move_number,
            _ => None,
        }
    }
}
