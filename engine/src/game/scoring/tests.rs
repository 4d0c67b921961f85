use super::*;
use crate::board::Board;
use crate::game::tests::{at, game_from};
use crate::geometry::Geometry;
use crate::labels::parse_classic_vertex;
use crate::rules::{Komi, Rules};
use std::sync::Arc;

/// 000 §6.4: Black holds column E, White column F, a dead White stone at B5.
const EXAMPLE_6_4: &str = "
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .";

#[test]
fn example_000_s6_4_territory_39_to_36_5() {
    // 000 §6.4 territory, komi 6.5: 흑 = 36 (B5 포함) + 2 + 1 = 39, 백 = 27 + 3 + 6.5 = 36.5.
    let g = game_from(EXAMPLE_6_4, Rules::classic());
    let b5 = parse_classic_vertex(g.geometry(), "B5").unwrap();
    assert_eq!(b5, at(&g, 1, 4));
    let marks = ScoringMarks { dead: vec![b5], ..Default::default() };
    let st = score_board(g.board(), g.rules(), [2, 3], &marks, ScoringMethod::Territory).unwrap();
    assert_eq!(st.black.territory, 36);
    assert_eq!(st.black.bonus, 3);
    assert_eq!(st.black.total, HalfPoints(78));
    assert_eq!(st.white.territory, 27);
    assert_eq!(st.white.total, HalfPoints(73));
    assert_eq!(st.margin.to_string(), "2.5");
    assert_eq!(st.result, GameResult::Score { winner: Color::Black, margin_half: 5, method: ScoringMethod::Territory });
    assert_eq!(st.gtp_result(), "B+2.5");
    assert_eq!(st.dead_stones, vec![b5]);
    assert_eq!(st.ownership[b5.index()], PointClass::BlackTerritory);
}

#[test]
fn example_000_s6_4_area_45_to_43_5() {
    // 000 §6.4 area, komi 7.5: 흑 = 9 + 36 = 45, 백 = 9 + 27 + 7.5 = 43.5.
    let g = game_from(EXAMPLE_6_4, Rules::classic_area());
    let marks = ScoringMarks { dead: vec![at(&g, 1, 4)], ..Default::default() };
    let st = score_board(g.board(), g.rules(), [2, 3], &marks, ScoringMethod::Area).unwrap();
    assert_eq!((st.black.stones, st.black.territory, st.black.bonus), (9, 36, 0));
    assert_eq!(st.black.total.to_string(), "45");
    assert_eq!(st.white.total.to_string(), "43.5");
    assert_eq!(st.result, GameResult::Score { winner: Color::Black, margin_half: 3, method: ScoringMethod::Area });
    let json = serde_json::to_string(&st).unwrap();
    assert!(json.contains("\"total\":43.5"), "{json}");
}

#[test]
fn space_formula_with_capture_bonus_003_s4_1() {
    // 003 §4.1: stones + territory, +1 to the opponent per captured or dead
    // stone when agreed, komi to the agreed recipient; equal totals draw.
    let g = game_from(EXAMPLE_6_4, Rules::space());
    let marks = ScoringMarks { dead: vec![at(&g, 1, 4)], ..Default::default() };
    let mut rules = Rules::space();
    let st = score_board(g.board(), &rules, [2, 3], &marks, ScoringMethod::Space).unwrap();
    assert_eq!((st.black.total.0, st.white.total.0), (90, 72)); // 45 : 36, no bonus
    rules.capture_bonus = true;
    rules.komi = Komi::parse("12").unwrap();
    let st = score_board(g.board(), &rules, [2, 3], &marks, ScoringMethod::Space).unwrap();
    // Black: 9 + 36 + 2 captured + 1 dead = 48; White: 9 + 27 + 3 + 12 = 51.
    assert_eq!((st.black.total.0, st.white.total.0), (96, 102));
    rules.komi = Komi::parse("9").unwrap();
    let st = score_board(g.board(), &rules, [2, 3], &marks, ScoringMethod::Space).unwrap();
    assert_eq!(st.result, GameResult::Jigo { method: ScoringMethod::Space });
    assert!(st.result.is_draw());
    // Komi to Black.
    rules.komi_to = Color::Black;
    let st = score_board(g.board(), &rules, [2, 3], &marks, ScoringMethod::Space).unwrap();
    assert_eq!(st.black.komi.0, 18);
    assert_eq!(st.white.komi.0, 0);
}

