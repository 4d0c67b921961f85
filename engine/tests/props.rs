//! Property tests: stone conservation with captures; no chain without
//! liberties after a legal move; replaying a record equals the incremental
//! state; play then undo restores the state apart from the 003 §5.3
//! restriction; incremental hash equals recomputed hash.

use engine::{replay_json, Color, Game, Geometry, KoRule, Move, Point, Rules};
use proptest::prelude::*;

fn geometry(k: u8) -> Geometry {
    match k % 5 {
        0 => Geometry::flat(5, 5),
        1 => Geometry::flat(7, 7),
        2 => Geometry::cube(3),
        3 => Geometry::new(engine::Axis::new(-2, 2), engine::Axis::new(0, 2), engine::Axis::new(7, 9)),
        _ => Geometry::flat(9, 9),
    }
    .unwrap()
}

fn rules(k: u8) -> Rules {
    let mut r = Rules::space();
    r.ko = match k % 3 {
        0 => KoRule::Immediate,
        1 => KoRule::PositionalSuperko,
        _ => KoRule::Korean,
    };
    r
}

/// A random action: mostly stone moves at a random index, some passes, some undos.
#[derive(Clone, Debug)]
enum Act {
    Place(u16),
    Pass,
    Undo,
}

fn acts() -> impl Strategy<Value = Vec<Act>> {
    prop::collection::vec(
        prop_oneof![
            20 => any::<u16>().prop_map(Act::Place),
            1 => Just(Act::Pass),
            1 => Just(Act::Undo),
        ],
        0..160,
    )
}

/// Apply an action; stone indices are reduced modulo the board size, and a
/// pass that would end play is replaced by nothing so games keep going.
fn step(g: &mut Game, a: &Act) {
    let n = g.geometry().len() as u16;
    let c = g.to_move();
    match *a {
        Act::Place(i) => {
            let p = Point(i % n);
            let before_me = g.board().stone_count(c);
            let before_opp = g.board().stone_count(c.opponent());
            let caps_before = g.captures(c);
            match g.play(c, Move::Place(p)) {
                Ok(out) => {
                    // Stone conservation with captures.
                    assert_eq!(g.board().stone_count(c), before_me + 1);
                    assert_eq!(g.board().stone_count(c.opponent()) + out.captured.len() as u32, before_opp);
                    assert_eq!(g.captures(c), caps_before + out.captured.len() as u32);
                    for q in out.captured {
                        assert_eq!(g.stone_at(q), None);
                    }
                    assert_eq!(g.stone_at(p), Some(c));
                }
                Err(e) => {
                    // A refused move changes nothing but the log.
                    assert_eq!(g.board().stone_count(c), before_me);
                    assert_eq!(g.illegal_reason(c, p), Some(e));
                }
            }
        }
        Act::Pass => {
            if g.consecutive_passes() == 0 {
                g.play(c, Move::Pass).unwrap();
            }
        }
        Act::Undo => {
            let _ = g.undo();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn board_invariants_hold_after_every_action(k in any::<u8>(), acts in acts()) {
        let mut g = Game::new(geometry(k), rules(k)).unwrap();
        for a in &acts {
            step(&mut g, a);
            // No chain without liberties; incremental chains/liberties/hash equal a rebuild.
            prop_assert!(g.board().check_consistency().is_ok(), "{:?}", g.board().check_consistency());
            prop_assert_eq!(g.board().hash(), g.board().recompute_hash());
            if g.is_over() { break; }
        }
    }

    #[test]
    fn replaying_the_record_equals_the_incremental_state(k in any::<u8>(), acts in acts()) {
        let mut g = Game::new(geometry(k), rules(k)).unwrap();
        for a in &acts {
            step(&mut g, a);
            if g.is_over() { break; }
        }
        let json = g.record().to_json();
        let back = replay_json(&json).unwrap();
        prop_assert!(back == g);
        prop_assert_eq!(back.record(), g.record());
    }

    #[test]
    fn play_then_undo_restores_the_state(k in any::<u8>(), acts in acts(), probe in any::<u16>()) {
        let mut g = Game::new(geometry(k), rules(k)).unwrap();
        for a in &acts {
            step(&mut g, a);
            if g.is_over() { break; }
        }
        prop_assume!(!g.is_over() && g.phase() == engine::Phase::Playing);
        let c = g.to_move();
        let legal = g.legal_points(c);
        prop_assume!(!legal.is_empty());
        let p = legal[probe as usize % legal.len()];
        let before = g.clone();
        g.play(c, Move::Place(p)).unwrap();
        let u = g.undo().unwrap();
        prop_assert_eq!(u.point, p);
        prop_assert!(g.board() == before.board());
        prop_assert_eq!(g.to_move(), before.to_move());
        prop_assert_eq!(g.captures(Color::Black), before.captures(Color::Black));
        prop_assert_eq!(g.captures(Color::White), before.captures(Color::White));
        prop_assert_eq!(g.move_number(), before.move_number());
        prop_assert_eq!(g.hash(), before.hash());
        prop_assert_eq!(g.moves(), before.moves());
        // Apart from the restriction (003 §5.3), legality is unchanged.
        prop_assert!(g.undo_restriction_active());
        prop_assert_eq!(g.illegal_reason(c, p).map(|e| e.kind()), Some(engine::IllegalKind::UndoRepetition));
        let other = |g: &Game| -> Vec<(Point, engine::IllegalKind)> {
            g.illegal_points(c)
                .into_iter()
                .map(|(q, e)| (q, e.kind()))
                .filter(|&(_, k)| k != engine::IllegalKind::UndoRepetition)
                .collect()
        };
        prop_assert_eq!(other(&g), other(&before));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// 000 §5.5 (b) is one-sided: when a chain is suggested as shut inside
    /// the opponent's area, no opposing chain in contact with it is
    /// suggested for the same reason; every suggestion is a whole chain
    /// (003 §3.4) of the colour it names.
    #[test]
    fn dead_suggestions_are_whole_chains_and_one_sided(k in any::<u8>(), acts in acts()) {
        let mut g = Game::new(geometry(k), rules(k)).unwrap();
        for a in &acts {
            step(&mut g, a);
            if g.is_over() { break; }
        }
        let b = g.board();
        let geo = g.geometry();
        let d = engine::dead_stone_candidates(b);
        let mut enclosed = vec![false; geo.len()];
        for c in &d {
            let mut chain = b.chain_stones(c.stones[0]);
            chain.sort_unstable();
            prop_assert_eq!(&chain, &c.stones);
            prop_assert!(c.stones.iter().all(|&p| b.stone_at(p) == Some(c.color)));
            if c.reason == engine::DeadReason::EnclosedWithoutTwoEyes {
                for &p in &c.stones { enclosed[p.index()] = true; }
            }
        }
        for c in d.iter().filter(|c| c.reason == engine::DeadReason::EnclosedWithoutTwoEyes) {
            for &p in &c.stones {
                for &q in geo.neighbours(p) {
                    prop_assert!(!(b.stone_at(q) == Some(c.color.opponent()) && enclosed[q.index()]),
                        "both sides of a boundary suggested dead:\n{}", b.to_ascii());
                }
            }
        }
    }
}
