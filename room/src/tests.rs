//! The match procedure as a pure state machine, driven with a manual time. Every test also
//! checks that replaying the stored events rebuilds the same state (live = replay).

use super::*;
use engine::{Axis, BoxSpec};
use wire::referee::{ChainRuling, ChainVerdict};
use wire::{
    events::MarkKind,
    settings::{TimeControl, UndoAllowance},
};

const HOST: i64 = 1; // first seat; Black (HostBlack)
const GUEST: i64 = 2; // second seat; White
const STRANGER: i64 = 3;
const ADMIN: i64 = 9;

fn caller(id: i64) -> Requester {
    let role = if id == ADMIN { wire::Role::Admin } else { wire::Role::Player };
    Requester { user_id: id, username: format!("user{id}"), role }
}

struct T {
    s: MatchState,
    now: i64,
    log: Vec<StoredEvent>,
}

/// The invitation codes are "code-a" and "code-b"; nigiri draws with seed 7.
fn secrets() -> RoomSecrets {
    RoomSecrets { invite_sha256: [sha256_hex("code-a"), sha256_hex("code-b")], nigiri_seed: Some(7) }
}

fn space_box(n: i64) -> MatchSettings {
    let mut s = MatchSettings::space_default();
    s.board = BoxSpec { x: Axis::one_to(n), y: Axis::one_to(n), z: Axis::one_to(n) };
    s.colours = ColourAssignment::HostBlack;
    s
}

fn classic9() -> MatchSettings {
    let mut s = MatchSettings::classic_default(9);
    s.colours = ColourAssignment::HostBlack;
    s
}

fn at(x: i64, y: i64, z: i64) -> Xyz {
    Xyz { x, y, z }
}

impl T {
    /// Both seated, confirmed and ready at time 0.
    fn started(settings: MatchSettings) -> T {
        settings.validate().expect("valid settings");
        let first = Event::RoomCreated { name: "t".into(), settings: settings.clone(), created_by: HOST };
        let s = MatchState::new("t".into(), settings, HOST, secrets()).unwrap();
        let mut t = T { s, now: 0, log: vec![StoredEvent { seq: 1, at_ms: 0, actor: None, event: first }] };
        t.s.version = 1;
        t.ok(HOST, Command::Join { code: "code-a".into() });
        t.ok(GUEST, Command::Join { code: "code-b".into() });
        t.ok(HOST, Command::Confirm);
        t.ok(GUEST, Command::Confirm);
        t.ok(HOST, Command::Ready);
        t.ok(GUEST, Command::Ready);
        assert_eq!(t.s.phase(), RoomPhase::Playing);
        t
    }

    fn store(&mut self, events: &[Event]) {
        for e in events {
            self.s.version += 1;
            self.log.push(StoredEvent { seq: self.s.version, at_ms: self.now, actor: None, event: e.clone() });
        }
    }

    fn cmd(&mut self, who: i64, c: Command) -> Result<Vec<Event>, MatchError> {
        let d = self.s.handle(&caller(who), &c, self.now);
        assert!(!self.s.poisoned, "state poisoned by {c:?}");
        self.store(&d.events);
        d.outcome.map(|()| d.events)
    }

    #[track_caller]
    fn ok(&mut self, who: i64, c: Command) -> Vec<Event> {
        match self.cmd(who, c.clone()) {
            Ok(e) => e,
            Err(e) => panic!("{c:?} by {who} refused: {e:?}"),
        }
    }

    #[track_caller]
    fn err(&mut self, who: i64, c: Command) -> MatchError {
        self.cmd(who, c.clone()).expect_err(&format!("{c:?} by {who} should be refused"))
    }

    fn advance(&mut self, ms: i64) -> Vec<Event> {
        self.now += ms;
        let events = self.s.tick(self.now);
        self.store(&events);
        events
    }

    /// A 5×5×5 Space game in scoring after Black 1,1,1, White 5,5,5 and two passes.
    fn space_scoring() -> T {
        let mut t = T::started(space_box(5));
        t.play(HOST, at(1, 1, 1));
        t.play(GUEST, at(5, 5, 5));
        t.pass(HOST);
        t.pass(GUEST);
        t
    }

    /// A move by `who` and the opponent's acknowledgement.
    #[track_caller]
    fn play(&mut self, who: i64, p: Xyz) {
        self.ok(who, Command::Move { at: p });
        let n = self.s.game.move_number();
        self.ok(other(who), Command::Acknowledge { move_number: n });
    }

    #[track_caller]
    fn pass(&mut self, who: i64) {
        self.ok(who, Command::Pass);
        if self.s.phase() == RoomPhase::Playing {
            let n = self.s.game.move_number();
            self.ok(other(who), Command::Acknowledge { move_number: n });
        }
    }

