//! Ko, immediate repetition, positional superko and Korean repetition draws (000 §10, 003 §2.3).

use super::*;

/// Ko shape: White stone at (2,2) in atari, Black captures at (3,2).
const KO: &str = "
    . . . . . . .
    . . X O . . .
    . X O . O . .
    . . X O . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .";

#[test]
fn simple_ko_korean_000_s10() {
    // 000 §10 단순 패: 따낸 직후 바로 되따기 거부, 팻감 후 되따기 허용 (000 §5.3 korean).
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = game_from(KO, r);
    let out = place(&mut g, Color::Black, 3, 2).unwrap();
    assert_eq!(out.captured, vec![at(&g, 2, 2)]);
    assert_eq!(g.ko_point(), Some(at(&g, 2, 2)));
    let e = place(&mut g, Color::White, 2, 2).unwrap_err();
    assert_eq!(e, IllegalMove::Ko { point: at(&g, 2, 2), at: Coord::new(3, 3, 1) });
    assert!(g.illegal_points(Color::White).iter().any(|(p, e)| *p == at(&g, 2, 2) && e.kind() == IllegalKind::Ko));
    // Ko threat elsewhere, answer, then the retake is legal.
    place(&mut g, Color::White, 6, 6).unwrap();
    place(&mut g, Color::Black, 6, 5).unwrap();
    let out = place(&mut g, Color::White, 2, 2).unwrap();
    assert_eq!(out.captured, vec![at(&g, 3, 2)]);
}

#[test]
fn immediate_repetition_003_s2_3() {
    // 003 §2.3: the retake would restore the arrangement from just before
    // the opponent's most recent move.
    let mut g = game_from(KO, Rules::space());
    place(&mut g, Color::Black, 3, 2).unwrap();
    let e = place(&mut g, Color::White, 2, 2).unwrap_err();
    assert_eq!(
        e,
        IllegalMove::Repetition { kind: RepetitionKind::Immediate, point: at(&g, 2, 2), at: Coord::new(3, 3, 1) }
    );
    assert_eq!(e.reason_word(), "repetition");
    // A pass is always legal (003 §2.3); after Black's answer the old
    // arrangement may recur.
    g.play(Color::White, Move::Pass).unwrap();
    place(&mut g, Color::Black, 0, 6).unwrap();
    assert!(place(&mut g, Color::White, 2, 2).is_ok());
}

/// The cycle B:k1, W:k2, B:pass, W:k1, B:k2 returns to the start arrangement.
fn double_ko_cycle(g: &mut Game) -> Result<(), IllegalMove> {
    place(g, Color::Black, 3, 2)?; // B takes ko 1
    place(g, Color::White, 6, 6)?; // W takes ko 2
    g.play(Color::Black, Move::Pass)?; // B may not retake ko 2 at once
    place(g, Color::White, 2, 2)?; // W retakes ko 1
    place(g, Color::Black, 5, 6)?; // B retakes ko 2 → start arrangement again
    Ok(())
}

#[test]
fn positional_superko_rejects_cycle_000_s10() {
    // 000 §10 / §5.3: a move recreating an earlier arrangement is refused.
    let mut g = game_from(DOUBLE_KO, Rules::classic());
    let start = g.hash();
    let e = double_ko_cycle(&mut g).unwrap_err();
    assert_eq!(
        e,
        IllegalMove::Repetition { kind: RepetitionKind::Superko, point: at(&g, 5, 6), at: Coord::new(6, 7, 1) }
    );
    assert_eq!(e.reason_word(), "superko");
    assert_ne!(g.hash(), start);
    // Under the Space immediate rule the same move is legal (older arrangements may recur, 003 §2.3).
    let mut s = game_from(DOUBLE_KO, Rules::space());
    double_ko_cycle(&mut s).unwrap();
    assert_eq!(s.hash(), start);
    // The retake of ko 2 right after White took it is refused by both rules.
    let mut s = game_from(DOUBLE_KO, Rules::space());
    place(&mut s, Color::Black, 3, 2).unwrap();
    place(&mut s, Color::White, 6, 6).unwrap();
    assert!(matches!(
        place(&mut s, Color::Black, 5, 6),
        Err(IllegalMove::Repetition { kind: RepetitionKind::Immediate, .. })
    ));
}

#[test]
fn korean_third_repetition_is_a_draw_000_s10() {
    // 000 §10: koRule=korean — same arrangement with the same player to move
    // for the third time ends the game as a draw (reason repetition).
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = game_from(DOUBLE_KO, r);
    for round in 0..2 {
        double_ko_cycle(&mut g).unwrap();
        let out = g.play(Color::White, Move::Pass).unwrap();
        if round == 0 {
            assert_eq!(out.phase, Phase::Playing);
        } else {
            assert_eq!(out.phase, Phase::Over);
            assert_eq!(out.result, Some(GameResult::repetition()));
        }
    }
    assert!(g.is_over());
    assert_eq!(g.result(), Some(GameResult::Repetition));
    assert_eq!(g.play(Color::Black, Move::Pass).unwrap_err(), IllegalMove::NotInPlay { phase: Phase::Over });
}

#[test]
fn korean_passes_alone_never_make_a_repetition_draw_000_s5_3_s5_5() {
    // 000 §5.5 step 5: after resuming play, two consecutive passes enter
    // scoring again. The arrangement is unchanged, so the situation (board,
    // player to move) recurs — but only through passes, and 000 §5.3 counts
    // repetitions made by moves (a cycle of captures), not by passing.
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = game_from(
        "
        . . . . .
        . X . O .
        . . . . .
        . . . . .
        . . . . .",
        r,
    );
    place(&mut g, Color::Black, 2, 2).unwrap();
    for round in 0..4 {
        let to_move = g.to_move();
        assert_eq!(g.play(to_move, Move::Pass).unwrap().phase, Phase::Playing, "round {round}");
        let out = g.play(to_move.opponent(), Move::Pass).unwrap();
        assert_eq!((out.phase, out.result), (Phase::Scoring, None), "round {round}: scoring, not a draw");
        // Alternate who asks to resume, so both players-to-move recur.
        g.resume(if round % 2 == 0 { Color::Black } else { Color::White }).unwrap();
    }
    // A stone move after all that still plays normally, and scoring still works.
    let c = g.to_move();
    place(&mut g, c, 4, 4).unwrap();
    g.play(c.opponent(), Move::Pass).unwrap();
    assert_eq!(g.play(c, Move::Pass).unwrap().phase, Phase::Scoring);
    g.finish_by_score(&ScoringMarks::default()).unwrap();
    // The record replays to the same state (same counts, same phase).
    let back = crate::game::record::replay_json(&g.record().to_json()).unwrap();
    assert_eq!(back, g);
}

#[test]
fn snapback_is_legal_under_every_rule() {
    for ko in [KoRule::Immediate, KoRule::PositionalSuperko, KoRule::Korean] {
        let mut r = Rules::space();
        r.ko = ko;
        let mut g = game_from(
            "
            . O X . .
            . O X . .
            O X . . .
            . . . . .
            . . . . .",
            r,
        );
        place(&mut g, Color::Black, 0, 1).unwrap(); // throw-in
        let out = place(&mut g, Color::White, 0, 0).unwrap();
        assert_eq!(out.captured, vec![at(&g, 0, 1)]);
        let out = place(&mut g, Color::Black, 0, 1).unwrap(); // snapback
        assert_eq!(out.captured.len(), 3, "{ko:?}");
        g.board().check_consistency().unwrap();
    }
}
