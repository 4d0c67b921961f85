use super::*;
use crate::board::Board;
use crate::game::scoring::{score_board, ScoringMarks};
use crate::game::tests::{at, game_from};
use crate::geometry::Geometry;
use crate::rules::Rules;
use crate::rules::ScoringMethod;
use std::sync::Arc;

/// A 5×5×3 box filled with Black except the given empty offsets.
fn black_box_except(empty: &[(usize, usize, usize)]) -> Board {
    let g = Arc::new(
        Geometry::cube(5)
            .and_then(|_| {
                Geometry::new(
                    crate::geometry::Axis::one_to(5),
                    crate::geometry::Axis::one_to(5),
                    crate::geometry::Axis::one_to(3),
                )
            })
            .unwrap(),
    );
    let mut b = Board::new(g.clone());
    let changes: Vec<_> =
        g.points().filter(|&p| !empty.contains(&g.offsets_of(p).unwrap())).map(|p| (p, Some(Color::Black))).collect();
    assert!(b.set_cells(&changes));
    b
}

#[test]
fn two_spaces_of_3_and_5_are_two_eyes_and_8_points_003_s3_10() {
    // 003 §3.10: two independent spaces of 3 and 5 empty points of the same
    // group: two candidate eyes, 8 points. One on a surface edge, one inside.
    let b = black_box_except(&[(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 1), (1, 2, 1), (2, 2, 1), (3, 2, 1), (4, 2, 1)]);
    let an = Analysis::new(&b);
    assert_eq!(an.chains.len(), 1, "one group connected across surfaces and interior (003 §3.2)");
    let s = an.life_spaces(0);
    assert_eq!(s.spaces.len(), 2);
    let mut counts: Vec<usize> = s.spaces.iter().map(|x| x.count).collect();
    counts.sort();
    assert_eq!(counts, vec![3, 5]);
    assert_eq!(s.total_points, 8);
    // As territory (once life is settled) every point counts once (003 §3.9).
    let st = score_board(&b, &Rules::space(), [0, 0], &ScoringMarks::default(), ScoringMethod::Space).unwrap();
    assert_eq!(st.black.territory, 8);
}

#[test]
fn eight_points_joined_by_an_interior_passage_are_one_eye_003_s3_10() {
    // 003 §3.10 / §3.1: two apparent surface eyes (0,0,0) and (2,0,0) joined
    // through the interior form a single space of 8 points.
    let b = black_box_except(&[(0, 0, 0), (2, 0, 0), (0, 0, 1), (1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1), (4, 1, 1)]);
    let an = Analysis::new(&b);
    assert_eq!(an.chains.len(), 1);
    let s = an.life_spaces(0);
    assert_eq!(s.spaces.len(), 1);
    assert_eq!(s.total_points, 8);
    // Until life is settled the 8 points are not automatically territory:
    // kept unresolved, they are neutral (003 §3.10, §3.7).
    let p = b.geometry().point_from_offsets(1, 1, 1).unwrap();
    let marks = ScoringMarks { unresolved: vec![p], ..Default::default() };
    let st = score_board(&b, &Rules::space(), [0, 0], &marks, ScoringMethod::Space).unwrap();
    assert_eq!(st.black.territory, 0);
    assert_eq!(st.neutral.unresolved, 8);
}

#[test]
fn separate_chains_never_pool_spaces_003_s3_2() {
    // 003 §3.2 / §9.2: spaces of separate chains are not combined; a point
    // bordered by several chains is nobody's life space.
    let g = game_from(
        "
        . X . X .
        X X . X X
        . . . . .
        . X . . .
        X . X . .",
        Rules::space(),
    );
    let an = Analysis::new(g.board());
    let a = an.chain_at(at(&g, 1, 0)).unwrap();
    let b = an.chain_at(at(&g, 3, 0)).unwrap();
    assert_ne!(a, b);
    assert_eq!(an.life_spaces(a).spaces.iter().map(|s| s.points.clone()).collect::<Vec<_>>(), vec![vec![at(&g, 0, 0)]]);
    assert_eq!(an.life_spaces(b).spaces.iter().map(|s| s.points.clone()).collect::<Vec<_>>(), vec![vec![at(&g, 4, 0)]]);
    // (1,4) is enclosed by three separate black stones: a candidate of none.
    for c in
        [an.chain_at(at(&g, 1, 3)).unwrap(), an.chain_at(at(&g, 0, 4)).unwrap(), an.chain_at(at(&g, 2, 4)).unwrap()]
    {
        assert!(an.life_spaces(c).spaces.iter().all(|s| !s.points.contains(&at(&g, 1, 4))));
    }
    let e = an.empty_at(at(&g, 1, 4)).unwrap();
    assert_eq!(an.empty[e].bordering_chains.len(), 3);
    assert!(an.empty[e].touches_black && !an.empty[e].touches_white);
}

