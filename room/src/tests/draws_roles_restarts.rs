//! Draw offers, who may act at all, and a restart's hold.

use super::*;

#[test]
fn classic_draw_offers() {
    // 000 §8.2.
    let mut t = T::started(classic9());
    t.ok(HOST, Command::OfferDraw);
    assert!(matches!(t.err(HOST, Command::OfferDraw), MatchError::DrawOfferNotAllowed { .. }));
    t.ok(GUEST, Command::AnswerDraw { accept: false });
    assert!(matches!(
        t.err(HOST, Command::OfferDraw),
        MatchError::DrawOfferNotAllowed { why: DrawRefusal::TooSoon { so_far: 0, .. } }
    ));
    let moves = [(3, 3), (7, 7), (3, 7), (7, 3), (5, 5), (5, 3), (3, 5), (5, 7), (7, 5)];
    for (i, (x, y)) in moves.iter().enumerate() {
        t.play(if i % 2 == 0 { HOST } else { GUEST }, at(*x, *y, 1));
    }
    // Black has played 5 of its own moves since the decline: it may offer again.
    t.ok(HOST, Command::OfferDraw);
    assert!(
        matches!(t.err(GUEST, Command::CancelDrawOffer), MatchError::NoPendingRequest { .. }),
        "only the offerer cancels"
    );
    // White moving instead of answering declines it.
    let e = t.ok(GUEST, Command::Move { at: at(1, 1, 1) });
    assert_eq!(T::kinds(&e), ["draw_declined", "move_played"]);
    t.ok(HOST, Command::Acknowledge { move_number: 10 });
    t.ok(GUEST, Command::OfferDraw);
    t.ok(HOST, Command::AnswerDraw { accept: true });
    assert!(matches!(&t.s.ended, Some(Event::Ended { result: engine::GameResult::DrawAgreed, .. })));
    t.assert_replays();
}

#[test]
fn strangers_and_players_cannot_act_outside_their_role() {
    let mut t = T::started(space_box(5));
    assert_eq!(t.err(STRANGER, Command::Pass), MatchError::NotAPlayer);
    assert_eq!(t.err(STRANGER, Command::Consent { statement: 1 }), MatchError::NotAPlayer);
    assert_eq!(t.err(HOST, Command::AdminHold { reasons: "x".into() }), MatchError::AdminOnly);
    assert_eq!(
        t.err(GUEST, Command::AdminDecide { winner: Some(Colour::White), reasons: "x".into() }),
        MatchError::AdminOnly
    );
    // The administrator holds and decides a match; every ruling is recorded with reasons.
    t.ok(ADMIN, Command::AdminHold { reasons: "report under review".into() });
    assert!(matches!(t.err(HOST, Command::Move { at: at(1, 1, 1) }), MatchError::WrongPhase { .. }));
    let e = t.ok(ADMIN, Command::AdminDecide { winner: None, reasons: "both players left".into() });
    assert_eq!(T::kinds(&e), ["decided", "ended"]);
    assert_eq!(t.s.phase(), RoomPhase::Finished);
    t.assert_replays();
}

#[test]
fn a_restart_holds_play_and_charges_nothing_after_the_last_stored_event() {
    // 003 §6.1: a server failure preserves the last confirmed board and stops the clocks.
    let mut t = T::started(space_box(5));
    t.now = 30_000;
    t.play(HOST, at(1, 1, 1));
    // The server dies; it comes back an hour later.
    let mut back = MatchState::replay(&t.log, secrets()).unwrap();
    let held = back.on_restart(30_000 + 3_600_000);
    assert_eq!(T::kinds(&held), ["held"]);
    assert_eq!(back.phase(), RoomPhase::WaitingReady);
    assert_eq!(back.clocks.snapshot(30_000 + 3_600_000).main_ms, ByColour::new(3_600_000 - 30_000, 3_600_000));
}
