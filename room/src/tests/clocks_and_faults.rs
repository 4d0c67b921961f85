//! The clocks, acknowledgements, connection faults and readiness (003 §5, 000 §8).

use super::*;

#[test]
fn blacks_clock_starts_after_both_ready_and_the_opponents_after_acknowledgement() {
    // 003 §1.6, §5.5.
    let mut t = T::started(space_box(5));
    assert_eq!(t.s.clocks.snapshot(0).running, Some(Colour::Black));
    t.now = 5_000;
    t.ok(HOST, Command::Move { at: at(1, 1, 1) });
    let v = t.s.clocks.snapshot(7_000);
    assert_eq!(v.running, None, "no clock runs while White's device has not shown the move");
    assert_eq!(v.main_ms, ByColour::new(3_600_000 - 5_000, 3_600_000));
    // 003 §5.5: no move before the acknowledgement, from either side.
    assert!(matches!(t.err(GUEST, Command::Move { at: at(2, 2, 2) }), MatchError::AwaitingAcknowledgement { .. }));
    t.now = 8_000;
    t.ok(GUEST, Command::Acknowledge { move_number: 1 });
    let v = t.s.clocks.snapshot(10_000);
    assert_eq!(
        (v.running, v.main_ms[Colour::White]),
        (Some(Colour::White), 3_600_000 - 2_000),
        "delivery delay is not charged"
    );
    t.assert_replays();
}

#[test]
fn a_move_after_the_time_ran_out_is_refused_and_the_game_is_lost_on_time() {
    // 003 §5.4: the server's receipt time decides; the last confirmed board stands.
    let mut s = classic9();
    s.time = TimeControl::Byoyomi { main_s: 10, period_s: 10, periods: 1 };
    let mut t = T::started(s);
    t.now = 20_000; // 10 s main + one 10 s period: exactly out
    let e = t.err(HOST, Command::Move { at: at(3, 3, 1) });
    assert_eq!(e, MatchError::TimeExpired { colour: Colour::Black });
    assert_eq!(t.s.phase(), RoomPhase::Finished);
    assert_eq!(t.s.game.move_number(), 0, "the late move is not on the board");
    assert!(matches!(
        &t.s.ended,
        Some(Event::Ended { result: engine::GameResult::Time { winner: Colour::White }, .. })
    ));
    t.assert_replays();
}

#[test]
fn the_clock_running_out_ends_the_game_without_a_move() {
    // 000 §8.5 `timeout` in play: a time loss; no automatic move.
    let mut s = classic9();
    s.time = TimeControl::Fischer { main_s: 30, increment_s: 5 };
    let mut t = T::started(s);
    t.play(HOST, at(3, 3, 1)); // Black used 0 s; +5 s
    assert_eq!(t.s.next_deadline(), Some(30_000), "White's 30 s from the acknowledgement");
    assert!(t.advance(29_999).is_empty());
    let e = t.advance(1);
    assert_eq!(T::kinds(&e), ["time_expired", "ended"]);
    assert!(matches!(&t.s.ended, Some(Event::Ended { result, .. }) if result.winner() == Some(Colour::Black)));
    t.assert_replays();
}

#[test]
fn no_acknowledgement_for_ten_seconds_is_a_connection_fault_then_a_hold_in_space() {
    // 003 §5.6, §6.1: clocks stop, five-minute wait, then the administrator — no loss.
    let mut t = T::started(space_box(5));
    t.ok(HOST, Command::Move { at: at(1, 1, 1) });
    assert!(t.advance(9_999).is_empty());
    let e = t.advance(1);
    assert_eq!(T::kinds(&e), ["connection_lost"]);
    assert!(!t.s.clocks.is_running());
    assert!(matches!(t.err(HOST, Command::Pass), MatchError::Suspended { .. }));
    let e = t.advance(300_000);
    assert_eq!(T::kinds(&e), ["reconnection_expired", "held", "attention_needed"]);
    assert_eq!(t.s.phase(), RoomPhase::Held);
    assert_eq!(t.s.attention, Some(Attention::Disconnection));
    // Only an administrator resumes, with reasons; then both must be ready again.
    assert_eq!(t.err(HOST, Command::AdminResume { reasons: "back".into() }), MatchError::AdminOnly);
    assert!(matches!(t.err(ADMIN, Command::AdminResume { reasons: " ".into() }), MatchError::InvalidInput { .. }));
    t.ok(ADMIN, Command::AdminResume { reasons: "White's network failed; both confirmed the board".into() });
    assert_eq!(t.s.phase(), RoomPhase::WaitingReady);
    t.ok(HOST, Command::Ready);
    t.ok(GUEST, Command::Ready);
    // The move still waits for White's device.
    assert_eq!(t.s.awaiting_ack, Some((Colour::White, 1)));
    t.ok(GUEST, Command::Acknowledge { move_number: 1 });
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::White));
    t.assert_replays();
}

