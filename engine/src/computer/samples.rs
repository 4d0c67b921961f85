//! Learning samples rebuilt from a game record (003 §12.1–12.2).
//!
//! A sample is one stone move of the game's winner that stayed on the board
//! (not undone): the [features](super::features) of the chosen move and of
//! its alternatives, all computed on the position just before the move.
//! Training ([`super::train`]) turns each (chosen, alternative) pair into one
//! preference.
//!
//! * Only the winner's counted stone moves give samples. Passes and refused
//!   attempts give none; an `undo` removes the sample of the move it undid
//!   (003 §12.1 "undone examples are removed"), and the position after it is
//!   the one the next sample sees.
//! * Alternatives are the other legal stone moves of the same colour in the
//!   same position ([`super::features::all_features`]). With
//!   [`AlternativePolicy::Sample`] `{ max }` they are all kept when there are
//!   at most `max`, otherwise `max` of them are drawn uniformly without
//!   replacement with `ChaCha8Rng::seed_from_u64(seed)` (one generator for
//!   the whole game, advanced only by such draws), kept in point order.
//!   [`AlternativePolicy::DEFAULT`] is `Sample { max: 400 }`: every legal
//!   move on a 19×19 board, a sample of 400 in a large box.
//! * The samples are rebuilt only when replaying the record reproduces the
//!   final board and turn the caller believes in ([`FinalPosition`];
//!   003 §12.1); otherwise [`SampleError::ReplayMismatch`] names the first
//!   difference and the game gives no samples.
//!
//! Eligibility (003 §12.2: a winner settled by a final score, no pending
//! review, no draws, unfinished games, time losses or resignations) is the
//! caller's decision; this module only refuses a `winner` that contradicts
//! the result the record itself reaches ([`SampleError::WinnerMismatch`]).

use super::{features, FeatureVector};
use crate::board::Color;
use crate::game::record::{Action, GameRecord, RecordError, SetupStone};
use crate::game::{Game, Move};
use crate::geometry::{Coord, Point};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The default cap on alternatives per move (see [`AlternativePolicy::DEFAULT`]).
pub const DEFAULT_MAX_ALTERNATIVES: u32 = 400;

/// Which alternatives of a chosen move are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AlternativePolicy {
    /// Every other legal stone move.
    All,
    /// Every other legal stone move when there are at most `max` (≥ 1),
    /// else a seeded uniform sample of `max` of them.
    Sample { max: u32 },
}

impl AlternativePolicy {
    /// What the server uses: all alternatives up to 400, else a sample of 400.
    pub const DEFAULT: AlternativePolicy = AlternativePolicy::Sample { max: DEFAULT_MAX_ALTERNATIVES };
}

impl Default for AlternativePolicy {
    fn default() -> Self {
        AlternativePolicy::DEFAULT
    }
}

/// One surviving stone move of the winner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveSample {
    /// Features of the move played.
    pub chosen: FeatureVector,
    /// Features of the kept alternatives (see [`AlternativePolicy`]).
    pub alternatives: Vec<FeatureVector>,
    /// Legal stone moves in the position, the chosen one included.
    pub legal_moves: u32,
    /// Official number of the move (003 §2.5: passes count, undone moves and
    /// refused attempts do not).
    pub move_number: u32,
}

/// The samples of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSamples {
    pub winner: Color,
    pub policy: AlternativePolicy,
    pub seed: u64,
    /// In the order of play.
    pub moves: Vec<MoveSample>,
    /// Winner's stone moves whose samples were removed because they were undone.
    pub undone: u32,
}

impl GameSamples {
    /// Number of (chosen, alternative) pairs, the unit of training.
    pub fn pair_count(&self) -> u64 {
        self.moves.iter().map(|m| m.alternatives.len() as u64).sum()
    }
}

/// What the caller believes the final position is: every stone on the board,
/// the player to move and the official move number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalPosition {
    pub stones: Vec<SetupStone>,
    pub to_move: Color,
    pub move_number: u32,
}

impl FinalPosition {
    /// The final position of a game, stones in point order.
    pub fn of(game: &Game) -> FinalPosition {
        let g = game.geometry();
        FinalPosition {
            stones: g
                .points()
                .filter_map(|p| Some(SetupStone { color: game.stone_at(p)?, at: g.coords_of(p)? }))
                .collect(),
            to_move: game.to_move(),
            move_number: game.move_number(),
        }
    }
}

/// The first difference between the replayed and the expected final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mismatch {
    /// The first point (in point order) whose contents differ.
    Stone {
        at: Coord,
        expected: Option<Color>,
        found: Option<Color>,
    },
    ToMove {
        expected: Color,
        found: Color,
    },
    MoveNumber {
        expected: u32,
        found: u32,
    },
}

