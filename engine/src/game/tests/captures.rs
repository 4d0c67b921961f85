//! Captures, suicide and the simple refusals (000 §10, 003 §2.2).

use super::*;

#[test]
fn single_capture_in_the_middle_000_s10() {
    // 000 §10: 1점 따내기. 003 §2.2.
    let mut g = game_from(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let out = place(&mut g, Color::Black, 2, 3).unwrap();
    assert_eq!(out.captured, vec![at(&g, 2, 2)]);
    assert_eq!(g.captures(Color::Black), 1);
    assert_eq!(
        ascii(&g),
        diagram(
            "
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . ."
        )
    );
    g.board().check_consistency().unwrap();
}

#[test]
fn several_chains_captured_at_once_000_s10() {
    // 000 §10: 여러 연결 동시 따내기.
    let mut g = game_from(
        "
        . X O X .
        X O . O X
        . X O X .
        . . X . .
        . . . . .",
        Rules::space(),
    );
    let out = place(&mut g, Color::Black, 2, 1).unwrap();
    assert_eq!(out.captured.len(), 4);
    assert_eq!(g.captures(Color::Black), 4);
    assert_eq!(g.board().stone_count(Color::White), 0);
    g.board().check_consistency().unwrap();
}

#[test]
fn setup_refuses_chains_without_liberties() {
    let geom = Geometry::flat(5, 5).unwrap();
    let mut g = Game::new(geom, Rules::space()).unwrap();
    let p = |g: &Game, x, y| at(g, x, y);
    let (a, b, c) = (p(&g, 0, 0), p(&g, 1, 0), p(&g, 0, 1));
    assert_eq!(
        g.set_stones(&[(a, Some(Color::White)), (b, Some(Color::Black)), (c, Some(Color::Black))]),
        Err(SetupError::NoLiberties)
    );
    assert_eq!(g.board().stone_count(Color::Black), 0);
    assert_eq!(g.set_stone(Point(999), Some(Color::Black)), Err(SetupError::OffBoard { index: 999 }));
}

#[test]
fn corner_capture_with_two_stones() {
    // 000 §10 귀에서 따내기: a corner stone has two liberties (003 §2.1).
    let mut g = game_from(
        "
        O X . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . O",
        Rules::space(),
    );
    assert_eq!(g.board().liberties(at(&g, 0, 0)), 1);
    let out = place(&mut g, Color::Black, 0, 1).unwrap();
    assert_eq!(out.captured, vec![at(&g, 0, 0)]);
    // Edge capture: a stone on the edge has three liberties.
    assert_eq!(g.board().liberties(at(&g, 4, 4)), 2);
    place(&mut g, Color::White, 2, 2).unwrap();
    place(&mut g, Color::Black, 3, 4).unwrap();
    place(&mut g, Color::White, 2, 3).unwrap();
    let out = place(&mut g, Color::Black, 4, 3).unwrap();
    assert_eq!(out.captured, vec![at(&g, 4, 4)]);
    assert_eq!(g.captures(Color::Black), 2);
}

#[test]
fn suicide_is_refused_unless_it_captures_000_s10() {
    // 000 §10 / 003 §2.2: 자충수 거부; 따내서 활로가 생기면 합법.
    let mut g = game_from(
        "
        . O . . .
        O . . . .
        . . . . .
        . . . X O
        . . . O .",
        Rules::space(),
    );
    let e = place(&mut g, Color::Black, 0, 0).unwrap_err();
    assert_eq!(e, IllegalMove::Suicide { point: at(&g, 0, 0), at: Coord::new(1, 1, 1) });
    assert_eq!(e.reason_word(), "suicide");
    assert_eq!(g.to_move(), Color::Black, "an illegal move keeps the turn (003 §2.5)");
    assert_eq!(g.move_number(), 0);
    assert!(matches!(g.log().last(), Some(Action::Illegal { reason: IllegalKind::Suicide, .. })));
    // Black at (4,4) fills its own last liberty but captures O(3,4)?? No: O(3,4) has
    // liberty (2,4); so this is plain suicide too.
    assert!(matches!(place(&mut g, Color::Black, 4, 4), Err(IllegalMove::Suicide { .. })));
    // Multi-stone suicide: black chain filling its last liberty.
    let mut g2 = game_from(
        "
        X X O . .
        . O . . .
        O . . . .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    assert!(matches!(place(&mut g2, Color::Black, 0, 1), Err(IllegalMove::Suicide { .. })));
    // Capturing makes it legal.
    let mut g3 = game_from(
        "
        . O X . .
        O X . . .
        X . . . .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let out = place(&mut g3, Color::Black, 0, 0).unwrap();
    assert_eq!(out.captured.len(), 2);
    assert_eq!(g3.board().liberties(at(&g3, 0, 0)), 2);
}

#[test]
fn occupied_off_board_not_your_turn() {
    let mut g = game_from(". . .\n. X .\n. . .", Rules::space());
    assert_eq!(
        place(&mut g, Color::Black, 1, 1).unwrap_err(),
        IllegalMove::Occupied { point: at(&g, 1, 1), at: Coord::new(2, 2, 1) }
    );
    assert_eq!(g.play(Color::Black, Move::Place(Point(9))).unwrap_err(), IllegalMove::OffBoard { index: 9 });
    assert_eq!(
        g.play(Color::White, Move::Pass).unwrap_err(),
        IllegalMove::NotYourTurn { color: Color::White, to_move: Color::Black }
    );
    assert!(g.illegal_reason(Color::White, at(&g, 0, 0)).is_none(), "queries ignore turn order");
    // Explicit colour: White may move out of turn; Black then moves.
    g.play_explicit(Color::White, Move::Place(at(&g, 0, 0))).unwrap();
    assert_eq!(g.to_move(), Color::Black);
}
