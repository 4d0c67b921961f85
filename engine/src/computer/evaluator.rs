//! Level 1 (003 §11.4): the best legal move by `weights · features`, with
//! seeded randomness among near-equal moves so that the same seed replays the
//! same game and different seeds vary the play.

use super::features::all_features;
use super::{Choice, Feature, FeatureVector, Level, PassReason, Weights};
use crate::board::Color;
use crate::game::{Game, Move, Phase};
use crate::geometry::Point;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Moves whose score is within this of the best are equally good; the seeded
/// RNG picks one of them uniformly. Small against every default weight, so
/// it only breaks ties such as the symmetric points of an empty board.
pub const TIE_EPSILON: f64 = 0.05;

/// 003 §11.4 "may pass when it finds no move": when the best score is below
/// this, every remaining move is judged harmful (with the default weights, a
/// one-stone self-atari scores about −2) and the computer passes instead.
pub const PASS_THRESHOLD: f64 = -1.5;

/// Uniform in `0..n` from a 32-bit draw (`n` ≥ 1).
#[inline]
pub(crate) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

/// Whether a candidate is only an own-eye fill: it fills an own single-point
/// eye without saving a chain in atari (filling to connect a chain in atari
/// can be the only defence, so that one stays).
#[inline]
pub(crate) fn only_fills_eye(f: &FeatureVector) -> bool {
    f[Feature::FillsOwnEye.index()] > 0.0 && f[Feature::SavesAtari.index()] == 0.0
}

/// A candidate stone move, its features and its score.
pub(crate) type Candidate = (Point, FeatureVector, f64);

/// The candidates the computer would consider: legal stone moves that do not
/// only fill an own eye, with their scores; plus the number of legal moves,
/// or the reason to pass when none is left.
pub(crate) fn candidates(game: &Game, color: Color, w: &Weights) -> Result<(Vec<Candidate>, u32), (PassReason, u32)> {
    if game.phase() != Phase::Playing {
        return Err((PassReason::NotInPlay, 0));
    }
    let all = all_features(game, color);
    let legal = all.len() as u32;
    if all.is_empty() {
        return Err((PassReason::NoLegalMove, 0));
    }
    let c: Vec<_> = all.into_iter().filter(|(_, f)| !only_fills_eye(f)).map(|(p, f)| (p, f, w.score(&f))).collect();
    if c.is_empty() {
        return Err((PassReason::OnlyOwnEyes, legal));
    }
    Ok((c, legal))
}