fn color_name(c: Option<Color>) -> &'static str {
    c.map_or("empty", Color::english)
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Mismatch::Stone { at, expected, found } => write!(
                f,
                "at {at} the final board has {} but the replay gives {}",
                color_name(expected),
                color_name(found)
            ),
            Mismatch::ToMove { expected, found } => {
                write!(f, "the final turn is {}'s but the replay gives {}'s", expected.english(), found.english())
            }
            Mismatch::MoveNumber { expected, found } => {
                write!(f, "the final move number is {expected} but the replay gives {found}")
            }
        }
    }
}

/// Why no samples were built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SampleError {
    /// The record does not replay.
    #[error("the record does not replay: {0}")]
    Record(#[from] RecordError),
    /// 003 §12.1: replay must reproduce the final board and turn.
    #[error("replay does not reproduce the final position: {mismatch}")]
    ReplayMismatch { mismatch: Mismatch },
    /// `stones[index]` of the expected final position is off the board.
    #[error("final position: stones[{index}] at {at} is off the board")]
    ExpectedOffBoard { index: usize, at: Coord },
    /// `stones[index]` names a point already listed.
    #[error("final position: stones[{index}] names {at} a second time")]
    ExpectedTwice { index: usize, at: Coord },
    /// The record's own result names another winner (or none).
    #[error("the winner is given as {given:?} but the record's result gives {recorded:?}")]
    WinnerMismatch { given: Color, recorded: Option<Color> },
    #[error("policy: Sample {{ max: {max} }} keeps no alternatives; max must be at least 1")]
    BadPolicy { max: u32 },
    /// The feature function did not list a move the replay accepted.
    #[error("action {action}: the move at {at} was played but is not among the listed legal moves")]
    ChosenNotListed { action: usize, at: Coord },
    /// The incremental replay ended elsewhere than the checked replay (an engine bug).
    #[error("the incremental replay diverged from the checked replay")]
    Diverged,
}

/// A uniform number in `0..n` (`n ≥ 1`), without modulo bias (Lemire).
pub(crate) fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    debug_assert!(n > 0);
    let n128 = u128::from(n);
    let mut m = u128::from(rng.next_u64()) * n128;
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * n128;
        }
    }
    (m >> 64) as u64
}

/// Rebuild the samples of `record`'s game for `winner` (see the module
/// documentation), with the features of [`features::all_features`].
pub fn samples_from_record(
    record: &GameRecord,
    winner: Color,
    expected: &FinalPosition,
    policy: AlternativePolicy,
    seed: u64,
) -> Result<GameSamples, SampleError> {
    samples_from_record_with(record, winner, expected, policy, seed, features::all_features)
}

