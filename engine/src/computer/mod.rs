//! The basic computer (003 §11.4, §12.3–12.6): an evaluator of exactly eight
//! weighted features of a candidate move, a search that uses it as its prior,
//! learning samples from finished games, training of the eight weights, and
//! the model file that carries them between servers.
//!
//! Like the rest of the engine: no I/O, no clock. Time limits arrive as a
//! `stop` callback the caller builds from its own clock.
//!
//! * [`features`] — the eight features of a move, for any box.
//! * [`evaluator`] — level 1: the best-scoring move, seeded tie-breaking.
//! * [`search`] — level 2: Monte-Carlo tree search with the evaluator as prior.
//! * [`ownership`] — dead-stone estimates from seeded playouts (scoring proposals).
//! * [`model`] — weights, the default model, fingerprint, the JSON model file.
//! * [`samples`] — learning samples rebuilt from a game record.
//! * [`train`] — pairwise logistic training and held-out metrics.

use serde::{Deserialize, Serialize};

pub mod evaluator;
pub mod features;
pub mod model;
pub mod ownership;
pub mod samples;
pub mod search;
pub mod train;

use crate::board::Color;
use crate::game::{Game, Move};

pub use evaluator::choose;
pub use ownership::estimate_dead;
pub use search::{search, SearchLimits};

/// Exactly eight features (003 §12.3: "eight evaluation weights").
pub const FEATURE_COUNT: usize = 8;

/// One candidate move's feature values, in [`Feature`] order.
pub type FeatureVector = [f32; FEATURE_COUNT];

/// The eight features of a candidate move, in the order of a
/// [`FeatureVector`] and of the weights. Each is documented where it is
/// computed ([`features`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Feature {
    Captures,
    SavesAtari,
    SelfAtari,
    PutsInAtari,
    Liberties,
    NearLastMove,
    SurfaceDistance,
    FillsOwnEye,
}

impl Feature {
    pub const ALL: [Feature; FEATURE_COUNT] = [
        Feature::Captures,
        Feature::SavesAtari,
        Feature::SelfAtari,
        Feature::PutsInAtari,
        Feature::Liberties,
        Feature::NearLastMove,
        Feature::SurfaceDistance,
        Feature::FillsOwnEye,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The computer's levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Level {
    /// The evaluator alone: the best move by score.
    Evaluator = 1,
    /// Monte-Carlo tree search with the evaluator as prior, within a time limit.
    Search = 2,
}

impl Level {
    pub const STRONGEST: Level = Level::Search;
    pub fn number(self) -> u8 {
        self as u8
    }
    pub fn from_number(n: u8) -> Option<Level> {
        match n {
            1 => Some(Level::Evaluator),
            2 => Some(Level::Search),
            _ => None,
        }
    }
}

/// The eight weights of a model, in [`Feature`] order. A move's score is
/// the dot product with its [`FeatureVector`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights(pub [f64; FEATURE_COUNT]);

impl Weights {
    /// The move's score under these weights.
    #[inline]
    pub fn score(&self, f: &FeatureVector) -> f64 {
        self.0.iter().zip(f.iter()).map(|(w, x)| w * f64::from(*x)).sum()
    }
}

/// The built-in model (used without a model file): hand-set, then checked
/// in games against GNU Go (engine/README.md "Computer"). A score is a
/// logit-like preference; only differences between moves matter, except for
/// the level-1 pass threshold ([`evaluator::PASS_THRESHOLD`]).
pub const DEFAULT_WEIGHTS: Weights = Weights([
    // Captures: taking stones is the surest gain.
    2.0,  // SavesAtari: rescuing an own chain is nearly as urgent.
    2.0,  // SelfAtari: a chain left with one liberty is usually lost.
    -2.5, // PutsInAtari: a forcing threat, but cheap to answer.
    0.6,  // Liberties: room to breathe (0..=1 over the capped count).
    1.0,  // NearLastMove: answer locally, where the action is.
    0.8,  // SurfaceDistance: the 3rd/4th-line bump; keeps stones off the first line.
    1.2,  // FillsOwnEye: never throw away an own eye.
    -4.0,
]);

/// Why the computer passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassReason {
    /// The game is not in the playing phase; the pass is not a playable move.
    NotInPlay,
    /// No legal stone move exists.
    NoLegalMove,
    /// Every legal stone move would only fill an own single-point eye.
    OnlyOwnEyes,
    /// Every remaining move scores below [`evaluator::PASS_THRESHOLD`]
    /// (003 §11.4 "may pass when it finds no move").
    BelowThreshold,
    /// The opponent passed and the area count (with the estimated dead
    /// stones removed) already wins for the computer, so the game can end.
    GameDecided,
}

/// The computer's move and what the caller may want to record with it (the
/// seed is the caller's own).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub mv: Move,
    /// The evaluator score (weights · features) of the chosen stone move.
    pub score: Option<f64>,
    /// Legal stone moves considered at the root.
    pub considered: u32,
    /// The level that actually chose the move ([`Level::Evaluator`] when the
    /// search fell back, see [`search::MAX_SEARCH_POINTS`]).
    pub level: Level,
    /// True when level 2 was asked for but level 1 chose (box too large).
    pub fell_back: bool,
    /// Playouts run by the search (0 at level 1).
    pub playouts: u32,
    /// The search's estimated winning chance of the move for the mover (level 2).
    pub win_rate: Option<f64>,
    /// Set when `mv` is a pass.
    pub pass_reason: Option<PassReason>,
}

impl Choice {
    pub(crate) fn pass(reason: PassReason, considered: u32, level: Level) -> Choice {
        Choice {
            mv: Move::Pass,
            score: None,
            considered,
            level,
            fell_back: false,
            playouts: 0,
            win_rate: None,
            pass_reason: Some(reason),
        }
    }
}

/// The computer's move at `level` (the server and GTP call this one).
/// `limits` and `stop` only matter for the search: `stop` is polled between
/// playouts and is built by the caller from its own clock (the engine has none).
pub fn choose_move(
    game: &Game,
    color: Color,
    w: &Weights,
    level: Level,
    seed: u64,
    limits: SearchLimits,
    stop: &mut dyn FnMut() -> bool,
) -> Choice {
    match level {
        Level::Evaluator => evaluator::choose(game, color, w, seed),
        Level::Search => search::search(game, color, w, seed, limits, stop),
    }
}
