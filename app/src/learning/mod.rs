//! Local learning (003 §12): learning samples from this server's finished games, training
//! runs of the computer's eight weights, and the model files and participant programs that
//! carry a model elsewhere. The wire types here are shared with the browser; the work is
//! server-only.

use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
pub mod participant;

/// Why a training run does not start (003 §12.2–12.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TrainingRefusal {
    /// 003 §12.2: at least two eligible games are needed.
    TooFewGames { have: u32, need: u32 },
    /// 003 §12.3: 1–50 epochs.
    EpochsOutOfRange { got: u32, min: u32, max: u32 },
    /// Another run is under way.
    AlreadyRunning,
    /// Games in play are paused first, after the administrator confirms (003 §12.3).
    PauseNotConfirmed { games_in_play: u32 },
    /// The eligible games gave no preference pairs (no alternatives to a chosen move).
    NoPairs,
}

impl std::fmt::Display for TrainingRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainingRefusal::TooFewGames { have, need } => write!(f, "{have} eligible games; at least {need} needed"),
            TrainingRefusal::EpochsOutOfRange { got, min, max } => write!(f, "{got} epochs; allowed {min}..={max}"),
            TrainingRefusal::AlreadyRunning => f.write_str("a training run is under way"),
            TrainingRefusal::PauseNotConfirmed { games_in_play } => {
                write!(f, "{games_in_play} games in play would be paused; confirm first")
            }
            TrainingRefusal::NoPairs => f.write_str("the eligible games give no preference pairs"),
        }
    }
}
