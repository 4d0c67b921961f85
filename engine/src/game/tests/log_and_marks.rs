//! Marks through captures, a cancelled time loss, and the compact log.

use super::*;

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
