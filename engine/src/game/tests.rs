//! Game tests written as ASCII diagrams (`X` black, `O` white, `.` empty;
//! top row first; coordinates below are zero-based column/row offsets).

use super::*;
use crate::labels::HandicapError;
use crate::scoring::ScoringMarks;

pub(crate) fn game_from(diagram: &str, rules: Rules) -> Game {
    let rows: Vec<String> = diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    let h = rows.len();
    let w = rows[0].chars().count();
    let geom = Geometry::flat(w as i64, h as i64).expect("odd board size in test diagram");
    let mut g = Game::new(geom, rules).unwrap();
    let mut changes = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.chars().count(), w, "ragged diagram");
        for (x, c) in row.chars().enumerate() {
            let p = g.geometry().point_from_offsets(x, y, 0).unwrap();
            match c {
                'X' => changes.push((p, Some(Color::Black))),
                'O' => changes.push((p, Some(Color::White))),
                _ => {}
            }
        }
    }
    g.set_stones(&changes).unwrap();
    g
}

pub(crate) fn at(g: &Game, x: usize, y: usize) -> Point {
    g.geometry().point_from_offsets(x, y, 0).unwrap()
}

fn place(g: &mut Game, c: Color, x: usize, y: usize) -> Result<PlayOutcome, IllegalMove> {
    let p = at(g, x, y);
    g.play(c, Move::Place(p))
}

fn ascii(g: &Game) -> String {
    g.board().to_ascii()
}

fn diagram(s: &str) -> String {
    s.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect()
}

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

/// Two kos. Ko 1: White (2,2) capturable by Black at (3,2).
/// Ko 2: Black (5,6) capturable by White at (6,6).
const DOUBLE_KO: &str = "
    . . . . . . . . .
    . . X O . . . . .
    . X O . O . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . O X . .
    . . . . O X . X .
    . . . . . O X . .
    . . . . . . . . .";

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
    let back = crate::record::replay_json(&g.record().to_json()).unwrap();
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
    let st = crate::scoring::score(&g, &ScoringMarks::default()).unwrap();
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
    let back = crate::record::replay_json(&json).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.log(), g.log());
    assert_eq!(back.record(), g.record());
}

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
    let back = crate::record::replay_json(&g.record().to_json()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.stone_at(hp[0]), None);
}

// ---------------------------------------------------------------------------
// Exact repetition: a hash match alone never makes a move illegal (or a game
// a draw); the arrangements are compared. Collisions of the 64-bit hash
// cannot be found by search, so these tests plant a colliding entry (the hash
// of the move's result, attached to a different arrangement) directly in the
// history.

fn flat5() -> Arc<Geometry> {
    Arc::new(Geometry::flat(5, 5).unwrap())
}
fn pt(g: &Game, x: usize, y: usize) -> Point {
    g.geometry().point_from_offsets(x, y, 0).unwrap()
}
/// A game with B (1,1), W (3,3) played; Black to move.
fn opened(rules: Rules) -> Game {
    let mut g = Game::with_geometry(flat5(), rules).unwrap();
    g.play(Color::Black, Move::Place(pt(&g, 1, 1))).unwrap();
    g.play(Color::White, Move::Place(pt(&g, 3, 3))).unwrap();
    g
}

#[test]
fn immediate_rule_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::space());
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    // Plant: "before White's last move the hash was h" — at mark 0, the
    // empty board, which is not the arrangement after B (2,2).
    g.history.before_last[Color::White.idx()] = Some((h, 0));
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    assert!(g.legal_points(Color::Black).contains(&p));
    // Marks compare arrangements, not hashes: after B (2,2) the current
    // arrangement matches its own mark and not the empty board's.
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert!(g.history.matches_mark(&g.board, g.history.mark(), None));
    assert!(!g.history.matches_mark(&g.board, 0, None));
}

#[test]
fn superko_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::classic());
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    g.history.seen.insert(h, 0); // the empty board…
    g.history.seen_extra.push((h, 1)); // …and the board after B (1,1)
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    g.play(Color::Black, Move::Place(p)).unwrap();
    // The colliding hash now holds a third, distinct arrangement.
    assert_eq!(g.history.seen[&h], 0);
    assert_eq!(g.history.seen_extra, vec![(h, 1), (h, 3)]);
}

#[test]
fn korean_count_needs_the_same_arrangement_not_just_the_hash() {
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = opened(r);
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    // Two earlier "occurrences" of the situation after B (2,2), White to
    // move — but with the empty board's arrangement.
    let key = h ^ crate::zobrist::side_key(Color::White.idx());
    g.history.situations.insert(key, history::Situation { to_move: Color::White, mark: 0, count: 2 });
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert_eq!(g.phase(), Phase::Playing, "a hash collision is not a third occurrence");
    assert_eq!(g.history.situations[&key].count, 2);
    assert_eq!(
        g.history.situations_extra,
        vec![(key, history::Situation { to_move: Color::White, mark: 3, count: 1 })]
    );
}

#[test]
fn after_undo_restriction_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::space());
    let q = pt(&g, 2, 2);
    g.play(Color::Black, Move::Place(q)).unwrap();
    g.undo().unwrap();
    assert!(g.undo_restriction_active());
    // The real undone arrangement is refused…
    assert_eq!(g.illegal_reason(Color::Black, q).map(|e| e.kind()), Some(IllegalKind::UndoRepetition));
    // …but a different move whose result merely has the restricted hash is not.
    let p = pt(&g, 0, 4);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    let cells = g.undo_restriction.as_ref().unwrap().1.clone();
    g.undo_restriction = Some((h, cells));
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert!(!g.undo_restriction_active());
}

