//! A room's state and the rules of the match procedure: the server's domain, apart from its
//! runtime. Pure: no I/O, no clock reads, no async, no OS randomness — the caller passes the
//! server's receipt time, and the nigiri's seed is stored with the room (`RoomSecrets`). `handle` validates a command against the state
//! and yields the events to store; `apply` folds a stored event into the state — the same
//! path rebuilds a room from its log after a restart, so replay and live play cannot
//! disagree. `tick` yields the events that time itself causes (clocks, waits).
//!
//! The state works from the validated [`MatchRules`] of its settings, never from the flat
//! [`MatchSettings`]: what only one preset agrees (byo-yomi, draw offers and the scoring
//! deadline in Classic; hours per side and the scoring-wait alert in Space) is reachable only
//! in that preset's branch. The flat settings for views and records are derived from the
//! rules ([`MatchState::settings`]).
//!
//! Submodules: `decide` (a command to its procedure), `fold` (`apply`), `replay` (from the
//! log), `seats` and `seating` (who sits where; joining and leaving), `phase` (what exists
//! only in one phase), and the procedures — `play` (moves, passes, undo, draw offers, scoring
//! requests), `scoring` (marks, statements, consents), `referee` (opinions, rulings,
//! objections, corrections), `conduct` (sanctions, appeals), `timers` (deadlines and
//! presence), `admin` (holds, resumption, decisions), `computer` (the computer seat's turn);
//! `projection` (the state as each reader sees it: views, live fields, list lines, the view
//! at an earlier event); `geometries` shares one board geometry per box shape; `digest`
//! (invitation codes are kept as digests).
//!
//! The app re-exports this crate as `app::matches::state`; `make test` checks that its
//! dependency tree holds no runtime crate (tokio, sqlx, axum, …).

mod admin;
mod computer;
mod conduct;
mod decide;
mod digest;
mod fold;
mod geometries;
mod phase;
mod play;
mod projection;
mod referee;
mod replay;
mod scoring;
mod seating;
mod seats;
#[cfg(test)]
mod tests;
mod timers;

use serde::Serialize;

pub use computer::ComputerStep;
pub use decide::Decision;
pub use phase::{DrawState, Fault, Phase, Readiness, ScoringState, UndoRequest};
pub use projection::ReplayedToError;
pub use replay::ReplayError;
pub use seats::{Occupant, RecordViewer, SeatHolder, COMPUTER_NAME};
pub use timers::{ACK_TIMEOUT_MS, READINESS_WAIT_MS, UNDO_ANSWER_MS};
pub use wire::commands::{
    Command, DrawRefusal, MarkProblem, MatchError, PendingKind, PhaseNeeded, Requester, RoomPhase, UndoRefusal,
    REASONS_LEN,
};
pub use wire::ByColour;
use wire::{
    clocks::MatchClocks,
    events::{
        Attention, Colour, Event, FaultCause, FilledBy, HoldReason, Mark, RoomSecrets, ScoreSummary, Seat, StoredEvent,
        Xyz,
    },
    settings::{ColourAssignment, MatchRules, MatchSettings},
};

/// Equality compares every field: live play and replay of its log must agree on all.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchState {
    pub version: i64,
    pub name: String,
    /// The validated settings (the flat form is [`MatchState::settings`]).
    pub rules: MatchRules,
    pub created_by: i64,
    secrets: RoomSecrets,
    pub seats: [Option<Occupant>; 2],
    pub confirmed: [bool; 2],
    /// Which seat plays Black, once started.
    pub black: Option<Seat>,
    /// Where the room stands, with the readiness wait, the counting or the hold in it.
    pub phase: Phase,
    pub game: engine::Game,
    pub clocks: MatchClocks,
    /// After a move or pass: the colour whose device must acknowledge it, its number, and
    /// since when (the ten seconds of 003 §5.6 count from there).
    pub awaiting_ack: Option<(Colour, u32)>,
    pub ack_since_ms: i64,
    pub undo: Option<UndoRequest>,
    /// The move number whose undo was refused or expired: not asked again (003 §5.2).
    pub undo_barred: Option<u32>,
    pub undos_used: ByColour<u32>,
    /// Move number at which each colour asked to count (003 §2.7).
    pub scoring_requests: ByColour<Option<u32>>,
    pub draw: DrawState,
    pub next_statement: u64,
    pub faults: ByColour<Option<Fault>>,
    /// An outstanding notice to the administrator.
    pub attention: Option<Attention>,
    /// Accounts approved to read the stored record, by id, in order of first approval
    /// (003 §8.1).
    pub record_viewers: Vec<RecordViewer>,
    pub illegal_attempts: u32,
    /// Opinions, rulings, objections, reviews and corrections (shown to everyone watching).
    pub referee: wire::referee::RefereeRecord,
    /// The event that ended the game.
    pub ended: Option<Event>,
    pub last_event: Option<Event>,
    pub last_event_ms: i64,
    /// A decided event failed to apply: this state must be rebuilt from the log.
    pub poisoned: bool,
}

