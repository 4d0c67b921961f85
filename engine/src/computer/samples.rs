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
use crate::game::{Game, Move};
use crate::geometry::{Coord, Point};
use crate::record::{Action, GameRecord, RecordError, SetupStone};
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
mod tests {
    use super::*;
    use crate::computer::features::{all_features, features};
    use crate::game::IllegalKind;
    use crate::geometry::Geometry;
    use crate::rules::Rules;
    use crate::scoring::ScoringMarks;

    fn pt(g: &Game, x: i64, y: i64) -> Point {
        g.geometry().index_of(x, y, 1).unwrap()
    }

    /// A 7×7 game with a pass, a refused attempt and an undo of a Black
    /// move, won by Black on the count. Returns the game and, for every
    /// Black stone move that stayed, the position before it and its point.
    fn scripted() -> (Game, Vec<(Game, Point)>) {
        let mut g = Game::new(Geometry::flat(7, 7).unwrap(), Rules::space()).unwrap();
        let mut kept = Vec::new();
        let black = |g: &mut Game, kept: &mut Vec<(Game, Point)>, x, y| {
            let p = pt(g, x, y);
            kept.push((g.clone(), p));
            g.play(Color::Black, Move::Place(p)).unwrap();
        };
        black(&mut g, &mut kept, 4, 4);
        g.play(Color::White, Move::Place(pt(&g, 2, 2))).unwrap();
        // Refused: occupied. No sample, nothing changes.
        assert!(g.play(Color::Black, Move::Place(pt(&g, 4, 4))).is_err());
        black(&mut g, &mut kept, 4, 3);
        g.play(Color::White, Move::Pass).unwrap();
        // Black plays and takes it back: that sample must go.
        g.play(Color::Black, Move::Place(pt(&g, 6, 6))).unwrap();
        g.undo().unwrap();
        black(&mut g, &mut kept, 3, 4);
        g.play(Color::White, Move::Place(pt(&g, 2, 3))).unwrap();
        black(&mut g, &mut kept, 5, 4);
        g.play(Color::White, Move::Pass).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        g.finish_by_score(&ScoringMarks::default()).unwrap();
        assert_eq!(g.result().and_then(|r| r.winner()), Some(Color::Black), "{:?}", g.result());
        assert!(g.log().iter().any(|a| matches!(a, Action::Illegal { reason: IllegalKind::Occupied, .. })));
        (g, kept)
    }

    #[test]
    fn only_the_winners_kept_moves_give_samples_with_their_features() {
        let (g, kept) = scripted();
        let s =
            samples_from_record(&g.record(), Color::Black, &FinalPosition::of(&g), AlternativePolicy::All, 1).unwrap();
        assert_eq!(s.undone, 1);
        assert_eq!(s.moves.len(), kept.len());
        assert_eq!(s.moves.iter().map(|m| m.move_number).collect::<Vec<_>>(), [1, 3, 5, 7]);
        for (m, (before, p)) in s.moves.iter().zip(&kept) {
            assert_eq!(m.chosen, features(before, Color::Black, *p));
            let legal = all_features(before, Color::Black);
            assert_eq!(m.legal_moves as usize, legal.len());
            let others: Vec<FeatureVector> = legal.iter().filter(|(q, _)| q != p).map(|&(_, f)| f).collect();
            assert_eq!(m.alternatives, others);
        }
        // The move after the undo saw the position after it (no stone at 6,6),
        // and the undone move's number (5) went to the next counted move.
        assert_eq!(kept[2].0.stone_at(pt(&g, 6, 6)), None);
        assert_eq!(s.moves[2].chosen, features(&kept[2].0, Color::Black, kept[2].1));
        assert_eq!(s.pair_count(), s.moves.iter().map(|m| m.legal_moves as u64 - 1).sum::<u64>());
        // White lost: asking for White's samples contradicts the record.
        let e = samples_from_record(&g.record(), Color::White, &FinalPosition::of(&g), AlternativePolicy::All, 1)
            .unwrap_err();
        assert_eq!(e, SampleError::WinnerMismatch { given: Color::White, recorded: Some(Color::Black) });
    }

    #[test]
    fn an_unfinished_record_takes_the_callers_winner() {
        // e.g. a practice ruling recorded outside the move list.
        let mut g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
        g.play(Color::Black, Move::Place(pt(&g, 3, 3))).unwrap();
        g.play(Color::White, Move::Place(pt(&g, 2, 2))).unwrap();
        g.play(Color::Black, Move::Place(pt(&g, 4, 4))).unwrap();
        let s =
            samples_from_record(&g.record(), Color::White, &FinalPosition::of(&g), AlternativePolicy::All, 0).unwrap();
        assert_eq!(s.moves.len(), 1);
        assert_eq!(s.moves[0].move_number, 2);
        assert_eq!(s.moves[0].legal_moves, 24);
        assert_eq!(s.moves[0].alternatives.len(), 23);
    }