/// 003 §3.11: a White group with two eyes inside a large Black enclosure.
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
fn inner_group_territory_is_its_own_003_s3_11() {
    // 003 §3.11 / §3.8: White's two eyes are White territory; the space
    // between Black and White is not Black territory (it touches both, 003 §4.2).
    let g = game_from(INNER_OUTER, Rules::space());
    let st = score(&g, &ScoringMarks::default()).unwrap();
    assert_eq!(st.white.territory, 2);
    assert_eq!(st.white.stones, 13);
    assert_eq!(st.black.stones, 28);
    assert_eq!(st.black.territory, 58);
    assert_eq!(st.neutral, NeutralCounts { unresolved: 0, seki: 0, general: 20 });
    assert_eq!(st.ownership[at(&g, 4, 4).index()], PointClass::WhiteTerritory);
    assert_eq!(st.ownership[at(&g, 2, 2).index()], PointClass::NeutralGeneral);
    assert_eq!(st.black.total.0, 2 * 86);
    assert_eq!(st.white.total.0, 2 * 15);
    // Every point is classified exactly once.
    let n = st.black.stones + st.white.stones + st.black.territory + st.white.territory + st.neutral.general;
    assert_eq!(n as usize, g.geometry().len());
}

#[test]
fn unresolved_chains_neutralise_what_they_touch_003_s3_7() {
    // 003 §3.7: unresolved stones count as stones; every connected empty
    // component touching them is neutral. 003 §9.5: unresolved first, then seki, each point once.
    let g = game_from(INNER_OUTER, Rules::space());
    let marks = ScoringMarks { unresolved: vec![at(&g, 3, 3)], seki: vec![at(&g, 4, 4)], ..Default::default() };
    let st = score(&g, &marks).unwrap();
    assert_eq!(st.white.stones, 13);
    assert_eq!(st.white.territory, 0);
    assert_eq!(st.neutral, NeutralCounts { unresolved: 22, seki: 0, general: 0 });
    assert_eq!(st.unresolved_stones.len(), 13);
    assert_eq!(st.ownership[at(&g, 4, 4).index()], PointClass::NeutralUnresolved);
    assert_eq!(st.black.territory, 58);
}

#[test]
fn dead_inner_group_makes_black_territory() {
    let g = game_from(INNER_OUTER, Rules::space());
    let marks = ScoringMarks { dead: vec![at(&g, 5, 5)], ..Default::default() };
    let st = score(&g, &marks).unwrap();
    assert_eq!(st.black.territory, 58 + 35);
    assert_eq!(st.black.dead_captured, 13);
    assert_eq!(st.black.bonus, 0, "bonus off in the Space preset");
    assert_eq!(st.dead_stones.len(), 13);
    // Conflicting and invalid marks are typed errors.
    let bad = ScoringMarks { dead: vec![at(&g, 5, 5)], unresolved: vec![at(&g, 3, 3)], ..Default::default() };
    assert_eq!(score(&g, &bad), Err(ScoringError::Conflict { point: at(&g, 3, 3) }));
    let bad = ScoringMarks { dead: vec![at(&g, 0, 0)], ..Default::default() };
    assert_eq!(score(&g, &bad), Err(ScoringError::NotAStone { point: at(&g, 0, 0) }));
    let bad = ScoringMarks { seki: vec![at(&g, 1, 1)], ..Default::default() };
    assert_eq!(score(&g, &bad), Err(ScoringError::SekiOnStone { point: at(&g, 1, 1) }));
    let bad = ScoringMarks { seki: vec![Point(5000)], ..Default::default() };
    assert_eq!(score(&g, &bad), Err(ScoringError::OffBoard { index: 5000 }));
}

/// A seki: the Black and White chains in the corner share the liberties
/// (2,0) and (0,2); Black's eye (0,0) is enclosed by Black alone.
const SEKI: &str = "
    . X . O .
    X X O O .
    . O O . .
    O O . . .
    . . . . .";

