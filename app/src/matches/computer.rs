//! The computer seat's player inside a room's actor (003 §11.4): it thinks on a blocking
//! thread (the engine's evaluator or search, with the room's pinned model and recorded seed)
//! and hands its command back to the actor, which validates it like any person's.

use std::time::{Duration, Instant};

use engine::computer::{self, Level, SearchLimits, Weights};
use tokio::sync::mpsc;

use wire::mode::ComputerSeat;

use crate::data::Db;
use room::{Command, ComputerStep, MatchState};

/// Playouts for the dead-stone proposal when counting starts.
const OWNERSHIP_PLAYOUTS: u32 = 400;

/// What a finished thought proposes, for the room as of `version`.
pub(crate) struct Thought {
    version: i64,
    /// The colour whose computer thought.
    pub(crate) colour: engine::Color,
    result: ThoughtResult,
}

enum ThoughtResult {
    Move(Command),
    Dead(Vec<engine::Point>),
}

pub(crate) struct ComputerPlayer {
    tx: mpsc::Sender<Thought>,
    /// The pinned models' weights by colour (two in a program game), once loaded and
    /// checked against their fingerprints.
    weights: wire::ByColour<Option<Weights>>,
    /// The room version a thought is under way for.
    thinking: Option<i64>,
    /// The version at which one of its commands was refused: not tried again there.
    refused_at: Option<i64>,
}

impl ComputerPlayer {
    pub(crate) fn new(tx: mpsc::Sender<Thought>) -> Self {
        ComputerPlayer { tx, weights: wire::ByColour::both(None), thinking: None, refused_at: None }
    }

    /// Starts thinking about `step` unless a thought for this version is under way.
    pub(crate) async fn think(&mut self, step: ComputerStep, state: &MatchState, db: &Db) {
        if self.thinking == Some(state.version) || self.refused_at == Some(state.version) {
            return;
        }
        let colour = match step {
            ComputerStep::Move { colour, .. } | ComputerStep::ProposeDead { colour, .. } => colour,
            ComputerStep::Give(..) => return,
        };
        let Some(seat) = state.rules.mode().computer_playing(colour).cloned() else { return };
        let Some(weights) = self.weights(&seat, db).await else { return };
        self.thinking = Some(state.version);
        let game = state.game.clone();
        let version = state.version;
        let tx = self.tx.clone();
        // A different, recorded stream per move: the room's seed and the move number.
        let seed = seat.seed ^ u64::from(game.move_number()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let job = move || {
            let result = match step {
                ComputerStep::Move { colour, .. } => {
                    let level = Level::from_number(seat.level).unwrap_or(Level::STRONGEST);
                    let deadline = Instant::now() + Duration::from_millis(u64::from(seat.move_ms));
                    let mut stop = || Instant::now() >= deadline;
                    let limits = SearchLimits { max_playouts: u32::MAX };
                    let choice = computer::choose_move(&game, colour, &weights, level, seed, limits, &mut stop);
                    ThoughtResult::Move(match choice.mv {
                        engine::Move::Place(p) => Command::Move { at: room::xyz_of(game.geometry(), p) },
                        engine::Move::Pass => Command::Pass,
                    })
                }
                ComputerStep::ProposeDead { .. } => {
                    ThoughtResult::Dead(computer::ownership::estimate_dead(&game, OWNERSHIP_PLAYOUTS, seed))
                }
                ComputerStep::Give(..) => return,
            };
            let _ = tx.blocking_send(Thought { version, colour, result });
        };
        tokio::task::spawn_blocking(job);
    }

    /// A thought arrived: the commands to give, if the room has not moved on meanwhile.
    pub(crate) fn finished(&mut self, thought: Thought, state: &MatchState) -> Option<Vec<Command>> {
        if self.thinking == Some(thought.version) {
            self.thinking = None;
        }
        if thought.version != state.version {
            return None;
        }
        Some(match thought.result {
            ThoughtResult::Move(cmd) => vec![cmd],
            ThoughtResult::Dead(points) => {
                let marks = state.dead_proposal(&points);
                if marks.is_empty() {
                    let statement = state.scoring().map_or(0, |s| s.statement);
                    vec![Command::Consent { statement }]
                } else {
                    marks
                }
            }
        })
    }

    /// One of its commands was refused at `version`: it does not try again until the room
    /// changes.
    pub(crate) fn refused(&mut self, version: i64) {
        self.refused_at = Some(version);
    }

    /// A thought is under way (its answer will come to the actor).
    pub(crate) fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Whether it stays still at `version` (its command was refused there).
    pub(crate) fn blocked(&self, version: i64) -> bool {
        self.refused_at == Some(version)
    }

    /// The pinned model's weights (loaded once per seat). A model that is missing or whose weights do
    /// not match the pinned fingerprint is not played with (003 §12.5).
    async fn weights(&mut self, seat: &ComputerSeat, db: &Db) -> Option<Weights> {
        let slot = seat.colour;
        if let Some(w) = self.weights[slot] {
            return Some(w);
        }
        let pin = seat.model.as_ref()?;
        match db.model_weights(pin.id).await {
            Ok(Some(w)) if computer::model::fingerprint(&w) == pin.fingerprint => {
                self.weights[slot] = Some(w);
                Some(w)
            }
            Ok(_) => {
                tracing::error!(model = pin.id, "the room's model is missing or does not match its fingerprint");
                None
            }
            Err(e) => {
                tracing::error!(model = pin.id, error = %e, "the room's model could not be read");
                None
            }
        }
    }
}