pub fn opponent(c: Colour) -> Colour {
    match c {
        Colour::Black => Colour::White,
        Colour::White => Colour::Black,
    }
}

/// A room's phase, move and result: the "before" of an administrator's action in the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub phase: RoomPhase,
    pub move_number: u32,
    pub result: Option<engine::GameResult>,
    pub under_review: bool,
}

pub use digest::sha256_hex;

fn check_reasons(field: &str, s: &str) -> Result<String, MatchError> {
    let t = s.trim();
    let n = t.chars().count();
    if REASONS_LEN.contains(&n) {
        Ok(t.to_string())
    } else {
        Err(MatchError::InvalidInput {
            field: field.into(),
            min: *REASONS_LEN.start(),
            max: *REASONS_LEN.end(),
            got: n,
        })
    }
}

impl MatchState {
    /// The room's secrets, to rebuild an earlier moment of it from its log (a replay).
    pub(crate) fn secrets_for_replay(&self) -> RoomSecrets {
        self.secrets.clone()
    }

    pub fn new(
        name: String,
        settings: MatchSettings,
        created_by: i64,
        secrets: RoomSecrets,
    ) -> Result<MatchState, String> {
        let rules = settings.validate().map_err(|e| e.to_string())?;
        let geometry = geometries::shared(rules.board()).map_err(|e| e.to_string())?;
        let game = engine::Game::with_geometry(geometry, rules.engine_rules()).map_err(|e| e.to_string())?;
        let clocks = MatchClocks::new(rules.clock());
        Ok(MatchState {
            version: 0,
            name,
            rules,
            created_by,
            secrets,
            seats: [None, None],
            confirmed: [false, false],
            black: None,
            phase: Phase::Open,
            game,
            clocks,
            awaiting_ack: None,
            ack_since_ms: 0,
            undo: None,
            undo_barred: None,
            undos_used: ByColour::both(0),
            scoring_requests: ByColour::both(None),
            draw: DrawState::default(),
            next_statement: 1,
            faults: ByColour::both(None),
            attention: None,
            record_viewers: Vec::new(),
            illegal_attempts: 0,
            referee: Default::default(),
            ended: None,
            last_event: None,
            last_event_ms: 0,
            poisoned: false,
        })
    }

    /// The agreed settings in their flat wire and storage form, as stored with `RoomCreated`.
    pub fn settings(&self) -> MatchSettings {
        self.rules.settings()
    }

    pub fn to_move(&self) -> Colour {
        self.game.to_move()
    }

    /// The result, once the game ended.
    pub fn result(&self) -> Option<engine::GameResult> {
        match &self.ended {
            Some(Event::Ended { result, .. }) => Some(*result),
            _ => None,
        }
    }

    pub fn is_started(&self) -> bool {
        !matches!(self.phase, Phase::Open)
    }

    /// What an administrator's action may change, as the administrators' log keeps it from
    /// before the action (the action's event is the after).
    pub fn standing(&self) -> Standing {
        Standing {
            phase: self.phase(),
            move_number: self.game.move_number(),
            result: self.result(),
            under_review: self.referee.under_review(),
        }
    }

    /// Where the room stands, by its wire name.
    pub fn phase(&self) -> RoomPhase {
        self.phase.name()
    }

    /// The counting: in scoring, held during scoring, or finished after it.
    pub fn scoring(&self) -> Option<&ScoringState> {
        self.phase.scoring()
    }