/// Level 1: the best-scoring legal move of `color` (who should be to move).
/// Ties within [`TIE_EPSILON`] are broken by `ChaCha8Rng::seed_from_u64(seed)`.
/// Passes when no legal stone move is left, when every one only fills an own
/// eye, or when the best scores below [`PASS_THRESHOLD`]. Outside the playing
/// phase the answer is a pass with [`PassReason::NotInPlay`], which the
/// caller must not play.
pub fn choose(game: &Game, color: Color, w: &Weights, seed: u64) -> Choice {
    let (cands, legal) = match candidates(game, color, w) {
        Ok(x) => x,
        Err((reason, legal)) => return Choice::pass(reason, legal, Level::Evaluator),
    };
    let best = cands.iter().map(|c| c.2).fold(f64::NEG_INFINITY, f64::max);
    if best < PASS_THRESHOLD {
        let mut ch = Choice::pass(PassReason::BelowThreshold, legal, Level::Evaluator);
        ch.score = Some(best);
        return ch;
    }
    let near: Vec<&Candidate> = cands.iter().filter(|c| c.2 >= best - TIE_EPSILON).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pick = near[below(&mut rng, near.len())];
    Choice {
        mv: Move::Place(pick.0),
        score: Some(pick.2),
        considered: legal,
        level: Level::Evaluator,
        fell_back: false,
        playouts: 0,
        win_rate: None,
        pass_reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::DEFAULT_WEIGHTS;
    use crate::geometry::{Axis, Geometry};
    use crate::rules::Rules;
    use proptest::prelude::*;

    fn diagram(rows: &[&str]) -> Game {
        crate::computer::features::tests::diagram(rows)
    }

    #[test]
    fn takes_the_capture() {
        let g = diagram(&[
            ".X...", //
            "XOX..", //
            "XO...", //
            ".X...", //
            ".....",
        ]);
        let p = g.geometry().index_of(3, 3, 1).unwrap();
        for seed in 0..5 {
            assert_eq!(choose(&g, Color::Black, &DEFAULT_WEIGHTS, seed).mv, Move::Place(p));
        }
    }

    #[test]
    fn saves_its_chain_in_atari() {
        let g = diagram(&[
            ".....", //
            ".OXO.", //
            "..O..", //
            ".....", //
            ".....",
        ]);
        let p = g.geometry().index_of(3, 1, 1).unwrap();
        assert_eq!(choose(&g, Color::Black, &DEFAULT_WEIGHTS, 1).mv, Move::Place(p));
    }

    #[test]
    fn same_seed_same_move_and_seeds_vary_ties() {
        let g = Game::new(Geometry::flat(9, 9).unwrap(), Rules::classic()).unwrap();
        let a = choose(&g, Color::Black, &DEFAULT_WEIGHTS, 42);
        assert_eq!(a, choose(&g, Color::Black, &DEFAULT_WEIGHTS, 42));
        // The empty board has many equal best points (3rd/4th lines): seeds differ.
        let moves: std::collections::HashSet<Move> =
            (0..20).map(|s| choose(&g, Color::Black, &DEFAULT_WEIGHTS, s).mv).collect();
        assert!(moves.len() > 3, "{moves:?}");
        assert_eq!(a.considered, 81);
    }

    #[test]
    fn passes_when_only_own_eyes_are_left() {
        // Black owns the board except two single-point eyes.
        let g = diagram(&[
            ".XXXX", //
            "XXXXX", //
            "XX.XX", //
            "XXXXX", //
            "XXXXX",
        ]);
        let c = choose(&g, Color::Black, &DEFAULT_WEIGHTS, 0);
        assert_eq!((c.mv, c.pass_reason), (Move::Pass, Some(PassReason::OnlyOwnEyes)));
        assert_eq!(c.considered, 2);
        // White has no legal move at all (both points are suicide).
        let c = choose(&g, Color::White, &DEFAULT_WEIGHTS, 0);
        assert_eq!((c.mv, c.pass_reason), (Move::Pass, Some(PassReason::NoLegalMove)));
        // 1×1×1: nothing is ever legal.
        let g = Game::new(Geometry::cube(1).unwrap(), Rules::space()).unwrap();
        assert_eq!(choose(&g, Color::Black, &DEFAULT_WEIGHTS, 0).pass_reason, Some(PassReason::NoLegalMove));
    }

    #[test]
    fn passes_when_every_move_scores_below_the_threshold() {
        // Weights that punish every liberty: each move scores at most −10/6.
        let mut w = Weights([0.0; 8]);
        w.0[Feature::Liberties.index()] = -10.0;
        let g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
        let c = choose(&g, Color::Black, &w, 3);
        assert_eq!((c.mv, c.pass_reason), (Move::Pass, Some(PassReason::BelowThreshold)));
        assert!(c.score.unwrap() < PASS_THRESHOLD);
        // The default weights find a move on the same board.
        assert!(matches!(choose(&g, Color::Black, &DEFAULT_WEIGHTS, 3).mv, Move::Place(_)));
    }

    #[test]
    fn not_in_play_is_reported() {
        let mut g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        assert_eq!(choose(&g, Color::Black, &DEFAULT_WEIGHTS, 0).pass_reason, Some(PassReason::NotInPlay));
    }

    fn arb_box() -> impl Strategy<Value = Geometry> {
        (0i64..=3, 0i64..=3, 0i64..=2).prop_map(|(x, y, z)| {
            Geometry::new(Axis::one_to(2 * x + 1), Axis::one_to(2 * y + 1), Axis::one_to(2 * z + 1)).unwrap()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Over random boxes and random positions reached by the computer's
        /// own play, every move is legal and every pass is justified.
        #[test]
        fn every_move_is_legal_and_passes_are_justified(geom in arb_box(), seed in any::<u64>(), ko in 0usize..3) {
            let mut rules = Rules::space();
            rules.ko = [crate::KoRule::Immediate, crate::KoRule::PositionalSuperko, crate::KoRule::Korean][ko];
            let mut g = Game::new(geom, rules).unwrap();
            let limit = 2 * g.geometry().len() + 4;
            for i in 0..limit {
                if g.phase() != Phase::Playing {
                    break;
                }
                let c = g.to_move();
                let ch = choose(&g, c, &DEFAULT_WEIGHTS, seed.wrapping_add(i as u64));
                match ch.mv {
                    Move::Place(_) => prop_assert!(g.is_legal(c, ch.mv)),
                    Move::Pass => {
                        let legal = g.legal_points(c);
                        let non_eye: Vec<_> = legal.iter().filter(|&&p| !g.board().is_single_point_eye(p, c)).collect();
                        match ch.pass_reason {
                            Some(PassReason::NoLegalMove) => prop_assert!(legal.is_empty()),
                            Some(PassReason::OnlyOwnEyes) => prop_assert!(non_eye.is_empty() && !legal.is_empty()),
                            Some(PassReason::BelowThreshold) => prop_assert!(ch.score.unwrap() < PASS_THRESHOLD),
                            other => prop_assert!(false, "unexpected pass reason {:?}", other),
                        }
                    }
                }
                g.play(c, ch.mv).unwrap();
            }
        }
    }
}
