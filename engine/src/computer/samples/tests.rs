use super::*;
use crate::computer::features::{all_features, features};
use crate::game::scoring::ScoringMarks;
use crate::game::IllegalKind;
use crate::geometry::Geometry;
use crate::rules::Rules;

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
    let s = samples_from_record(&g.record(), Color::Black, &FinalPosition::of(&g), AlternativePolicy::All, 1).unwrap();
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
    let e =
        samples_from_record(&g.record(), Color::White, &FinalPosition::of(&g), AlternativePolicy::All, 1).unwrap_err();
    assert_eq!(e, SampleError::WinnerMismatch { given: Color::White, recorded: Some(Color::Black) });
}

#[test]
fn an_unfinished_record_takes_the_callers_winner() {
    // e.g. a practice ruling recorded outside the move list.
    let mut g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
    g.play(Color::Black, Move::Place(pt(&g, 3, 3))).unwrap();
    g.play(Color::White, Move::Place(pt(&g, 2, 2))).unwrap();
    g.play(Color::Black, Move::Place(pt(&g, 4, 4))).unwrap();
    let s = samples_from_record(&g.record(), Color::White, &FinalPosition::of(&g), AlternativePolicy::All, 0).unwrap();
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
