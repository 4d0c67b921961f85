//! Two passes into scoring, the last moves, undo and take-back (003 §5.3, 000 §8.2), handicap, atari warnings, 3D captures, records.

use super::*;

#[test]
fn two_passes_enter_scoring_000_s10() {
    // 000 §10: 연속 2패스 → scoring; 패스-착수-패스는 진입 안 함. 003 §2.7.
    let mut g = game_from(". . .\n. . .\n. . .", Rules::space());
    g.play(Color::Black, Move::Pass).unwrap();
    place(&mut g, Color::White, 1, 1).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Playing);
    let out = g.play(Color::White, Move::Pass).unwrap();
    assert_eq!(out.phase, Phase::Scoring);
    assert_eq!(g.move_number(), 4);
    assert_eq!(place(&mut g, Color::Black, 0, 0).unwrap_err(), IllegalMove::NotInPlay { phase: Phase::Scoring });
    assert_eq!(g.undo(), Err(UndoError::NotInPlay { phase: Phase::Scoring }), "003 §4.4: no undo during scoring");
    assert!(g.legal_points(Color::Black).is_empty());
    // 000 §5.5 step 5: resume; the requester's opponent moves first; two passes re-enter scoring.
    g.resume(Color::Black).unwrap();
    assert_eq!(g.to_move(), Color::White);
    g.play(Color::White, Move::Pass).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Scoring);
    let st = g.finish_by_score(&ScoringMarks::default()).unwrap();
    assert_eq!(st.result.winner(), Some(Color::White)); // 1 stone + 8 territory
    assert!(g.is_over());
}

/// `last_move` and `last_move_since_resumption` are what the lists' last entries are, at every
/// step: moves, passes, scoring and a resumption (after which no move is "since" yet), undo.
#[test]
fn the_last_moves_read_without_the_lists_agree_with_them() {
    let mut g = game_from(". . .\n. . .\n. . .", Rules::space());
    let check = |g: &Game, step: &str| {
        assert_eq!(g.last_move(), g.moves().last().copied(), "last move after {step}");
        assert_eq!(
            g.last_move_since_resumption(),
            g.moves_since_resumption().last().copied(),
            "last move since resumption after {step}"
        );
    };
    check(&g, "nothing");
    place(&mut g, Color::Black, 1, 1).unwrap();
    check(&g, "a stone");
    g.play(Color::White, Move::Pass).unwrap();
    check(&g, "a pass");
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Scoring);
    check(&g, "entering scoring");
    g.resume(Color::Black).unwrap();
    assert_eq!(g.last_move_since_resumption(), None, "nothing since the resumption");
    assert_eq!(g.last_move(), Some((Color::Black, Move::Pass)), "the moves before it still count");
    check(&g, "resuming");
    place(&mut g, Color::White, 0, 0).unwrap();
    check(&g, "a stone after resuming");
    g.undo().unwrap();
    check(&g, "an undo");
}