    /// Live state = state rebuilt from the stored events.
    #[track_caller]
    fn assert_replays(&self) {
        self.write_fixture();
        let r = MatchState::replay(&self.log, secrets()).expect("log replays");
        // Every field, not a sample of them.
        assert_eq!(r, self.s, "the state replayed from the log differs from the live state");
    }

    /// With `SB_WRITE_EVENT_FIXTURES=dir`, stores this test's log and what it replays to, so
    /// that logs written by this version stay loadable after the event types change.
    fn write_fixture(&self) {
        let Some(dir) = std::env::var_os("SB_WRITE_EVENT_FIXTURES") else { return };
        let name = std::thread::current().name().unwrap_or("unnamed").rsplit("::").next().unwrap().to_string();
        let expect = serde_json::json!({
            "version": self.s.version,
            "phase": self.s.phase(),
            "move_number": self.s.game.move_number(),
            "board_hash": self.s.game.hash().to_string(),
            "ended": self.s.ended,
        });
        let body = serde_json::json!({ "expect": expect, "log": self.log });
        let path = std::path::Path::new(&dir).join(format!("{name}.json"));
        std::fs::write(path, serde_json::to_string_pretty(&body).unwrap()).unwrap();
    }

    fn kinds(events: &[Event]) -> Vec<&'static str> {
        events.iter().map(Event::kind).collect()
    }
}

fn other(who: i64) -> i64 {
    if who == HOST {
        GUEST
    } else {
        HOST
    }
}

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
    let settings = space_box(5);
    let mut t = T {
        s: MatchState::new("t".into(), settings.clone(), HOST, secrets()).unwrap(),
        now: 0,
        log: vec![StoredEvent {
            seq: 1,
            at_ms: 0,
            actor: None,
            event: Event::RoomCreated { name: "t".into(), settings, created_by: HOST },
        }],
    };
    t.s.version = 1;
    t.ok(HOST, Command::Join { code: "code-a".into() });
    t.ok(GUEST, Command::Join { code: "code-b".into() });
    t.ok(HOST, Command::Confirm);
    t.ok(GUEST, Command::Confirm);
    t.ok(HOST, Command::Ready);
    assert!(t.advance(299_999).is_empty());
    assert_eq!(T::kinds(&t.advance(1)), ["attention_needed"]);
    assert!(t.advance(3_600_000).is_empty(), "one notice, no automatic loss");
    assert_eq!(t.s.phase(), RoomPhase::WaitingReady);
    t.ok(GUEST, Command::Ready);
    assert_eq!(t.s.phase(), RoomPhase::Playing);
    t.assert_replays();
}

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

#[test]
fn both_scoring_requests_on_the_same_position_enter_scoring_and_a_move_clears_them() {
    // 003 §2.7.
    let mut t = T::started(space_box(5));
    t.play(HOST, at(1, 1, 1));
    t.ok(HOST, Command::RequestScoring);
    assert_eq!(t.s.phase(), RoomPhase::Playing, "one request stops nothing");
    t.play(GUEST, at(5, 5, 5));
    assert_eq!(t.s.scoring_requests, ByColour::both(None));
    t.ok(GUEST, Command::RequestScoring);
    assert_eq!(t.err(GUEST, Command::RequestScoring), MatchError::AlreadyDone);
    // Each player may cancel their own request.
    t.ok(GUEST, Command::CancelScoringRequest);
    assert!(matches!(t.err(GUEST, Command::CancelScoringRequest), MatchError::NoPendingRequest { .. }));
    t.ok(GUEST, Command::RequestScoring);
    let e = t.ok(HOST, Command::RequestScoring);
    assert_eq!(T::kinds(&e), ["scoring_requested", "scoring_entered", "statement_issued"]);
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    assert!(!t.s.clocks.is_running());
    assert_eq!(t.s.scoring().unwrap().statement, 1);
    t.assert_replays();
}