const INNER_OUTER: &str = "
    . . . . . . . . . . .
    . X X X X X X X X X .
    . X . . . . . . . X .
    . X . O O O O O . X .
    . X . O . O . O . X .
    . X . O O O O O . X .
    . X . . . . . . . X .
    . X X X X X X X X X .
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .";

#[test]
fn inner_group_is_judged_on_its_own_003_s3_11() {
    // 003 §3.11 / §3.8: the inner White group has two candidate eyes of one
    // point each; the space between the groups belongs to no candidate list.
    let g = game_from(INNER_OUTER, Rules::space());
    let an = Analysis::new(g.board());
    let w = an.chain_at(at(&g, 3, 3)).unwrap();
    let ws = an.life_spaces(w);
    assert_eq!((ws.color, ws.spaces.len(), ws.total_points), (Color::White, 2, 2));
    let b = an.chain_at(at(&g, 1, 1)).unwrap();
    let bs = an.life_spaces(b);
    assert_eq!(bs.spaces.len(), 1, "only the outside area is enclosed by Black alone");
    assert!(bs.spaces.iter().all(|s| !s.points.contains(&at(&g, 2, 2))));
    // Suggestions: the two-eyed inner group is not suggested dead.
    assert!(dead_stone_candidates(g.board()).is_empty());
}

#[test]
fn dead_stone_candidates_000_s5_5() {
    // (b) an eyeless White group shut inside Black's enclosure.
    let filled = INNER_OUTER.replacen(". X . O . O . O . X .", ". X . O O O O O . X .", 1);
    let g = game_from(&filled, Rules::space());
    let d = dead_stone_candidates(g.board());
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].color, d[0].reason, d[0].stones.len()), (Color::White, DeadReason::EnclosedWithoutTwoEyes, 15));
    // (a) a stone in atari that can be captured without a recapture.
    let g = game_from(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let d = dead_stone_candidates(g.board());
    assert_eq!(
        d,
        vec![DeadCandidate { color: Color::White, stones: vec![at(&g, 2, 2)], reason: DeadReason::Capturable }]
    );
    // A ko stone can be retaken at once, so it is not suggested.
    let g = game_from(
        "
        . . . . . . .
        . . X O . . .
        . X O . O . .
        . . X O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        Rules::space(),
    );
    assert!(dead_stone_candidates(g.board()).iter().all(|d| !d.stones.contains(&at(&g, 2, 2))));
}

#[test]
fn seki_candidates_000_s5_6() {
    // 000 §5.6 heuristic: region (0,0) enclosed by Black alone; the Black
    // chain's only outside liberty (2,0) is also a liberty of a living White chain.
    let g = game_from(
        "
        . X . O .
        X X O O .
        O O O . .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let s = seki_candidates(g.board());
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].color, Color::Black);
    assert_eq!(s[0].region, vec![at(&g, 0, 0)]);
    assert_eq!(s[0].shared_liberties, vec![at(&g, 2, 0)]);
    // A group with two eyes is never a seki candidate.
    let g = game_from(INNER_OUTER, Rules::space());
    assert!(seki_candidates(g.board()).iter().all(|c| c.color != Color::White));
}

