//! A room's state and the rules of the match procedure (003 §1.3–1.6, §2.4–2.7). Pure: no
//! I/O, no clock reads. `handle` validates a command against the state and yields the events
//! to store; `apply` folds a stored event into the state — the same path rebuilds a room
//! from its log after a restart, so replay and live play cannot disagree.

use serde::{Deserialize, Serialize};

use super::{
    events::{Colour, Event, HoldReason, Seat, StoredEvent, Xyz},
    settings::{ColourAssignment, MatchSettings},
};

/// Where a room stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomPhase {
    /// Seats filling and settings being confirmed (003 §1.3).
    Open,
    /// Colours fixed; waiting for both players' Ready (003 §1.6, §6.3).
    WaitingReady,
    Playing,
    /// Two passes: counting (003 §3.4–3.7; the scoring flow is not built yet).
    Scoring,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatHolder {
    pub user_id: i64,
    pub username: String,
}

/// Who sends a command: a signed-in user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub user_id: i64,
    pub username: String,
}

/// What a participant can ask of a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Take the seat that `code` invites to.
    Join { code: String },
    /// Accept the room's settings (both seats must).
    Confirm,
    /// My device shows the board; start (or resume) when both are ready.
    Ready,
    /// Place a stone at actual coordinates.
    Move { at: Xyz },
    /// My device displays move `move_number` (the opponent's move or pass).
    Acknowledge { move_number: u32 },
    Pass,
    Resign,
}

/// Why a command was refused. Client mistakes carry enough to correct them; `Internal`
/// hides server faults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum MatchError {
    #[error("no such room")]
    RoomNotFound,
    #[error("the invitation code is not valid for this room")]
    BadInviteCode,
    #[error("that seat is already taken")]
    SeatTaken,
    #[error("you already hold a seat in this room")]
    AlreadySeated,
    #[error("only the two seated players may do this")]
    NotAPlayer,
    #[error("not possible while the room is {phase:?}; needs {needed}")]
    WrongPhase { phase: RoomPhase, needed: String },
    #[error("already done")]
    AlreadyDone,
    #[error("it is {to_move:?}'s turn")]
    NotYourTurn { to_move: Colour },
    #[error("waiting for {colour:?}'s device to acknowledge move {move_number}")]
    AwaitingAcknowledgement { colour: Colour, move_number: u32 },
    #[error("nothing to acknowledge at move {move_number}")]
    NothingToAcknowledge { move_number: u32 },
    #[error("{at} is off the board; allowed x {x_range}, y {y_range}, z {z_range}")]
    OffBoard { at: Xyz, x_range: String, y_range: String, z_range: String },
    #[error("illegal move at {at}: {message}")]
    Illegal { at: Xyz, reason: String, message: String },
    #[error("internal error")]
    Internal,
}

/// The result of handling a command: events to store (possibly even when refused: an
/// illegal attempt is recorded, 003 §2.5) and the answer for the caller.
#[derive(Debug)]
pub struct Decision {
    pub events: Vec<Event>,
    pub outcome: Result<(), MatchError>,
}

impl Decision {
    fn ok(events: Vec<Event>) -> Self {
        Decision { events, outcome: Ok(()) }
    }
    fn refuse(e: MatchError) -> Self {
        Decision { events: Vec::new(), outcome: Err(e) }
    }
}

#[derive(Debug, Clone)]
pub struct MatchState {
    pub version: i64,
    pub name: String,
    pub settings: MatchSettings,
    pub created_by: i64,
    invite_sha256: [String; 2],
    pub seats: [Option<SeatHolder>; 2],
    pub confirmed: [bool; 2],
    /// Which seat plays Black, once started.
    pub black: Option<Seat>,
    /// Ready flags by colour (Black, White).
    pub ready: [bool; 2],
    pub phase: RoomPhase,
    pub game: engine::Game,
    /// After a move or pass: the colour whose device must acknowledge it, and its number.
    pub awaiting_ack: Option<(Colour, u32)>,
    pub illegal_attempts: u32,
    pub last_event: Option<Event>,
}

/// Replay found an event that does not fit the state: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {why}")]
pub struct ReplayError {
    pub seq: i64,
    pub why: String,
}

