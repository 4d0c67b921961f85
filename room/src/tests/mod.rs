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
    /// Both seated and confirmed at time 0, nobody ready yet.
    fn confirmed(settings: MatchSettings) -> T {
        settings.validate().expect("valid settings");
        let first = Event::RoomCreated { name: "t".into(), settings: settings.clone(), created_by: HOST };
        let s = MatchState::new("t".into(), settings, HOST, secrets()).unwrap();
        let mut t = T { s, now: 0, log: vec![StoredEvent { seq: 1, at_ms: 0, actor: None, event: first }] };
        t.s.version = 1;
        t.ok(HOST, Command::Join { code: "code-a".into() });
        t.ok(GUEST, Command::Join { code: "code-b".into() });
        t.ok(HOST, Command::Confirm);
        t.ok(GUEST, Command::Confirm);
        t
    }

    /// Both seated, confirmed and ready at time 0.
    fn started(settings: MatchSettings) -> T {
        let mut t = T::confirmed(settings);
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

mod clocks_and_faults;
mod draws_roles_restarts;
mod scoring;
mod undo;
mod views;