    #[test]
    fn replay_must_reproduce_the_final_board_and_turn() {
        let (g, _) = scripted();
        let r = g.record();
        let fin = FinalPosition::of(&g);
        let run = |f: &FinalPosition| samples_from_record(&r, Color::Black, f, AlternativePolicy::All, 1);
        let mut f = fin.clone();
        f.stones.retain(|s| s.at != Coord::new(3, 4, 1));
        assert_eq!(
            run(&f).unwrap_err(),
            SampleError::ReplayMismatch {
                mismatch: Mismatch::Stone { at: Coord::new(3, 4, 1), expected: None, found: Some(Color::Black) }
            }
        );
        let mut f = fin.clone();
        f.stones.push(SetupStone { color: Color::White, at: Coord::new(1, 1, 1) });
        let e = run(&f).unwrap_err();
        assert_eq!(
            e,
            SampleError::ReplayMismatch {
                mismatch: Mismatch::Stone { at: Coord::new(1, 1, 1), expected: Some(Color::White), found: None }
            },
            "the first difference in point order is reported"
        );
        assert!(e.to_string().contains("at 1,1,1 the final board has White but the replay gives empty"), "{e}");
        let mut f = fin.clone();
        f.to_move = f.to_move.opponent();
        assert!(matches!(run(&f), Err(SampleError::ReplayMismatch { mismatch: Mismatch::ToMove { .. } })));
        let mut f = fin.clone();
        f.move_number += 1;
        assert_eq!(
            run(&f).unwrap_err(),
            SampleError::ReplayMismatch {
                mismatch: Mismatch::MoveNumber { expected: fin.move_number + 1, found: fin.move_number }
            }
        );
        let mut f = fin.clone();
        f.stones.push(SetupStone { color: Color::Black, at: Coord::new(8, 1, 1) });
        assert_eq!(
            run(&f).unwrap_err(),
            SampleError::ExpectedOffBoard { index: f.stones.len() - 1, at: Coord::new(8, 1, 1) }
        );
        let mut f = fin.clone();
        f.stones.push(f.stones[0]);
        assert_eq!(run(&f).unwrap_err(), SampleError::ExpectedTwice { index: f.stones.len() - 1, at: f.stones[0].at });
        assert!(run(&fin).is_ok());
    }

    #[test]
    fn bad_records_and_policies_are_refused() {
        let (g, _) = scripted();
        let fin = FinalPosition::of(&g);
        let mut r = g.record();
        r.actions.insert(1, Action::Play { color: Color::White, at: Coord::new(4, 4, 1) });
        let e = samples_from_record(&r, Color::Black, &fin, AlternativePolicy::All, 1).unwrap_err();
        assert!(matches!(e, SampleError::Record(RecordError::Illegal { action: 2, .. })), "{e:?}");
        let e = samples_from_record(&g.record(), Color::Black, &fin, AlternativePolicy::Sample { max: 0 }, 1);
        assert_eq!(e.unwrap_err(), SampleError::BadPolicy { max: 0 });
        // A feature function that forgets the played move is caught.
        let e = samples_from_record_with(&g.record(), Color::Black, &fin, AlternativePolicy::All, 1, |game, c| {
            all_features(game, c).into_iter().filter(|&(p, _)| p != pt(game, 4, 3)).collect()
        });
        assert_eq!(e.unwrap_err(), SampleError::ChosenNotListed { action: 4, at: Coord::new(4, 3, 1) });
    }

    /// A 9×9 game of `n` moves by a fixed pattern.
    fn nine(n: usize) -> Game {
        let mut g = Game::new(Geometry::flat(9, 9).unwrap(), Rules::space()).unwrap();
        let mut k = 0u64;
        while g.move_number() < n as u32 {
            let c = g.to_move();
            let legal = g.legal_points(c);
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mv = if legal.is_empty() { Move::Pass } else { Move::Place(legal[(k >> 33) as usize % legal.len()]) };
            g.play(c, mv).unwrap();
        }
        g
    }

    #[test]
    fn sampled_alternatives_are_a_seeded_subset() {
        let g = nine(20);
        let (r, fin) = (g.record(), FinalPosition::of(&g));
        let policy = AlternativePolicy::Sample { max: 10 };
        let all = samples_from_record(&r, Color::Black, &fin, AlternativePolicy::All, 5).unwrap();
        let a = samples_from_record(&r, Color::Black, &fin, policy, 5).unwrap();
        let b = samples_from_record(&r, Color::Black, &fin, policy, 5).unwrap();
        let c = samples_from_record(&r, Color::Black, &fin, policy, 6).unwrap();
        assert_eq!(a, b, "same seed, same samples");
        assert_ne!(a.moves, c.moves, "another seed draws other alternatives");
        assert_eq!(a.moves.len(), 10);
        for (s, full) in a.moves.iter().zip(&all.moves) {
            assert_eq!(s.alternatives.len(), 10);
            assert_eq!(s.chosen, full.chosen);
            assert_eq!(s.legal_moves, full.legal_moves);
            // A subsequence of all alternatives (point order kept, no repeats).
            let mut it = full.alternatives.iter();
            for x in &s.alternatives {
                assert!(it.any(|y| y == x), "{x:?} not in order among the alternatives");
            }
        }
        // A cap above the number of alternatives keeps them all.
        let big = samples_from_record(&r, Color::Black, &fin, AlternativePolicy::DEFAULT, 5).unwrap();
        assert_eq!(big.moves, all.moves);
    }

    #[test]
    fn the_draw_is_uniform() {
        // Each of 5 alternatives is kept about 2/5 of the time with max 2.
        let list: Vec<(Point, FeatureVector)> = (0..6).map(|i| (Point(i), [f32::from(i); 8])).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut order = Vec::new();
        let mut count = [0u32; 6];
        for _ in 0..5000 {
            for f in pick(&list, 2, AlternativePolicy::Sample { max: 2 }, &mut rng, &mut order) {
                count[f[0] as usize] += 1;
            }
        }
        assert_eq!(count[2], 0, "the chosen move is never its own alternative");
        for (i, &c) in count.iter().enumerate().filter(|&(i, _)| i != 2) {
            assert!((1800..2200).contains(&c), "alternative {i} kept {c} times of 5000");
        }
        let mut hit = [0u32; 7];
        for _ in 0..7000 {
            hit[below(&mut rng, 7) as usize] += 1;
        }
        assert!(hit.iter().all(|&h| (850..1150).contains(&h)), "{hit:?}");
    }
}