    /// Why the room is held, while it is.
    pub fn hold(&self) -> Option<&HoldReason> {
        match &self.phase {
            Phase::Held { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// Since when the room is held, while it is.
    pub fn hold_since_ms(&self) -> Option<i64> {
        match &self.phase {
            Phase::Held { since_ms, .. } => Some(*since_ms),
            _ => None,
        }
    }

    /// The ready flags (Black, White) as the room view shows them: those of the current
    /// wait; none before the start; both once play began.
    pub fn ready_flags(&self) -> ByColour<bool> {
        match &self.phase {
            Phase::Open => ByColour::both(false),
            Phase::WaitingReady(r) => r.ready,
            _ => ByColour::both(true),
        }
    }

    /// Who may read and download the stored record (003 §8.1, §9.7): the players, the
    /// administrator, and users both players approved. Live viewing is open to all.
    pub fn may_read_record(&self, who: &Requester) -> bool {
        if who.is_admin() || self.seat_of(who.user_id).is_some() {
            return true;
        }
        // By account id only: never by a name, which another account may spell alike.
        self.record_viewers.iter().any(|v| v.user_id == who.user_id && v.approved.all(|a| *a))
    }

    fn wrong_phase(&self, needed: PhaseNeeded) -> MatchError {
        MatchError::WrongPhase { phase: self.phase(), needed }
    }

    /// Play is suspended while either side's connection is faulty (003 §5.6, §6.1) — except
    /// a Classic disconnection, which stops nothing (000 §8.5).
    fn suspension(&self) -> Option<MatchError> {
        [Colour::Black, Colour::White].into_iter().find_map(|c| {
            self.faults[c]
                .filter(|f| self.fault_suspends(f))
                .map(|f| MatchError::Suspended { colour: c, cause: f.cause })
        })
    }

    /// 000 §8.5: in Classic a closed connection neither stops the clocks nor the game; the
    /// absent player's clock runs and the game is lost at min(deadline, disconnection +
    /// grace). Every fault suspends a Space match (003 §5.6, §6.1), and an unacknowledged
    /// move suspends either preset.
    fn fault_suspends(&self, f: &Fault) -> bool {
        !(matches!(self.rules, MatchRules::Classic(_)) && f.cause == FaultCause::Disconnected)
    }

    /// A Classic player whose connection closed (000 §8.5).
    fn absent_in_classic(&self, c: Colour) -> bool {
        self.faults[c].is_some_and(|f| !self.fault_suspends(&f))
    }

    fn wait_for_ready(&mut self, t: i64) {
        self.phase = Phase::WaitingReady(Readiness { ready: ByColour::both(false), since_ms: t, alerted: false });
        self.awaiting_ack = self.awaiting_ack.filter(|_| self.game.phase() == engine::Phase::Playing);
    }

    /// The player to move's clock runs only in play, once the opponent's device shows the
    /// last move, with no undo question open and both connections sound (003 §5.2, §5.5,
    /// §6.1); it stops in every other state (003 §2.7, §4.4). A Classic player who left runs
    /// their clock without a device to acknowledge (000 §8.5).
    fn clock_should_run(&self) -> bool {
        matches!(self.phase, Phase::Playing)
            && (self.awaiting_ack.is_none() || self.absent_in_classic(self.to_move()))
            && self.undo.is_none()
            && self.faults.iter().flatten().all(|f| !self.fault_suspends(f))
    }

    fn sync_clocks(&mut self, t: i64) {
        if self.clock_should_run() {
            let c = self.to_move();
            self.clocks.run(c, t);
        } else {
            self.clocks.pause(t);
        }
    }

    /// Events to append when a server (re)starts with this room loaded: a game in play is
    /// held until both players are ready again (003 §6.1–6.3).
    pub fn on_restart(&mut self, now: i64) -> Vec<Event> {
        let waited_on = match &self.phase {
            Phase::Playing => true,
            Phase::WaitingReady(r) => r.ready.iter().any(|x| *x),
            _ => false,
        };
        if waited_on {
            let e = Event::Held { reason: HoldReason::ServerRestart };
            self.note(&e, now);
            vec![e]
        } else {
            Vec::new()
        }
    }

    pub fn xyz(&self, p: engine::Point) -> Xyz {
        xyz_of(self.game.geometry(), p)
    }

    pub(crate) fn point(&self, at: Xyz) -> Result<engine::Point, MatchError> {
        self.game.geometry().index_of(at.x, at.y, at.z).ok_or_else(|| self.off_board(at))
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
}

pub fn xyz_of(g: &engine::Geometry, p: engine::Point) -> Xyz {
    g.coords_of(p).map(|c| Xyz { x: c.x, y: c.y, z: c.z }).unwrap_or(Xyz { x: 0, y: 0, z: 0 })
}

/// Nigiri: which seat gets Black, drawn from a ChaCha stream seeded with `seed`
/// (recorded, so the draw can be replayed and audited).
pub fn nigiri(seed: u64) -> Seat {
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    if rng.next_u32() & 1 == 0 {
        Seat::First
    } else {
        Seat::Second
    }
}

/// The `Ended` event for an engine result.
pub(crate) fn ended(r: &engine::GameResult, score: Option<(u64, ScoreSummary)>) -> Event {
    let (statement, score) = match score {
        Some((n, s)) => (Some(n), Some(Box::new(s))),
        None => (None, None),
    };
    Event::Ended { result: *r, score, statement }
}