#[test]
fn seki_eyes_territory_vs_area_000_s10() {
    // 000 §10 빅 영역: territory에서 빅 안 눈이 집으로 안 세어지고, area에서 세어짐 (000 §5.6).
    // 003 §3.3: shared seki space is neutral.
    let g = game_from(SEKI, Rules::classic());
    let marks = ScoringMarks { seki: vec![at(&g, 0, 0), at(&g, 2, 0)], ..Default::default() };
    let t = score_with(&g, &marks, ScoringMethod::Territory).unwrap();
    assert_eq!(t.ownership[at(&g, 0, 0).index()], PointClass::NeutralSeki);
    assert_eq!(t.ownership[at(&g, 2, 0).index()], PointClass::NeutralSeki);
    assert_eq!(t.black.territory, 0);
    assert_eq!(t.neutral.seki, 2);
    let a = score_with(&g, &marks, ScoringMethod::Area).unwrap();
    assert_eq!(a.ownership[at(&g, 0, 0).index()], PointClass::BlackTerritory);
    assert_eq!(a.ownership[at(&g, 2, 0).index()], PointClass::NeutralSeki, "shared seki space stays neutral");
    assert_eq!(a.black.territory, 1);
    let s = score_with(&g, &marks, ScoringMethod::Space).unwrap();
    assert_eq!(s.black.territory, 1, "003 §3.3: an eye enclosed by one side only is its territory");
}

#[test]
fn simple_area_score_for_gtp() {
    let g = game_from(EXAMPLE_6_4, Rules::space());
    // Every stone alive: the White stone at B5 makes the left side neutral.
    let st = score_simple_area(&g);
    assert_eq!(st.black.territory, 0);
    assert_eq!(st.white.territory, 27);
    assert_eq!(st.white.stones, 10);
    assert_eq!(st.gtp_result(), "W+28");
    let empty = Game::new(Geometry::flat(9, 9).unwrap(), Rules::space()).unwrap();
    assert_eq!(score_simple_area(&empty).gtp_result(), "0");
    // score_simple follows the game's method: Classic is territory, so
    // stones do not count — White 27 points + 6.5 komi, Black nothing.
    let c = game_from(EXAMPLE_6_4, Rules::classic());
    let st = score_simple(&c);
    assert_eq!((st.method, st.stones_counted), (ScoringMethod::Territory, false));
    assert_eq!((st.black.total, st.white.total), (HalfPoints(0), HalfPoints(67)));
    assert_eq!(st.gtp_result(), "W+33.5");
    // The Space preset counts like area here (no handicap, no capture bonus).
    let sp = score_simple(&g);
    assert_eq!((sp.method, sp.gtp_result().as_str()), (ScoringMethod::Space, "W+28"));
}

#[test]
fn full_25_cubed_board_scores() {
    // 25³ board with a checkerboard-like pattern of stones (no chain without liberties).
    let geom = Arc::new(Geometry::cube(25).unwrap());
    let mut b = Board::new(geom.clone());
    let mut changes = Vec::new();
    for p in geom.points() {
        let (x, y, z) = geom.offsets_of(p).unwrap();
        if (x + y + z) % 3 == 0 {
            changes.push((p, Some(if x % 2 == 0 { Color::Black } else { Color::White })));
        }
    }
    assert!(b.set_cells(&changes));
    let st = score_board(&b, &Rules::space(), [0, 0], &ScoringMarks::default(), ScoringMethod::Space).unwrap();
    let total = st.black.stones
        + st.white.stones
        + st.black.territory
        + st.white.territory
        + st.neutral.general
        + st.neutral.seki
        + st.neutral.unresolved;
    assert_eq!(total as usize, 15_625);
}

/// 003 §4.2: a region that touches only Black but is ruled not safe from invasion counts
/// for nobody; the rest of the board is unchanged.
#[test]
fn region_ruled_neutral_is_no_territory_003_s4_2() {
    let g = game_from(EXAMPLE_6_4, Rules::classic());
    let b5 = at(&g, 1, 4);
    let dead = ScoringMarks { dead: vec![b5], ..Default::default() };
    let plain = score_board(g.board(), g.rules(), [0, 0], &dead, ScoringMethod::Territory).unwrap();
    assert_eq!(plain.black.territory, 36);
    let marks = ScoringMarks { dead: vec![b5], neutral: vec![at(&g, 0, 0)], ..Default::default() };
    let st = score_board(g.board(), g.rules(), [0, 0], &marks, ScoringMethod::Territory).unwrap();
    assert_eq!(st.black.territory, 0);
    assert_eq!(st.neutral.general, plain.neutral.general + 36);
    assert_eq!(st.ownership[b5.index()], PointClass::NeutralGeneral);
    // White's side and the dead stone's capture did not move.
    assert_eq!(st.white.territory, plain.white.territory);
    assert_eq!(st.black.dead_captured, 1);
    let on_stone = ScoringMarks { neutral: vec![at(&g, 4, 0)], ..Default::default() };
    assert!(matches!(
        score_board(g.board(), g.rules(), [0, 0], &on_stone, ScoringMethod::Territory),
        Err(ScoringError::NeutralOnStone { .. })
    ));
}