fn colour_index(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

pub fn sha256_hex(s: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

impl MatchState {
    /// Rebuilds a room from its stored events (the first must be `RoomCreated`).
    pub fn replay(events: &[StoredEvent]) -> Result<MatchState, ReplayError> {
        let first = events.first().ok_or(ReplayError { seq: 0, why: "empty log".into() })?;
        let Event::RoomCreated { name, settings, created_by, invite_sha256 } = &first.event else {
            return Err(ReplayError { seq: first.seq, why: "log does not start with room_created".into() });
        };
        let mut state = MatchState::new(name.clone(), settings.clone(), *created_by, invite_sha256.clone())
            .map_err(|why| ReplayError { seq: first.seq, why })?;
        state.version = first.seq;
        for e in &events[1..] {
            if e.seq != state.version + 1 {
                return Err(ReplayError { seq: e.seq, why: format!("expected event {}", state.version + 1) });
            }
            state.apply(&e.event).map_err(|why| ReplayError { seq: e.seq, why })?;
            state.version = e.seq;
        }
        Ok(state)
    }

    pub fn new(
        name: String,
        settings: MatchSettings,
        created_by: i64,
        invite_sha256: [String; 2],
    ) -> Result<MatchState, String> {
        let rules = settings.engine_rules().map_err(|e| e.to_string())?;
        let geometry = settings.geometry().map_err(|e| e.to_string())?;
        let game = engine::Game::new(geometry, rules).map_err(|e| e.to_string())?;
        Ok(MatchState {
            version: 0,
            name,
            settings,
            created_by,
            invite_sha256,
            seats: [None, None],
            confirmed: [false, false],
            black: None,
            ready: [false, false],
            phase: RoomPhase::Open,
            game,
            awaiting_ack: None,
            illegal_attempts: 0,
            last_event: None,
        })
    }

    pub fn seat_of(&self, user_id: i64) -> Option<Seat> {
        [Seat::First, Seat::Second]
            .into_iter()
            .find(|s| self.seats[s.index()].as_ref().is_some_and(|h| h.user_id == user_id))
    }

    pub fn colour_of_seat(&self, seat: Seat) -> Option<Colour> {
        self.black.map(|b| if b == seat { Colour::Black } else { Colour::White })
    }

    pub fn colour_of(&self, user_id: i64) -> Option<Colour> {
        self.seat_of(user_id).and_then(|s| self.colour_of_seat(s))
    }

    pub fn to_move(&self) -> Colour {
        self.game.to_move().into()
    }

    fn wrong_phase(&self, needed: &str) -> Decision {
        Decision::refuse(MatchError::WrongPhase { phase: self.phase, needed: needed.into() })
    }

    /// Validates `cmd` from `caller`. `nigiri_seed` is consumed only if this command starts the
    /// match with nigiri (the caller draws it from the OS and it is recorded in `Started`).
    /// Accepted events are already applied to `self` when this returns.
    pub fn handle(&mut self, caller: &Caller, cmd: &Command, nigiri_seed: u64) -> Decision {
        // Joining is the one command for someone without a seat.
        let seat = match (cmd, self.seat_of(caller.user_id)) {
            (Command::Join { code }, _) => return self.join(caller, code),
            (_, Some(seat)) => seat,
            (_, None) => return Decision::refuse(MatchError::NotAPlayer),
        };
        match cmd {
            Command::Join { .. } => Decision::refuse(MatchError::AlreadySeated),
            Command::Confirm => {
                if self.phase != RoomPhase::Open {
                    return self.wrong_phase("open");
                }
                if self.confirmed[seat.index()] {
                    return Decision::refuse(MatchError::AlreadyDone);
                }
                if self.seats.iter().any(Option::is_none) {
                    return self.wrong_phase("both seats taken");
                }
                let mut events = vec![Event::SettingsConfirmed { seat }];
                if self.confirmed[seat.other().index()] {
                    let (black, seed) = match self.settings.colours {
                        ColourAssignment::HostBlack => (Seat::First, None),
                        ColourAssignment::HostWhite => (Seat::Second, None),
                        ColourAssignment::Nigiri => (nigiri(nigiri_seed), Some(nigiri_seed)),
                    };
                    events.push(Event::Started { black, nigiri_seed: seed });
                }
                self.accept(events)
            }
            Command::Ready => {
                if self.phase != RoomPhase::WaitingReady {
                    return self.wrong_phase("waiting for ready");
                }
                let Some(colour) = self.colour_of_seat(seat) else { return Decision::refuse(MatchError::Internal) };
                if self.ready[colour_index(colour)] {
                    return Decision::refuse(MatchError::AlreadyDone);
                }
                let mut events = vec![Event::Ready { colour }];
                let other = if colour == Colour::Black { 1 } else { 0 };
                if self.ready[other] {
                    events.push(Event::PlayResumed);
                }
                self.accept(events)
            }
            Command::Move { at } => self.play(seat, Some(*at)),
            Command::Pass => self.play(seat, None),
            Command::Acknowledge { move_number } => {
                let Some(colour) = self.colour_of_seat(seat) else { return self.wrong_phase("started") };
                match self.awaiting_ack {
                    Some((c, n)) if c == colour && n == *move_number => {
                        self.accept(vec![Event::MoveAcknowledged { colour, move_number: n }])
                    }
                    _ => Decision::refuse(MatchError::NothingToAcknowledge { move_number: *move_number }),
                }
            }
            Command::Resign => {
                if !matches!(self.phase, RoomPhase::WaitingReady | RoomPhase::Playing | RoomPhase::Scoring) {
                    return self.wrong_phase("a started, unfinished game");
                }
                let Some(colour) = self.colour_of_seat(seat) else { return Decision::refuse(MatchError::Internal) };
                let result = engine::GameResult::resignation(colour.into());
                let (winner, reason, ko, en) = describe(&result);
                self.accept(vec![
                    Event::Resigned { colour },
                    Event::Ended { winner, reason, summary_ko: ko, summary_en: en },
                ])
            }
        }
    }

    fn join(&mut self, caller: &Caller, code: &str) -> Decision {
        if self.phase != RoomPhase::Open {
            return self.wrong_phase("open");
        }
        if self.seat_of(caller.user_id).is_some() {
            return Decision::refuse(MatchError::AlreadySeated);
        }
        let digest = sha256_hex(code.trim());
        let Some(seat) = [Seat::First, Seat::Second].into_iter().find(|s| self.invite_sha256[s.index()] == digest) else {
            return Decision::refuse(MatchError::BadInviteCode);
        };
        if self.seats[seat.index()].is_some() {
            return Decision::refuse(MatchError::SeatTaken);
        }
        self.accept(vec![Event::SeatTaken { seat, user_id: caller.user_id, username: caller.username.clone() }])
    }

    /// A stone move (`Some`) or a pass (`None`) by the player in `seat`.
    fn play(&mut self, seat: Seat, at: Option<Xyz>) -> Decision {
        if self.phase != RoomPhase::Playing {
            return self.wrong_phase("playing (both players ready)");
        }
        let Some(colour) = self.colour_of_seat(seat) else { return Decision::refuse(MatchError::Internal) };
        // 003 §5.5: no move is accepted until the opponent's device shows the previous one.
        if let Some((c, n)) = self.awaiting_ack {
            return Decision::refuse(MatchError::AwaitingAcknowledgement { colour: c, move_number: n });
        }
        if colour != self.to_move() {
            return Decision::refuse(MatchError::NotYourTurn { to_move: self.to_move() });
        }
        let mv = match at {
            None => engine::Move::Pass,
            Some(xyz) => match self.game.geometry().index_of(xyz.x, xyz.y, xyz.z) {
                Some(p) => engine::Move::Place(p),
                None => return Decision::refuse(self.off_board(xyz)),
            },
        };
        match self.game.play(colour.into(), mv) {
            Ok(outcome) => {
                let geometry = self.game.geometry().clone();
                let xyz_of = |p: engine::Point| {
                    geometry.coords_of(p).map(|c| Xyz { x: c.x, y: c.y, z: c.z }).unwrap_or(Xyz { x: 0, y: 0, z: 0 })
                };
                let mut events = vec![match at {
                    Some(at) => Event::MovePlayed {
                        colour,
                        at,
                        move_number: outcome.move_number,
                        captured: outcome.captured.iter().map(|p| xyz_of(*p)).collect(),
                    },
                    None => Event::Passed { colour, move_number: outcome.move_number },
                }];
                if outcome.phase == engine::Phase::Scoring {
                    events.push(Event::ScoringEntered);
                }
                if let Some(result) = &outcome.result {
                    let (winner, reason, ko, en) = describe(result);
                    events.push(Event::Ended { winner, reason, summary_ko: ko, summary_en: en });
                }
                // The engine already holds the move; record the rest of the bookkeeping.
                for e in &events {
                    self.note(e);
                }
                Decision::ok(events)
            }
            Err(illegal) => {
                let at = at.unwrap_or(Xyz { x: 0, y: 0, z: 0 });
                let event = Event::IllegalAttempt {
                    colour,
                    at,
                    reason: illegal.reason_word().to_string(),
                    message: illegal.to_string(),
                };
                self.note(&event);
                Decision {
                    events: vec![event],
                    outcome: Err(MatchError::Illegal {
                        at,
                        reason: illegal.reason_word().to_string(),
                        message: illegal.to_string(),
                    }),
                }
            }
        }
    }

    fn off_board(&self, at: Xyz) -> MatchError {
        let s = self.game.geometry().spec();
        MatchError::OffBoard {
            at,
            x_range: format!("{}..{}", s.x.start, s.x.end),
            y_range: format!("{}..{}", s.y.start, s.y.end),
            z_range: format!("{}..{}", s.z.start, s.z.end),
        }
    }

    fn accept(&mut self, events: Vec<Event>) -> Decision {
        for e in &events {
            if let Err(why) = self.apply(e) {
                // A decided event must always apply; refusing keeps state and log consistent.
                debug_assert!(false, "decided event failed to apply: {why}");
                return Decision::refuse(MatchError::Internal);
            }
        }
        Decision::ok(events)
    }

    /// Folds one stored event into the state, including its effect on the engine.
    pub fn apply(&mut self, e: &Event) -> Result<(), String> {
        match e {
            Event::MovePlayed { colour, at, .. } => {
                let p = self
                    .game
                    .geometry()
                    .index_of(at.x, at.y, at.z)
                    .ok_or_else(|| format!("{at} off the board"))?;
                self.game.play((*colour).into(), engine::Move::Place(p)).map_err(|e| e.to_string())?;
            }
            Event::Passed { colour, .. } => {
                self.game.play((*colour).into(), engine::Move::Pass).map_err(|e| e.to_string())?;
            }
            Event::Resigned { colour } => {
                self.game.resign((*colour).into()).map_err(|e| format!("{e:?}"))?;
            }
            _ => {}
        }
        self.note(e);
        Ok(())
    }

    /// Bookkeeping outside the engine.
    fn note(&mut self, e: &Event) {
        match e {
            Event::RoomCreated { .. } => {}
            Event::SeatTaken { seat, user_id, username } => {
                self.seats[seat.index()] = Some(SeatHolder { user_id: *user_id, username: username.clone() });
            }
            Event::SettingsConfirmed { seat } => self.confirmed[seat.index()] = true,
            Event::Started { black, .. } => {
                self.black = Some(*black);
                self.phase = RoomPhase::WaitingReady;
            }
            Event::Ready { colour } => self.ready[colour_index(*colour)] = true,
            Event::PlayResumed => self.phase = RoomPhase::Playing,
            Event::MovePlayed { colour, move_number, .. } | Event::Passed { colour, move_number } => {
                let opponent = if *colour == Colour::Black { Colour::White } else { Colour::Black };
                self.awaiting_ack = Some((opponent, *move_number));
            }
            Event::MoveAcknowledged { .. } => self.awaiting_ack = None,
            Event::IllegalAttempt { .. } => self.illegal_attempts += 1,
            Event::Resigned { .. } => {}
            Event::ScoringEntered => {
                self.phase = RoomPhase::Scoring;
                self.awaiting_ack = None;
            }
            Event::Held { .. } => {
                self.phase = RoomPhase::WaitingReady;
                self.ready = [false, false];
                self.awaiting_ack = None;
            }
            Event::Ended { .. } => {
                self.phase = RoomPhase::Finished;
                self.awaiting_ack = None;
            }
        }
        self.last_event = Some(e.clone());
    }

    /// Events to append when a server (re)starts with this room loaded: a game in play is
    /// held until both players are ready again (003 §6.1–6.3).
    pub fn on_restart(&mut self) -> Vec<Event> {
        if self.phase == RoomPhase::Playing || (self.phase == RoomPhase::WaitingReady && self.ready.iter().any(|r| *r)) {
            let e = Event::Held { reason: HoldReason::ServerRestart };
            self.note(&e);
            vec![e]
        } else {
            Vec::new()
        }
    }
}

/// Nigiri: which seat gets Black, drawn from a ChaCha stream seeded with `seed`
/// (recorded, so the draw can be replayed and audited).
pub fn nigiri(seed: u64) -> Seat {
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    if rng.next_u32() & 1 == 0 { Seat::First } else { Seat::Second }
}

fn describe(r: &engine::GameResult) -> (Option<Colour>, String, String, String) {
    (r.winner.map(Colour::from), format!("{:?}", r.reason).to_lowercase(), r.summary_ko(), r.summary_en())
}