#[test]
fn a_late_acknowledgement_ends_the_fault_and_play_resumes_after_both_are_ready() {
    // 003 §5.6, §6.2–6.3.
    let mut t = T::started(space_box(5));
    t.ok(HOST, Command::Move { at: at(1, 1, 1) });
    t.advance(10_000);
    let e = t.ok(GUEST, Command::Acknowledge { move_number: 1 });
    assert_eq!(T::kinds(&e), ["move_acknowledged", "reconnected"]);
    assert_eq!(t.s.phase(), RoomPhase::WaitingReady);
    assert!(matches!(t.err(GUEST, Command::Move { at: at(2, 2, 2) }), MatchError::WrongPhase { .. }));
    t.ok(GUEST, Command::Ready);
    t.ok(HOST, Command::Ready);
    t.play(GUEST, at(2, 2, 2));
    t.assert_replays();
}

#[test]
fn classic_disconnection_loses_after_the_grace_period() {
    // 000 §8.5: disconnectGraceSec, then the absent player's timeout.
    let mut t = T::started(classic9());
    t.play(HOST, at(3, 3, 1));
    let e = t.s.presence(Colour::White, false, t.now);
    t.store(&e);
    assert_eq!(T::kinds(&e), ["connection_lost"]);
    assert!(t.advance(119_999).is_empty());
    let e = t.advance(1);
    assert_eq!(T::kinds(&e), ["reconnection_expired", "time_expired", "ended"]);
    assert!(matches!(&t.s.ended, Some(Event::Ended { result, .. }) if result.winner() == Some(Colour::Black)));
    t.assert_replays();
}

#[test]
fn a_classic_disconnection_stops_no_clock_and_needs_no_second_ready() {
    // 000 §8.5: the absent player's clock keeps running; the game is lost at
    // min(deadline, disconnection + grace), counted when that player must act.
    let mut s = classic9();
    s.time = TimeControl::Fischer { main_s: 600, increment_s: 0 };
    let mut t = T::started(s);
    t.play(HOST, at(3, 3, 1));
    // Black leaves while White thinks; White may still play, and Black's clock then runs.
    let e = t.s.presence(Colour::Black, false, t.now);
    t.store(&e);
    t.now += 10_000;
    t.ok(GUEST, Command::Move { at: at(5, 5, 1) });
    assert_eq!(t.s.clocks.snapshot(t.now).running, Some(Colour::Black), "unacknowledged: the absent player's clock");
    t.now += 30_000;
    let e = t.s.presence(Colour::Black, true, t.now);
    t.store(&e);
    assert_eq!(T::kinds(&e), ["reconnected"]);
    assert_eq!(t.s.phase(), RoomPhase::Playing, "no second Ready in Classic");
    assert!(t.advance(0).is_empty(), "the returning device has its acknowledgement time from now");
    t.ok(HOST, Command::Acknowledge { move_number: 2 });
    t.ok(HOST, Command::Move { at: at(7, 7, 1) });
    assert_eq!(t.s.clocks.main_ms[Colour::Black], 600_000 - 30_000, "the absence was charged");
    // White leaves on Black's turn; Black thinks past the grace: White loses when it is
    // White's turn, at once.
    t.ok(GUEST, Command::Acknowledge { move_number: 3 });
    t.ok(GUEST, Command::Move { at: at(6, 6, 1) });
    t.ok(HOST, Command::Acknowledge { move_number: 4 });
    let e = t.s.presence(Colour::White, false, t.now);
    t.store(&e);
    assert!(t.advance(150_000).is_empty(), "not White's turn");
    t.ok(HOST, Command::Move { at: at(2, 2, 1) });
    let e = t.advance(0);
    assert_eq!(T::kinds(&e), ["reconnection_expired", "time_expired", "ended"]);
    assert!(matches!(&t.s.ended, Some(Event::Ended { result, .. }) if result.winner() == Some(Colour::Black)));
    t.assert_replays();
}

#[test]
fn reconnecting_in_time_resumes_after_both_players_are_ready() {
    // 003 §6.1–6.2.
    let mut t = T::started(space_box(5));
    let e = t.s.presence(Colour::Black, false, t.now);
    t.store(&e);
    t.advance(60_000);
    let e = t.s.presence(Colour::Black, true, t.now);
    t.store(&e);
    assert_eq!(T::kinds(&e), ["reconnected"]);
    assert_eq!(t.s.phase(), RoomPhase::WaitingReady);
    assert_eq!(t.s.clocks.main_ms[Colour::Black], 3_600_000, "the disconnection is not charged");
    t.ok(HOST, Command::Ready);
    t.ok(GUEST, Command::Ready);
    t.play(HOST, at(1, 1, 1));
    t.assert_replays();
}

#[test]
fn five_minutes_without_readiness_notifies_the_administrator_and_nothing_else() {
    // 003 §1.6, §6.3.
    let mut t = T::confirmed(space_box(5));
    t.ok(HOST, Command::Ready);
    assert!(t.advance(299_999).is_empty());
    assert_eq!(T::kinds(&t.advance(1)), ["attention_needed"]);
    assert!(t.advance(3_600_000).is_empty(), "one notice, no automatic loss");
    assert_eq!(t.s.phase(), RoomPhase::WaitingReady);
    t.ok(GUEST, Command::Ready);
    assert_eq!(t.s.phase(), RoomPhase::Playing);
    t.assert_replays();
}