#[test]
fn undo_restores_and_restricts_003_s5_3() {
    // 003 §5.1: restore stones, captures and turn; §5.3: the undone
    // arrangement may not be recreated by the next stone move; a pass keeps
    // the restriction; a different valid stone move lifts it.
    let mut g = game_from(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let before = g.clone();
    place(&mut g, Color::Black, 2, 3).unwrap();
    assert_eq!(g.captures(Color::Black), 1);
    let u = g.undo().unwrap();
    assert_eq!(u, UndoOutcome { color: Color::Black, point: at(&g, 2, 3) });
    assert_eq!(g.board(), before.board());
    assert_eq!(g.captures(Color::Black), 0);
    assert_eq!(g.to_move(), Color::Black);
    assert!(g.undo_restriction_active());
    assert_eq!(g.move_number(), 0);
    // The undone move stays in the record.
    assert!(matches!(g.log()[0], Action::Play { .. }));
    assert!(matches!(g.log()[1], Action::Undo { color: Color::Black, .. }));
    // Recreating the arrangement is refused.
    let e = place(&mut g, Color::Black, 2, 3).unwrap_err();
    assert_eq!(e.kind(), IllegalKind::UndoRepetition);
    // A pass keeps the restriction (003 §9.1).
    g.play(Color::Black, Move::Pass).unwrap();
    assert!(g.undo_restriction_active());
    // White's different valid stone move lifts it.
    place(&mut g, Color::White, 0, 0).unwrap();
    assert!(!g.undo_restriction_active());
    assert!(g.illegal_reason(Color::Black, at(&g, 2, 3)).is_none());
    // A pass cannot be undone.
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(g.undo(), Err(UndoError::LastWasPass));
}

#[test]
fn undo_then_different_stone_move_lifts_restriction() {
    let mut g = game_from(". . .\n. . .\n. . .", Rules::space());
    place(&mut g, Color::Black, 1, 1).unwrap();
    g.undo().unwrap();
    place(&mut g, Color::Black, 0, 0).unwrap();
    assert!(!g.undo_restriction_active());
    assert_eq!(Game::new(Geometry::flat(3, 3).unwrap(), Rules::space()).unwrap().undo(), Err(UndoError::NothingToUndo));
}

#[test]
fn undo_replays_superko_history_000_s10() {
    // 000 §10: 무르기 수락 시 따낸 돌과 포로 수·슈퍼코 이력이 정확히 복원.
    let mut g = game_from(DOUBLE_KO, Rules::classic());
    place(&mut g, Color::Black, 3, 2).unwrap();
    place(&mut g, Color::White, 6, 6).unwrap();
    let snapshot = g.clone();
    place(&mut g, Color::Black, 0, 0).unwrap();
    g.undo().unwrap();
    assert_eq!(g.board(), snapshot.board());
    assert_eq!(g.captures(Color::White), snapshot.captures(Color::White));
    assert_eq!(g.legal_points(Color::White), snapshot.legal_points(Color::White));
    assert_eq!(g.hash(), snapshot.hash());
}

#[test]
fn take_back_removes_the_last_move_stone_or_pass_000_s8_2() {
    // 000 §8.2: the requester's own move, with the opponent's reply when there is one, is
    // replayed away; captures come back; a pass can be taken back; no 003 §5.3 restriction.
    let mut g = game_from(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .",
        Rules::classic(),
    );
    let before = g.clone();
    place(&mut g, Color::Black, 2, 3).unwrap(); // captures the white stone
    place(&mut g, Color::White, 4, 4).unwrap();
    assert_eq!(g.take_back(), Ok((Color::White, Move::Place(at(&g, 4, 4)))));
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.take_back(), Ok((Color::Black, Move::Place(at(&g, 2, 3)))));
    assert_eq!((g.board(), g.captures(Color::Black), g.to_move()), (before.board(), 0, Color::Black));
    assert!(!g.undo_restriction_active());
    assert!(g.illegal_reason(Color::Black, at(&g, 2, 3)).is_none(), "the same move may be played again");
    assert_eq!(g.take_back(), Err(UndoError::NothingToUndo));
    // A pass is taken back like a stone; the record names both and replays to the same game.
    place(&mut g, Color::Black, 2, 3).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    assert_eq!(g.take_back(), Ok((Color::White, Move::Pass)));
    assert_eq!((g.to_move(), g.move_number()), (Color::White, 1));
    assert!(matches!(g.log().last(), Some(Action::TakeBack { color: Color::White, at: None })));
    let replayed = g.record().replay().unwrap();
    assert_eq!(replayed.board(), g.board());
    assert_eq!(replayed.log(), g.log());
    // Nothing before a return from scoring can be taken back, and nothing in scoring.
    g.play(Color::White, Move::Pass).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(g.take_back(), Err(UndoError::NotInPlay { phase: Phase::Scoring }));
    g.resume(Color::Black).unwrap();
    assert_eq!(g.take_back(), Err(UndoError::NothingToUndo));
}

