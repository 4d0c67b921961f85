//! Local learning's wire types (003 §12): the model sources and summaries, the training run's
//! request, status and refusals, shared with the browser. The runs themselves are the
//! server's (`app::learning`).

use serde::{Deserialize, Serialize};

use crate::mode::ModeTag;

/// 003 §12.3: a run has 1–50 epochs.
pub const EPOCHS: std::ops::RangeInclusive<u32> = 1..=50;

/// How a model came to be (the storage's own enum, shared with the browser).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ModelSource {
    /// The engine's default weights, present from the first start.
    Builtin,
    /// A training run on this server's games.
    Trained,
    /// A model file imported by an administrator (003 §12.6).
    Imported,
}

/// A stored model as lists show it (003 §12.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModelSummary {
    pub id: i64,
    pub version: u32,
    pub source: ModelSource,
    /// `sha256:…` of the canonical weights text: a consistency check, not a signature.
    pub fingerprint: String,
    /// The eight weights in the engine's feature order.
    pub weights: [f64; 8],
    pub created_at_ms: i64,
    /// How many games it was trained and checked on.
    pub source_games: u32,
    /// Held-out move-preference accuracy and log loss at the end of its training run.
    pub holdout_accuracy: Option<f64>,
    pub holdout_log_loss: Option<f64>,
    pub note: Option<String>,
}

/// A finished game training may use: the room and the statement that settled its winner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRef {
    pub room_id: i64,
    pub statement: u64,
    pub mode: ModeTag,
}

/// Why a game is not used (003 §12.1–12.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ExclusionKind {
    Unfinished,
    Draw,
    Resignation,
    Time,
    /// Ended otherwise without a counted winner (a decision, void, repetition).
    NoScoredWinner,
    UnderReview,
    /// The stored log does not replay.
    Damaged,
    /// Replaying the record did not reproduce the final board and turn.
    ReplayMismatch,
    /// A program match's game: the programs' own moves, with marks agreed automatically
    /// rather than by players (003 §12.2 counts agreed or ruled scores).
    ProgramGame,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Exclusion {
    pub room_id: i64,
    pub kind: ExclusionKind,
}

/// Where a training run stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    #[default]
    Idle,
    /// Rebuilding the samples from the stored logs.
    Collecting,
    Training,
    Finished,
    Failed,
}

/// The held-out metrics after one epoch (epoch 0: the start weights; 003 §12.4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EpochPoint {
    pub epoch: u32,
    /// Move-preference accuracy on held-out pairs.
    pub accuracy: f64,
    pub log_loss: f64,
    /// Share of held-out moves where the chosen move scores best.
    pub top1: f64,
    /// Mean rank of the chosen move among its alternatives (1 = best).
    pub mean_rank: f64,
    pub train_log_loss: f64,
}

/// The current or last training run, as the training page polls it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrainingStatus {
    pub state: RunState,
    pub epochs_planned: u32,
    pub epochs: Vec<EpochPoint>,
    pub eligible: Vec<GameRef>,
    pub excluded: Vec<Exclusion>,
    /// Rooms held while it runs (resumed after).
    pub paused_rooms: Vec<i64>,
    /// Training pairs available and used, held-out pairs available and used.
    pub pairs: Option<[u64; 4]>,
    /// The model it made.
    pub model: Option<ModelSummary>,
    pub refusal: Option<TrainingRefusal>,
}

/// What the administrator asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TrainingRequest {
    pub epochs: u32,
    pub seed: u64,
    /// The model whose weights training starts from; absent: the built-in one.
    #[serde(default)]
    pub start_model: Option<i64>,
    /// Games in play are paused: the administrator confirms it (003 §12.3).
    #[serde(default)]
    pub confirm_pause: bool,
    /// The reasons both players of a paused game see.
    #[serde(default)]
    pub reasons: String,
}

/// Why a training run does not start (003 §12.2–12.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
// Read by hand (`app::error::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(TrainingRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
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
