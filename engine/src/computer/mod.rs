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
//! * [`model`] — weights, the default model, fingerprint, the JSON model file.
//! * [`samples`] — learning samples rebuilt from a game record.
//! * [`train`] — pairwise logistic training and held-out metrics.

use serde::{Deserialize, Serialize};

pub mod evaluator;
pub mod features;
pub mod model;
pub mod samples;
pub mod search;
pub mod train;

/// Exactly eight features (003 §12.3: "eight evaluation weights").
pub const FEATURE_COUNT: usize = 8;

/// One candidate move's feature values, in [`Feature`] order.
pub type FeatureVector = [f32; FEATURE_COUNT];

/// The eight features of a candidate move, in the order of a
/// [`FeatureVector`] and of the weights. Each is documented where it is
/// computed ([`features`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString,
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

/// The computer's levels (issue 13 §2).
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