#[test]
fn space_scoring_marks_statements_and_consents() {
    // 003 §3.4–3.5, §4.5–4.6.
    let mut t = T::space_scoring();
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    // Undo is refused in scoring (003 §4.4).
    assert!(matches!(t.err(HOST, Command::RequestUndo), MatchError::UndoNotAllowed { .. }));
    // Marking a chain issues a new statement; the mark names the whole chain.
    let e = t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_added", "statement_issued"]);
    let n = t.s.scoring().unwrap().statement;
    assert_eq!(n, 2);
    assert!(
        matches!(t.err(HOST, Command::Mark { at: at(2, 2, 2), kind: MarkKind::Dead }), MatchError::BadMark { .. }),
        "no stone there"
    );
    // 003 §3.5: White cannot withdraw Black's mark.
    assert!(matches!(t.err(GUEST, Command::Unmark { at: at(5, 5, 5) }), MatchError::NotYourMark { .. }));
    // Consent binds to a number; a stale number is refused.
    assert!(matches!(t.err(GUEST, Command::Consent { statement: 1 }), MatchError::StaleStatement { latest: 2, .. }));
    t.ok(GUEST, Command::Consent { statement: n });
    t.ok(GUEST, Command::WithdrawConsent);
    t.ok(GUEST, Command::Consent { statement: n });
    // A change issues a new number and clears consents.
    t.ok(HOST, Command::Unmark { at: at(5, 5, 5) });
    let sc = t.s.scoring().unwrap();
    assert_eq!((sc.statement, sc.consents), (3, ByColour::both(None)));
    t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    t.ok(HOST, Command::Consent { statement: 4 });
    let e = t.ok(GUEST, Command::Consent { statement: 4 });
    // 003 §2.7 (review required, the Space default): two consents wait for the review; a
    // consent may still be withdrawn until the result is final (003 §4.6).
    assert_eq!(T::kinds(&e), ["consented", "review_requested"]);
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    t.ok(GUEST, Command::WithdrawConsent);
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    t.ok(GUEST, Command::Consent { statement: 4 });
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    let confirm = |n| Command::AdminConfirmStatement { statement: n, reasons: "counted again: correct".into() };
    assert_eq!(t.err(HOST, confirm(4)), MatchError::AdminOnly);
    assert!(matches!(t.err(ADMIN, confirm(3)), MatchError::StaleStatement { latest: 4, .. }));
    let e = t.ok(ADMIN, confirm(4));
    assert_eq!(T::kinds(&e), ["statement_confirmed", "ended"]);
    match &t.s.ended {
        Some(Event::Ended { result, statement, score: Some(score) }) => {
            assert_eq!((result.winner(), *statement), (Some(Colour::Black), Some(4)));
            assert_eq!(score.dead_stones, vec![at(5, 5, 5)]);
            assert_eq!(score.black.stones, 1);
        }
        other => panic!("not ended by score: {other:?}"),
    }
    t.assert_replays();
}

#[test]
fn a_space_dispute_holds_scoring_for_the_administrators_ruling() {
    // 003 §3.6: hold, rule with reasons, shown to both; §3.7 unresolved kept by ruling.
    let mut t = T::space_scoring();
    t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    let e = t.ok(GUEST, Command::Dispute { reason: "my stone at 5,5,5 lives".into() });
    assert_eq!(T::kinds(&e), ["held", "attention_needed"]);
    assert_eq!(t.s.phase(), RoomPhase::Held);
    assert!(matches!(t.err(GUEST, Command::Consent { statement: 2 }), MatchError::WrongPhase { .. }));
    assert_eq!(
        t.err(
            HOST,
            Command::AdminRuling {
                chains: vec![ChainRuling { at: at(5, 5, 5), verdict: ChainVerdict::Dead }],
                regions: vec![],
                reasons: "x".into(),
            }
        ),
        MatchError::AdminOnly
    );
    let e = t.ok(
        ADMIN,
        Command::AdminRuling {
            chains: vec![ChainRuling { at: at(5, 5, 5), verdict: ChainVerdict::Unresolved }],
            regions: vec![],
            reasons: "neither side proved life or death; kept unresolved (003 §3.7)".into(),
        },
    );
    assert_eq!(T::kinds(&e), ["ruling", "statement_issued"]);
    // 003 §4.5: the ruling's statement needs both consents; 003 §2.7: then the review.
    let n = t.s.scoring().unwrap().statement;
    t.ok(HOST, Command::Consent { statement: n });
    let e = t.ok(GUEST, Command::Consent { statement: n });
    assert_eq!(T::kinds(&e), ["consented", "review_requested"]);
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    let e = t.ok(ADMIN, Command::AdminConfirmStatement { statement: n, reasons: "checked".into() });
    assert_eq!(T::kinds(&e), ["statement_confirmed", "ended"]);
    match &t.s.ended {
        Some(Event::Ended { score: Some(score), .. }) => assert_eq!(score.unresolved_stones, vec![at(5, 5, 5)]),
        other => panic!("{other:?}"),
    }
    t.assert_replays();
}