#[test]
fn handicap_placement_000_s10() {
    // 000 §10: 접바둑 N=2~9 배치가 표와 일치, 백이 먼저 둠, 덤 0.5, area에서 백 +N 보정.
    for n in 2..=9u8 {
        let g = Game::new(Geometry::flat(19, 19).unwrap(), Rules::classic_handicap(n)).unwrap();
        assert_eq!(g.board().stone_count(Color::Black), n as u32);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.rules().komi.to_string(), "0.5");
        let expect = handicap_points(g.geometry(), n).unwrap();
        for p in expect {
            assert_eq!(g.stone_at(p), Some(Color::Black));
        }
    }
    let mut r = Rules::classic_handicap(4);
    r.scoring = crate::rules::ScoringMethod::Area;
    let g = Game::new(Geometry::flat(9, 9).unwrap(), r).unwrap();
    let st = crate::game::scoring::score(&g, &ScoringMarks::default()).unwrap();
    assert_eq!(st.white.handicap_compensation.0, 8);
    assert_eq!(st.white.komi.0, 1);
    assert!(matches!(
        Game::new(Geometry::flat(9, 9).unwrap(), Rules::classic_handicap(6)),
        Err(SetupError::Handicap(HandicapError::BadCount { .. }))
    ));
    assert!(Game::new(Geometry::cube(9).unwrap(), Rules::classic_handicap(2)).is_err());
}

#[test]
fn atari_warnings_and_illegal_points() {
    let g = game_from(
        "
        . O . . .
        O X O . .
        . . . . .
        . . . . .
        . . . . .",
        Rules::space(),
    );
    let a = g.chains_in_atari(None);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].color, Color::Black);
    assert_eq!(a[0].liberty, at(&g, 1, 2));
    let ill = g.illegal_points(Color::Black);
    // (0,0) is suicide for Black: both neighbours are White chains with spare liberties.
    assert!(ill.iter().any(|(p, e)| *p == at(&g, 0, 0) && e.kind() == IllegalKind::Suicide));
    assert_eq!(g.legal_points(Color::Black).len() + ill.len(), g.board().empty_count());
}

#[test]
fn three_d_capture_needs_all_six_neighbours_003_s2_2() {
    // 003 §2.1–2.2: an interior stone has six liberties; a surface stone
    // counts its interior liberty; a corner stone has three.
    let geom = Geometry::cube(3).unwrap();
    let mut g = Game::new(geom, Rules::space()).unwrap();
    let p = |g: &Game, x, y, z| g.geometry().index_of(x, y, z).unwrap();
    let centre = p(&g, 2, 2, 2);
    g.play(Color::White, Move::Pass).unwrap_err();
    g.play(Color::Black, Move::Place(centre)).unwrap();
    assert_eq!(g.board().liberties(centre), 6);
    let around = [(1, 2, 2), (3, 2, 2), (2, 1, 2), (2, 3, 2), (2, 2, 1), (2, 2, 3)];
    let far = [(1, 1, 1), (3, 3, 3), (1, 3, 1), (3, 1, 3), (1, 1, 3)];
    for (k, &(x, y, z)) in around.iter().enumerate() {
        let out = g.play(Color::White, Move::Place(p(&g, x, y, z))).unwrap();
        if k < 5 {
            assert!(out.captured.is_empty());
            assert_eq!(g.board().liberties(centre), 5 - k as u32);
            let (a, b, c) = far[k];
            g.play(Color::Black, Move::Place(p(&g, a, b, c))).unwrap();
        } else {
            assert_eq!(out.captured, vec![centre]);
        }
    }
    // Corner stone (1,1,1) has 3 neighbours; it is now surrounded by? Check counts only.
    assert_eq!(g.geometry().neighbours(p(&g, 1, 1, 1)).len(), 3);
    g.board().check_consistency().unwrap();
}

#[test]
fn record_replays_to_the_same_state() {
    let mut g = game_from(DOUBLE_KO, Rules::classic());
    place(&mut g, Color::Black, 3, 2).unwrap();
    let _ = place(&mut g, Color::Black, 0, 0); // not your turn, logged
    place(&mut g, Color::White, 6, 6).unwrap();
    let _ = place(&mut g, Color::Black, 5, 6); // immediate retake: superko, logged
    place(&mut g, Color::Black, 8, 8).unwrap();
    g.undo().unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    g.finish_by_score(&ScoringMarks::default()).unwrap();
    let json = g.record().to_json();
    let back = crate::game::record::replay_json(&json).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.log(), g.log());
    assert_eq!(back.record(), g.record());
}
