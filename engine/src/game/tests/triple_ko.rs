//! Three kos (삼패) under superko and Korean rules, and a handicap record's replay.

use super::*;

/// Three kos (삼패). Ko 1 and ko 3: White stones capturable by Black at
/// (3,2) and (8,2); ko 2: a Black stone capturable by White at (6,7).
const TRIPLE_KO: &str = "
    . . . . . . . . . . .
    . . X O . . . X O . .
    . X O . O . X O . O .
    . . X O . . . X O . .
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . O X . . . .
    . . . . O X . X . . .
    . . . . . O X . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .";

/// Six captures that return to the starting arrangement with Black to move.
fn triple_ko_cycle(g: &mut Game) -> Result<(), IllegalMove> {
    place(g, Color::Black, 3, 2)?; // ko 1
    place(g, Color::White, 6, 7)?; // ko 2
    place(g, Color::Black, 8, 2)?; // ko 3
    place(g, Color::White, 2, 2)?; // ko 1 back
    place(g, Color::Black, 5, 7)?; // ko 2 back
    place(g, Color::White, 7, 2)?; // ko 3 back → start arrangement
    Ok(())
}

#[test]
fn triple_ko_superko_rejects_the_cycle_000_s10() {
    // 000 §10: positionalSuperko — in a triple-ko cycle the move recreating
    // an earlier arrangement is refused (000 §5.3).
    let mut g = game_from(TRIPLE_KO, Rules::classic());
    let e = triple_ko_cycle(&mut g).unwrap_err();
    assert_eq!(e.kind(), IllegalKind::Superko);
    assert_eq!(e.point(), Some(at(&g, 7, 2)));
    assert_eq!(g.move_number(), 5);
    // The Space immediate rule allows the cycle (003 §2.3: older arrangements may recur).
    let mut s = game_from(TRIPLE_KO, Rules::space());
    let start = s.hash();
    triple_ko_cycle(&mut s).unwrap();
    triple_ko_cycle(&mut s).unwrap();
    assert_eq!(s.hash(), start);
    assert_eq!(s.phase(), Phase::Playing);
}

#[test]
fn triple_ko_korean_draw_on_third_occurrence_000_s10() {
    // 000 §10 / §5.3 korean: the third occurrence of the same arrangement
    // with the same player to move ends the game as a draw by repetition.
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = game_from(TRIPLE_KO, r);
    triple_ko_cycle(&mut g).unwrap();
    assert_eq!(g.phase(), Phase::Playing, "second occurrence");
    triple_ko_cycle(&mut g).unwrap();
    assert!(g.is_over(), "third occurrence");
    assert_eq!(g.result(), Some(GameResult::repetition()));
    assert_eq!(g.move_number(), 12);
}

#[test]
fn handicap_record_with_cleared_point_replays() {
    let mut g = Game::new(Geometry::flat(9, 9).unwrap(), Rules::classic_handicap(3)).unwrap();
    let hp = handicap_points(g.geometry(), 3).unwrap();
    g.set_stone(hp[0], None).unwrap();
    g.set_stone(at(&g, 0, 0), Some(Color::White)).unwrap();
    g.play(Color::White, Move::Place(at(&g, 4, 4))).unwrap();
    let back = crate::game::record::replay_json(&g.record().to_json()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.stone_at(hp[0]), None);
}
