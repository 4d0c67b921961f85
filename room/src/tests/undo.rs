//! Undo requests: granted, refused, expired, withdrawn, and Classic's per-player allowance.

use super::*;

#[test]
fn undo_accepted_restores_the_stone_and_turn_without_refunding_time() {
    // 003 §5.1–5.2.
    let mut t = T::started(space_box(5));
    t.now = 4_000;
    t.play(HOST, at(1, 1, 1));
    t.now = 10_000;
    let e = t.ok(HOST, Command::RequestUndo);
    assert_eq!(T::kinds(&e), ["undo_requested"]);
    assert!(!t.s.clocks.is_running(), "both clocks stop while waiting");
    assert!(
        matches!(t.err(HOST, Command::AnswerUndo { accept: true }), MatchError::NoPendingRequest { .. }),
        "the requester cannot answer"
    );
    t.now = 20_000;
    t.ok(GUEST, Command::AnswerUndo { accept: true });
    assert_eq!(t.s.game.move_number(), 0);
    assert_eq!(t.s.to_move(), Colour::Black);
    assert_eq!(t.s.game.stone_at(t.s.point(at(1, 1, 1)).unwrap()), None);
    // White's 6 s (4 s → 10 s) are charged, not refunded; Black's clock runs again.
    assert_eq!(t.s.clocks.main_ms, ByColour::new(3_600_000 - 4_000, 3_600_000 - 6_000));
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::Black));
    // 003 §5.3: the undone arrangement may not be recreated by the next stone move.
    assert!(matches!(t.err(HOST, Command::Move { at: at(1, 1, 1) }), MatchError::Illegal { .. }));
    t.play(HOST, at(2, 2, 2));
    t.assert_replays();
}

#[test]
fn a_refused_or_expired_undo_cannot_be_asked_again_for_the_same_move() {
    // 003 §5.2.
    let mut t = T::started(space_box(5));
    t.play(HOST, at(1, 1, 1));
    t.ok(HOST, Command::RequestUndo);
    t.ok(GUEST, Command::AnswerUndo { accept: false });
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::White), "the current player's clock restarts");
    assert!(matches!(t.err(HOST, Command::RequestUndo), MatchError::UndoNotAllowed { .. }));
    t.play(GUEST, at(5, 5, 5));
    t.ok(GUEST, Command::RequestUndo);
    assert!(t.advance(59_999).is_empty());
    assert_eq!(T::kinds(&t.advance(1)), ["undo_expired"]);
    assert!(matches!(t.err(GUEST, Command::RequestUndo), MatchError::UndoNotAllowed { .. }));
    t.assert_replays();
}

#[test]
fn a_new_move_while_waiting_cancels_the_undo_request_and_a_pass_cannot_be_undone() {
    // 003 §5.1–5.2.
    let mut t = T::started(space_box(5));
    t.play(HOST, at(1, 1, 1));
    t.ok(HOST, Command::RequestUndo);
    let e = t.ok(GUEST, Command::Move { at: at(3, 3, 3) });
    assert_eq!(T::kinds(&e), ["undo_cancelled", "move_played"]);
    t.ok(HOST, Command::Acknowledge { move_number: 2 });
    t.pass(HOST);
    assert!(matches!(
        t.err(GUEST, Command::RequestUndo),
        MatchError::UndoNotAllowed { why: UndoRefusal::PassCannotBeUndone }
    ));
    t.assert_replays();
}

#[test]
fn classic_undo_allowance_is_per_player() {
    // 000 §2 `undo`.
    let mut s = classic9();
    s.undo = UndoAllowance::Limited(1);
    let mut t = T::started(s);
    t.play(HOST, at(3, 3, 1));
    t.ok(HOST, Command::RequestUndo);
    t.ok(GUEST, Command::AnswerUndo { accept: true });
    t.play(HOST, at(4, 4, 1));
    assert!(matches!(
        t.err(HOST, Command::RequestUndo),
        MatchError::UndoNotAllowed { why: UndoRefusal::AllUsed { allowance: 1 } }
    ));
    assert!(
        matches!(t.err(GUEST, Command::RequestUndo), MatchError::UndoNotAllowed { why: UndoRefusal::NoMove }),
        "White has no move of its own yet"
    );
    t.play(GUEST, at(5, 5, 1));
    t.ok(GUEST, Command::RequestUndo); // White has its own allowance
    t.assert_replays();
}

#[test]
fn classic_undo_takes_back_the_requesters_own_move_and_the_reply() {
    // 000 §8.2: Black (5,5), White (6,6); Black's request, accepted by White, takes back
    // both moves, gives Black the turn and is charged to Black.
    let mut t = T::started(classic9());
    t.play(HOST, at(5, 5, 1));
    t.play(GUEST, at(6, 6, 1));
    let e = t.ok(HOST, Command::RequestUndo);
    assert!(matches!(e[..], [Event::UndoRequested { colour: Colour::Black, plies: 2, .. }]), "{e:?}");
    t.ok(GUEST, Command::AnswerUndo { accept: true });
    assert_eq!((t.s.game.move_number(), t.s.to_move(), t.s.undos_used), (0, Colour::Black, ByColour::new(1, 0)));
    for p in [at(5, 5, 1), at(6, 6, 1)] {
        assert_eq!(t.s.game.stone_at(t.s.point(p).unwrap()), None);
    }
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::Black));
    // 003 §5.3's repetition limit is Space's: Black may play the same point again.
    t.play(HOST, at(5, 5, 1));
    // Its own last move only, when it is the last: one move, White's turn again.
    t.ok(HOST, Command::RequestUndo);
    assert_eq!(t.s.undo.map(|u| u.plies), Some(1));
    t.ok(GUEST, Command::AnswerUndo { accept: true });
    assert_eq!((t.s.game.move_number(), t.s.to_move()), (0, Colour::Black));
    // A pass is the requester's own move too.
    t.play(HOST, at(3, 3, 1));
    t.pass(GUEST);
    t.ok(GUEST, Command::RequestUndo);
    let e = t.ok(HOST, Command::AnswerUndo { accept: true });
    let [Event::TakenBack { moves, .. }] = &e[..] else { panic!("{e:?}") };
    assert_eq!(moves, &[wire::events::TakenMove { colour: Colour::White, at: None }]);
    assert_eq!((t.s.game.move_number(), t.s.to_move(), t.s.undos_used), (1, Colour::White, ByColour::new(2, 1)));
    t.assert_replays();
}

#[test]
fn an_undo_request_can_be_withdrawn_by_its_requester_only() {
    let mut t = T::started(classic9());
    t.play(HOST, at(5, 5, 1));
    t.ok(HOST, Command::RequestUndo);
    assert!(matches!(t.err(GUEST, Command::CancelUndo), MatchError::NoPendingRequest { what: PendingKind::OwnUndo }));
    let e = t.ok(HOST, Command::CancelUndo);
    assert!(matches!(e[..], [Event::UndoCancelled { by: Some(Colour::Black), .. }]), "{e:?}");
    assert!(t.s.undo.is_none());
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::White), "the clock of the player to move runs again");
    assert!(matches!(t.err(HOST, Command::CancelUndo), MatchError::NoPendingRequest { .. }));
    // Withdrawn like refused: not asked again for the same move (asking and withdrawing
    // would otherwise hold a clock without end).
    assert!(matches!(
        t.err(HOST, Command::RequestUndo),
        MatchError::UndoNotAllowed { why: UndoRefusal::AlreadyRefused }
    ));
    t.play(GUEST, at(6, 6, 1));
    t.ok(HOST, Command::RequestUndo);
    t.assert_replays();
}