#[test]
fn chains_and_liberties_listing() {
    let g = game_from(
        "
        X X . . .
        . O . . .
        . . . . .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let an = Analysis::new(g.board());
    assert_eq!(an.chains.len(), 2);
    let b = &an.chains[an.chain_at(at(&g, 0, 0)).unwrap()];
    assert_eq!(b.stones, vec![at(&g, 0, 0), at(&g, 1, 0)]);
    assert_eq!(b.liberties, vec![at(&g, 2, 0), at(&g, 0, 1)]);
    assert_eq!(an.empty.len(), 1);
    assert_eq!(an.empty[0].points.len(), 22);
}

#[test]
fn wall_repro_dead_stone_behind_a_black_wall_000_s5_5() {
    // Regression: 5×5, Black C1–C5, White A3 (coordinates A1 = bottom-left).
    // The white stone is shut inside the area A–B bounded only by Black and
    // has no eye there: (b) suggests it; the black wall is never suggested.
    let g = game_from(
        "
        . . X . .
        . . X . .
        O . X . .
        . . X . .
        . . X . .",
        Rules::classic(),
    );
    let d = dead_stone_candidates(g.board());
    assert_eq!(
        d,
        vec![DeadCandidate {
            color: Color::White,
            stones: vec![at(&g, 0, 2)],
            reason: DeadReason::EnclosedWithoutTwoEyes
        }]
    );
}

#[test]
fn enclosure_larger_than_half_the_board_still_suggests_000_s5_5() {
    // The wall on column B leaves White a 15-point area (C–E) — more than
    // half of the 25-point board. The old "region under half the board"
    // cut-off hid this; the region is still smaller than Black's (24), so
    // White is the enclosed side.
    let g = game_from(
        "
        . X . . .
        . X . . .
        . X . O .
        . X . . .
        . X . . .",
        Rules::classic(),
    );
    let d = dead_stone_candidates(g.board());
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].color, d[0].stones.clone()), (Color::White, vec![at(&g, 3, 2)]));
}

#[test]
fn facing_walls_are_not_suggested_000_s5_5() {
    // Two walls with one eye-space each and dame between: neither side is
    // shut inside the other's area (equal regions, equal eyes).
    let g = game_from(
        "
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .",
        Rules::classic(),
    );
    assert!(dead_stone_candidates(g.board()).is_empty());
    // A single stone each on an open board: nobody is enclosed.
    let g = game_from(
        "
        . . . . .
        . X . . .
        . . . . .
        . . . O .
        . . . . .",
        Rules::classic(),
    );
    assert!(dead_stone_candidates(g.board()).is_empty());
}

#[test]
fn dead_chains_in_3d_enclosure_and_same_region_share_the_verdict_000_s5_5() {
    // 3×3×5 box: Black fills the layer z = 2, with the layer z = 1 behind
    // it as its own space; two separate White stones lie in the region
    // z = 3..5 that Black's wall closes off. White's region (27 points) is
    // smaller than Black's (43) and Black's reaches space behind the wall;
    // White has no eye there: both white stones are suggested, Black is not.
    let geo = Arc::new(
        Geometry::new(
            crate::geometry::Axis::one_to(3),
            crate::geometry::Axis::one_to(3),
            crate::geometry::Axis::one_to(5),
        )
        .unwrap(),
    );
    let mut b = Board::new(geo.clone());
    let mut ch = Vec::new();
    for p in geo.points() {
        let (_, _, z) = geo.offsets_of(p).unwrap();
        if z == 1 {
            ch.push((p, Some(Color::Black)));
        }
    }
    let w1 = geo.point_from_offsets(0, 0, 4).unwrap();
    let w2 = geo.point_from_offsets(2, 2, 3).unwrap();
    ch.push((w1, Some(Color::White)));
    ch.push((w2, Some(Color::White)));
    assert!(b.set_cells(&ch));
    let d = dead_stone_candidates(&b);
    let mut dead: Vec<Point> = d.iter().flat_map(|c| c.stones.clone()).collect();
    dead.sort_unstable();
    let mut want = vec![w1, w2];
    want.sort_unstable();
    assert_eq!(dead, want);
    assert!(d.iter().all(|c| c.color == Color::White && c.reason == DeadReason::EnclosedWithoutTwoEyes));

    // Without the space behind the wall (Black fills the face z = 1 of a
    // 3×3×3 box) Black's wall closes nothing off: no suggestion either way.
    let cube = Arc::new(Geometry::cube(3).unwrap());
    let mut b = Board::new(cube.clone());
    let mut ch: Vec<_> =
        cube.points().filter(|&p| cube.offsets_of(p).unwrap().2 == 0).map(|p| (p, Some(Color::Black))).collect();
    ch.push((cube.point_from_offsets(0, 0, 2).unwrap(), Some(Color::White)));
    assert!(b.set_cells(&ch));
    assert!(dead_stone_candidates(&b).is_empty());
}

#[test]
fn open_board_stones_are_never_shut_in_000_s5_5() {
    // Opening-like positions: more stones of one colour do not make the
    // other colour's stones "enclosed" — Black's regions hold no empty
    // point outside White's region, so no wall separates anything.
    let g = game_from(
        "
        . . . . . . .
        . X . . . . .
        . . . . . X .
        . . . O . . .
        . . . . . . .
        . X . . . . .
        . . . . . . .",
        Rules::classic(),
    );
    assert!(dead_stone_candidates(g.board()).is_empty());
}