/// [`samples_from_record`] with another feature function: `legal(game, color)`
/// lists every legal stone move of `color` with its features, sorted by point.
pub fn samples_from_record_with(
    record: &GameRecord,
    winner: Color,
    expected: &FinalPosition,
    policy: AlternativePolicy,
    seed: u64,
    mut legal: impl FnMut(&Game, Color) -> Vec<(Point, FeatureVector)>,
) -> Result<GameSamples, SampleError> {
    if let AlternativePolicy::Sample { max: 0 } = policy {
        return Err(SampleError::BadPolicy { max: 0 });
    }
    // 1. The checked replay (every rule, every refused attempt's reason).
    let full = record.replay()?;
    check_final(&full, expected)?;
    if let Some(r) = full.result() {
        if r.winner() != Some(winner) {
            return Err(SampleError::WinnerMismatch { given: winner, recorded: r.winner() });
        }
    }

    // 2. The same actions again from the set-up position, with features
    // before each of the winner's stone moves.
    let start = GameRecord {
        version: record.version,
        geometry: record.geometry,
        rules: record.rules,
        setup: record.setup.clone(),
        first_to_move: record.first_to_move,
        actions: Vec::new(),
    };
    let mut game = start.replay()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut slots: Vec<Option<MoveSample>> = Vec::new();
    // One entry per stone move on the board: its slot, if it is the winner's.
    let mut stack: Vec<Option<usize>> = Vec::new();
    let mut undone = 0;
    let mut order: Vec<u32> = Vec::new();
    for (k, a) in record.actions.iter().enumerate() {
        let n = k + 1;
        let invalid = |m: String| RecordError::Invalid { action: n, message: m };
        match a {
            Action::Play { color, at } => {
                let p = game.geometry().point_at(*at).ok_or(RecordError::OffBoard { action: n, at: *at })?;
                if *color == winner {
                    let list = legal(&game, *color);
                    let Ok(i) = list.binary_search_by_key(&p, |&(q, _)| q) else {
                        return Err(SampleError::ChosenNotListed { action: n, at: *at });
                    };
                    let alternatives = pick(&list, i, policy, &mut rng, &mut order);
                    slots.push(Some(MoveSample {
                        chosen: list[i].1,
                        alternatives,
                        legal_moves: list.len() as u32,
                        move_number: game.move_number() + 1,
                    }));
                    stack.push(Some(slots.len() - 1));
                } else {
                    stack.push(None);
                }
                game.play_explicit(*color, Move::Place(p))
                    .map_err(|e| RecordError::Illegal { action: n, source: e })?;
            }
            Action::Pass { color } => {
                game.play_explicit(*color, Move::Pass).map_err(|e| RecordError::Illegal { action: n, source: e })?;
            }
            // Refused attempts change nothing but the log (003 §2.5).
            Action::Illegal { .. } => {}
            Action::Undo { .. } => {
                game.undo().map_err(|e| invalid(e.to_string()))?;
                // 003 §12.1: the undone move's sample is removed.
                if let Some(Some(slot)) = stack.pop() {
                    slots[slot] = None;
                    undone += 1;
                }
            }
            Action::TakeBack { at, .. } => {
                game.take_back().map_err(|e| invalid(e.to_string()))?;
                // A stone taken back loses its sample, as an undone one does; a pass had none.
                if at.is_some() {
                    if let Some(Some(slot)) = stack.pop() {
                        slots[slot] = None;
                        undone += 1;
                    }
                }
            }
            Action::Resume { by } => game.resume(*by).map_err(|e| invalid(e.to_string()))?,
            Action::EnterScoring => game.enter_scoring().map_err(|e| invalid(e.to_string()))?,
            Action::Score { marks } => {
                let m = marks.to_marks(game.geometry()).map_err(|c| RecordError::OffBoard { action: n, at: c })?;
                game.finish_by_score(&m).map_err(|e| invalid(e.to_string()))?;
            }
            Action::Resign { color } => {
                game.resign(*color).map_err(|e| invalid(e.to_string()))?;
            }
            Action::TimeLoss { color } => {
                game.time_loss(*color).map_err(|e| invalid(e.to_string()))?;
            }
            Action::DrawAgreed => {
                game.agree_draw().map_err(|e| invalid(e.to_string()))?;
            }
        }
    }
    if game != full {
        return Err(SampleError::Diverged);
    }
    Ok(GameSamples { winner, policy, seed, moves: slots.into_iter().flatten().collect(), undone })
}

/// The alternatives of `list[chosen]` kept under `policy`, in point order.
fn pick(
    list: &[(Point, FeatureVector)],
    chosen: usize,
    policy: AlternativePolicy,
    rng: &mut ChaCha8Rng,
    order: &mut Vec<u32>,
) -> Vec<FeatureVector> {
    let others = list.len() - 1;
    let max = match policy {
        AlternativePolicy::All => others,
        AlternativePolicy::Sample { max } => (max as usize).min(others),
    };
    let index = |k: usize| if k < chosen { k } else { k + 1 };
    if max == others {
        return (0..others).map(|k| list[index(k)].1).collect();
    }
    // Partial Fisher–Yates over the others: the first `max` are a uniform sample.
    order.clear();
    order.extend(0..others as u32);
    for k in 0..max {
        let j = k + below(rng, (others - k) as u64) as usize;
        order.swap(k, j);
    }
    let kept = &mut order[..max];
    kept.sort_unstable();
    kept.iter().map(|&k| list[index(k as usize)].1).collect()
}

/// 003 §12.1: the replayed final board and turn must be the expected ones.
fn check_final(game: &Game, expected: &FinalPosition) -> Result<(), SampleError> {
    let g = game.geometry();
    let mut want: Vec<Option<Color>> = vec![None; g.len()];
    let mut listed = vec![false; g.len()];
    for (index, s) in expected.stones.iter().enumerate() {
        let p = g.point_at(s.at).ok_or(SampleError::ExpectedOffBoard { index, at: s.at })?;
        if std::mem::replace(&mut listed[p.index()], true) {
            return Err(SampleError::ExpectedTwice { index, at: s.at });
        }
        want[p.index()] = Some(s.color);
    }
    for p in g.points() {
        let (expected, found) = (want[p.index()], game.stone_at(p));
        if expected != found {
            let at = g.coords_of(p).unwrap_or(Coord::new(0, 0, 0));
            return Err(SampleError::ReplayMismatch { mismatch: Mismatch::Stone { at, expected, found } });
        }
    }
    if game.to_move() != expected.to_move {
        return Err(SampleError::ReplayMismatch {
            mismatch: Mismatch::ToMove { expected: expected.to_move, found: game.to_move() },
        });
    }
    if game.move_number() != expected.move_number {
        return Err(SampleError::ReplayMismatch {
            mismatch: Mismatch::MoveNumber { expected: expected.move_number, found: game.move_number() },
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