#[test]
fn classic_scoring_toggles_marks_resumes_play_and_auto_agrees_at_the_deadline() {
    // 000 §5.5 steps 2–5, §8.5.
    let mut t = T::started(classic9());
    t.play(HOST, at(3, 3, 1));
    t.play(GUEST, at(7, 7, 1));
    t.pass(HOST);
    t.pass(GUEST);
    t.ok(GUEST, Command::Mark { at: at(3, 3, 1), kind: MarkKind::Dead });
    t.ok(HOST, Command::Mark { at: at(3, 3, 1), kind: MarkKind::Dead }); // toggles off
    assert!(t.s.scoring().unwrap().marks.is_empty());
    // Step 5: resuming play drops the marks; the requester's opponent moves first.
    t.ok(HOST, Command::ResumePlay);
    assert_eq!((t.s.phase(), t.s.to_move()), (RoomPhase::Playing, Colour::White));
    t.play(GUEST, at(5, 5, 1));
    t.pass(HOST);
    t.pass(GUEST);
    let started = t.s.scoring().unwrap().started_ms;
    t.ok(HOST, Command::Mark { at: at(5, 5, 1), kind: MarkKind::Dead });
    let n = t.s.scoring().unwrap().statement;
    t.ok(HOST, Command::Consent { statement: n });
    assert_eq!(t.s.scoring().unwrap().started_ms, started);
    let e = t.advance(180_000);
    assert_eq!(T::kinds(&e), ["scoring_deadline_passed", "consented", "ended"]);
    assert!(matches!(&t.s.ended, Some(Event::Ended { statement: Some(s), .. }) if *s == n));
    t.assert_replays();
}