#[test]
fn marks_follow_captures_and_recaptures() {
    // A ko on a 5×5 board: the journal reconstructs earlier arrangements
    // exactly through captures.
    //   . X O . .
    //   X . X O .
    //   . X O . .
    let mut g = Game::with_geometry(flat5(), Rules::classic()).unwrap();
    let stones = [
        (1, 0, Color::Black),
        (0, 1, Color::Black),
        (2, 1, Color::Black),
        (1, 2, Color::Black),
        (2, 0, Color::White),
        (3, 1, Color::White),
        (2, 2, Color::White),
    ];
    let changes: Vec<_> = stones.iter().map(|&(x, y, c)| (pt(&g, x, y), Some(c))).collect();
    g.set_stones(&changes).unwrap();
    g.set_first_to_move(Color::White).unwrap();
    let start_mark = g.history.mark();
    g.play(Color::White, Move::Place(pt(&g, 1, 1))).unwrap(); // captures (2,1)
    assert_eq!(g.captures(Color::White), 1);
    // Black's immediate retake would recreate the start: superko.
    let e = g.illegal_reason(Color::Black, pt(&g, 2, 1)).unwrap();
    assert_eq!(e.kind(), IllegalKind::Superko);
    assert!(g.history.matches_mark(&g.board, start_mark, Some((pt(&g, 2, 1), Color::Black, &[pt(&g, 1, 1)]))));
    assert!(!g.history.matches_mark(&g.board, start_mark, None));
    // Under the immediate rule the same retake is refused as "repetition".
    let mut s = Game::with_geometry(flat5(), Rules::space()).unwrap();
    s.set_stones(&changes).unwrap();
    s.set_first_to_move(Color::White).unwrap();
    s.play(Color::White, Move::Place(pt(&s, 1, 1))).unwrap();
    assert_eq!(s.illegal_reason(Color::Black, pt(&s, 2, 1)).map(|e| e.kind()), Some(IllegalKind::Repetition));
    s.play(Color::Black, Move::Place(pt(&s, 4, 4))).unwrap();
    s.play(Color::White, Move::Place(pt(&s, 4, 0))).unwrap();
    // Two moves later the retake is allowed again (003 §2.3).
    assert_eq!(s.illegal_reason(Color::Black, pt(&s, 2, 1)), None);
}

/// 003 §5.7: a time loss the administrator cancels leaves the same position, the same
/// player to move and a game that goes on; any other ending cannot be cancelled this way.
#[test]
fn cancelled_time_loss_resumes_the_same_position_003_s5_7() {
    let mut g = game_from(". . .\n. . .\n. . .", Rules::classic());
    place(&mut g, Color::Black, 1, 1).unwrap();
    let before = ascii(&g);
    g.time_loss(Color::White).unwrap();
    assert!(g.is_over());
    g.cancel_time_loss().unwrap();
    assert!(!g.is_over());
    assert_eq!(g.result(), None);
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(ascii(&g), before);
    place(&mut g, Color::White, 0, 0).unwrap();
    assert!(g.cancel_time_loss().is_err(), "no time loss to cancel");
    g.resign(Color::Black).unwrap();
    assert!(g.cancel_time_loss().is_err(), "a resignation is not a time loss");
}

#[test]
fn only_the_repetition_maps_the_ko_rule_reads_are_kept() {
    let mut korean = Rules::classic();
    korean.ko = KoRule::Korean;
    for (rules, arrangements, situations) in
        [(Rules::space(), false, false), (Rules::classic(), true, false), (korean, false, true)]
    {
        let mut g = opened(rules);
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Place(pt(&g, 2, 2))).unwrap();
        let h = &g.history;
        // The start and four moves: the pass repeats an arrangement (four), with the
        // other colour to move (five situations).
        let want = (4 * arrangements as usize, 5 * situations as usize);
        assert_eq!((h.seen.len(), h.situations.len()), want, "{:?}", rules.ko);
        assert!(h.seen_extra.is_empty() && h.situations_extra.is_empty());
        assert_eq!(h.journal.len(), 3, "the journal is kept under every rule");
    }
}

#[test]
fn the_log_is_kept_compactly_and_read_back_as_actions() {
    assert!(std::mem::size_of::<super::Logged>() <= 16, "{}", std::mem::size_of::<super::Logged>());
    let mut g = opened(Rules::space());
    let p = pt(&g, 1, 1);
    let _ = g.play(Color::Black, Move::Place(p)); // occupied: an illegal attempt
    let _ = g.play(Color::Black, Move::Place(Point(u16::MAX))); // off the board: kept by index
    g.play(Color::Black, Move::Place(pt(&g, 2, 2))).unwrap();
    g.undo().unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    g.resign(Color::White).unwrap();
    let c = |x, y| g.geometry().coords_of(pt(&g, x, y)).unwrap();
    let log = g.log();
    assert_eq!(log.len(), 8);
    assert_eq!(log[0], Action::Play { color: Color::Black, at: c(1, 1) });
    assert_eq!(
        log[2],
        Action::Illegal {
            color: Color::Black,
            pass: false,
            at: Some(c(1, 1)),
            index: None,
            reason: IllegalKind::Occupied
        }
    );
    assert_eq!(
        log[3],
        Action::Illegal {
            color: Color::Black,
            pass: false,
            at: None,
            index: Some(u16::MAX as u32),
            reason: IllegalKind::OffBoard
        }
    );
    assert_eq!(log[5], Action::Undo { color: Color::Black, at: c(2, 2) });
    assert_eq!(log[6], Action::Pass { color: Color::Black });
    assert_eq!(log[7], Action::Resign { color: Color::White });
    assert_eq!(g.last_action().as_ref(), log.last());
    // The record carries the same actions and replays to the same game.
    let back = g.record().replay().unwrap();
    assert_eq!(back.log(), log);
}