#[test]
fn a_classic_mark_covers_the_whole_group_through_empty_points() {
    // 000 §5.5 step 2: Black walls off column 5, White column 6; two white stones left inside
    // Black's side, apart, form one group through the empty points between them.
    let mut t = T::started(classic9());
    for y in 1..=9 {
        t.play(HOST, at(5, y, 1));
        t.play(GUEST, at(6, y, 1));
    }
    t.pass(HOST);
    t.play(GUEST, at(2, 2, 1));
    t.pass(HOST);
    t.play(GUEST, at(3, 4, 1));
    t.pass(HOST);
    t.pass(GUEST);
    // The computer, proposing both stones, marks the group once (a second mark would undo it).
    let both = [t.s.point(at(2, 2, 1)).unwrap(), t.s.point(at(3, 4, 1)).unwrap()];
    assert_eq!(t.s.dead_proposal(&both).len(), 1);
    let e = t.ok(HOST, Command::Mark { at: at(2, 2, 1), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_added", "mark_added", "statement_issued"]);
    let dead = |t: &T| {
        let mut d = t.s.scoring().unwrap().score.dead_stones.clone();
        d.sort_by_key(|p| (p.x, p.y, p.z));
        d
    };
    assert_eq!(dead(&t), vec![at(2, 2, 1), at(3, 4, 1)]);
    // White's wall is another group: not reached through Black's wall.
    assert!(!dead(&t).contains(&at(6, 1, 1)));
    // Tapping the other stone of the group with the same mark removes the whole group's marks.
    let e = t.ok(GUEST, Command::Mark { at: at(3, 4, 1), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_withdrawn", "mark_withdrawn", "statement_issued"]);
    assert!(t.s.scoring().unwrap().marks.is_empty());
    t.assert_replays();
}

#[test]
fn korean_ko_resumed_play_ends_in_scoring_again_not_a_repetition_draw() {
    // 000 §5.5 step 5 with koRule=korean (000 §5.3): the arrangement recurs after each
    // resume only through passes, which is not a triple repetition; every two passes
    // enter scoring again.
    let mut settings = classic9();
    settings.ko = engine::KoRule::Korean;
    let mut t = T::started(settings);
    t.play(HOST, at(3, 3, 1));
    t.play(GUEST, at(7, 7, 1));
    t.pass(HOST);
    t.pass(GUEST);
    for (round, asker) in [(1, HOST), (2, GUEST), (3, HOST)] {
        assert_eq!(t.s.phase(), RoomPhase::Scoring, "round {round}");
        t.ok(asker, Command::ResumePlay);
        let first = if t.s.to_move() == Colour::Black { HOST } else { GUEST };
        assert_eq!(first, other(asker), "the requester's opponent moves first");
        t.pass(first);
        t.pass(other(first));
        assert_eq!((t.s.phase(), t.s.ended.is_none()), (RoomPhase::Scoring, true), "round {round}: no draw");
    }
    t.assert_replays();
}

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

/// The actor computes the viewer-independent part of the view once per version and adds
/// each viewer's part at request time: that must equal the view computed for the viewer
/// directly, for players and spectators, later in time, in play and in scoring.
#[test]
fn a_shared_view_personalised_later_equals_the_view_computed_for_the_viewer() {
    let viewer = caller;
    let check = |t: &T| {
        let shared = t.s.shared_view(5, 3);
        for who in [None, Some(viewer(HOST)), Some(viewer(GUEST)), Some(viewer(STRANGER))] {
            for later in [0, 1_500, 61_000] {
                let mut v = shared.clone();
                t.s.personalise(&mut v, who.as_ref(), t.now + later);
                let direct = t.s.view(5, who.as_ref(), t.now + later, 3);
                assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&direct).unwrap());
            }
        }
    };
    let mut t = T::started(space_box(5));
    t.play(HOST, at(3, 3, 3));
    t.advance(2_000);
    check(&t);
    assert!(t.s.view(5, Some(&viewer(GUEST)), t.now, 3).hints.is_some(), "hints for the player to move");
    let mut t = T::space_scoring();
    check(&t);
    t.ok(HOST, Command::Mark { at: at(1, 1, 1), kind: MarkKind::Dead });
    check(&t);
}

/// A browser that applies the moves, acknowledgements, passes and illegal attempts it is
/// sent (each commit's fields with its last event) holds exactly the view the server would
/// send it — a spectator's and each player's (with the hints of the player to move), on a
/// flat board (with a capture) and in a box.
#[test]
fn a_view_kept_by_applying_live_events_is_the_servers_view() {
    use wire::{
        live_view::{applied_in_browser, LiveFields},
        view::RoomView,
    };
    let sorted = |mut v: RoomView| {
        v.stones.sort_by_key(|(p, _)| (p.x, p.y, p.z));
        v
    };
    for (settings, z) in [(classic9(), 1), (space_box(3), 2)] {
        let mut t = T::started(settings);
        let viewers = [None, Some(caller(HOST)), Some(caller(GUEST))];
        let mut kept: Vec<RoomView> = viewers.iter().map(|v| t.s.view(1, v.as_ref(), t.now, 0)).collect();
        // Black 2,1 and 1,2 (on the flat board: taking White's 1,1); White tries the
        // occupied 2,1, then passes.
        let script = [
            (HOST, Command::Move { at: at(2, 1, z) }),
            (GUEST, Command::Acknowledge { move_number: 1 }),
            (GUEST, Command::Move { at: at(1, 1, z) }),
            (HOST, Command::Acknowledge { move_number: 2 }),
            (HOST, Command::Move { at: at(1, 2, z) }),
            (GUEST, Command::Acknowledge { move_number: 3 }),
            (GUEST, Command::Move { at: at(2, 1, z) }),
            (GUEST, Command::Pass),
            (HOST, Command::Acknowledge { move_number: 4 }),
            (HOST, Command::Move { at: at(3, 3, z) }),
        ];
        for (who, command) in script {
            t.now += 1_500;
            let from = t.log.len();
            let _ = t.cmd(who, command.clone());
            let new = t.log[from..].to_vec();
            assert!(!new.is_empty(), "{command:?} made no event");
            for (i, e) in new.iter().enumerate() {
                assert!(applied_in_browser(&e.event), "{:?} is not applied in the browser", e.event);
                // Both players watch: the hints come along.
                let fields = (i + 1 == new.len()).then(|| t.s.live_fields(t.now, true));
                for view in &mut kept {
                    if let Some(f) = &fields {
                        assert!(!f.lacks_hints_for(view));
                    }
                    view.apply_live(&e.event, fields.clone());
                }
            }
            for (view, viewer) in kept.iter().zip(&viewers) {
                let server = t.s.view(1, viewer.as_ref(), t.now, 0);
                // What a reconnecting stream sends from this view: the commit's own fields.
                let fields = t.s.live_fields(t.now, server.hints.is_some());
                assert_eq!(LiveFields::from_view(&server), fields, "after {command:?}, seen by {viewer:?}");
                assert_eq!(sorted(view.clone()), sorted(server), "after {command:?}, seen by {viewer:?}");
            }
            // Without the hints (the player to move not watching), that player's page asks.
            let bare = t.s.live_fields(t.now, false);
            let mover = if t.s.to_move() == kept[1].your_colour.unwrap() { &kept[1] } else { &kept[2] };
            assert!(bare.lacks_hints_for(mover) && !bare.lacks_hints_for(&kept[0]));
        }
        let kept = &kept[0];
        // On the flat board 1,1 has two neighbours, both Black's; in the box it has four.
        assert_eq!(kept.captures[Colour::Black], u32::from(z == 1), "Black took a stone on the flat board");
        assert_eq!(kept.illegal_attempts, 1);
    }
}
