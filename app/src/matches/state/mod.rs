//! A room's state and the rules of the match procedure. Pure: no I/O, no clock reads — the
//! caller passes the server's receipt time. `handle` validates a command against the state
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
//! Submodules hold the procedures: `play` (moves, passes, undo, draw offers, scoring
//! requests), `scoring` (marks, statements, consents, rulings), `timers` (deadlines and
//! presence), `admin` (holds, resumption, decisions).

mod admin;
mod computer;
mod conduct;
mod fold;
mod geometries;
mod play;
mod referee;
mod scoring;
mod seating;
#[cfg(test)]
mod tests;
mod timers;

use serde::{Deserialize, Serialize};

pub use super::commands::{
    Command, DrawRefusal, MarkProblem, MatchError, PendingKind, PhaseNeeded, Requester, RoomPhase, UndoRefusal,
    REASONS_LEN,
};
use super::{
    clocks::MatchClocks,
    events::{
        Attention, Colour, Event, FaultCause, FilledBy, HoldReason, Mark, RoomSecrets, ScoreSummary, Seat, StoredEvent,
        Xyz,
    },
    settings::{ColourAssignment, MatchRules, MatchSettings},
};
pub use computer::ComputerStep;
pub use timers::{ACK_TIMEOUT_MS, READINESS_WAIT_MS, UNDO_ANSWER_MS};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatHolder {
    pub user_id: i64,
    pub username: String,
}

/// Who holds a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occupant {
    /// A signed-in account, seated by invitation or as the creator.
    Person(SeatHolder),
    /// A person on the account `host`'s device (003 §1.2; practice, 003 §11.3): `host`
    /// acts for them.
    Guest { host: i64, name: String },
    /// The basic computer (003 §11.4); it acts only through the actor's computer player.
    Computer,
}

impl Occupant {
    /// The account that acts for this seat, if a person does.
    pub fn account(&self) -> Option<i64> {
        match self {
            Occupant::Person(h) => Some(h.user_id),
            Occupant::Guest { host, .. } => Some(*host),
            Occupant::Computer => None,
        }
    }

    /// The name shown for the seat (the computer's is rendered by the page from the mode).
    pub fn name(&self) -> &str {
        match self {
            Occupant::Person(h) => &h.username,
            Occupant::Guest { name, .. } => name,
            Occupant::Computer => COMPUTER_NAME,
        }
    }
}

/// The seat name of the basic computer in views and records (an identifier; pages show a
/// sentence from the catalogue with the model instead).
pub const COMPUTER_NAME: &str = "computer";

/// An account approved to read the stored record, by id (its name as approved, for the
/// view), with each colour's approval (Black, White): both are needed (003 §8.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordViewer {
    pub user_id: i64,
    pub username: String,
    pub approved: [bool; 2],
}

/// The result of handling a command: events to store (possibly even when refused: an
/// illegal attempt is recorded, 003 §2.5) and the answer for the caller.
#[derive(Debug)]
pub struct Decision {
    pub events: Vec<Event>,
    pub outcome: Result<(), MatchError>,
}

impl Decision {
    fn refuse(e: MatchError) -> Self {
        Decision { events: Vec::new(), outcome: Err(e) }
    }
}

/// A pending undo request (003 §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoRequest {
    pub colour: Colour,
    pub move_number: u32,
    /// Moves an acceptance takes back (2 only in Classic, 000 §8.2).
    pub plies: u8,
    pub since_ms: i64,
}

/// A player's connection fault (003 §5.6, §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub cause: FaultCause,
    pub since_ms: i64,
}

/// Classic draw offers (000 §8.1 `draw`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawState {
    pub pending_by: Option<Colour>,
    /// Moves and passes played by each colour.
    pub plays: [u32; 2],
    /// `plays` of the offerer when their last offer was declined.
    pub declined_at: [Option<u32>; 2],
}

/// The counting phase (003 §3.4–3.7, §4.5–4.6; 000 §5.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoringState {
    pub started_ms: i64,
    pub marks: Vec<Mark>,
    /// The latest statement's number and content.
    pub statement: u64,
    pub score: ScoreSummary,
    /// The statement number each player consented to.
    pub consents: [Option<u64>; 2],
    /// The scoring-wait notice was sent (Space, 003 §10.2).
    pub alerted: bool,
}

impl ScoringState {
    /// Counting entered at `t`, before its first statement (which follows at once).
    fn entered(t: i64) -> ScoringState {
        ScoringState {
            started_ms: t,
            marks: Vec::new(),
            statement: 0,
            score: scoring::engine_fallback_summary(),
            consents: [None, None],
            alerted: false,
        }
    }
}

/// Waiting for both players' Ready (003 §1.6, §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readiness {
    /// Ready flags by colour (Black, White).
    pub ready: [bool; 2],
    /// Since when both players' readiness is awaited.
    pub since_ms: i64,
    /// The administrator was told the wait is long (003 §1.6).
    pub alerted: bool,
}

/// Where the room stands, with what exists only there. The wire names it by [`RoomPhase`]
/// ([`MatchState::phase`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Open,
    WaitingReady(Readiness),
    Playing,
    Scoring(ScoringState),
    /// Held for the administrator; `scoring` is the counting it interrupted, if any (it
    /// goes on when resumed; otherwise play waits for both players' Ready).
    Held {
        reason: HoldReason,
        scoring: Option<ScoringState>,
        since_ms: i64,
    },
    /// Review required: both consented to the statement in `scoring`, which waits for the
    /// administrator (003 §2.7). A player may still withdraw their consent.
    AwaitingReview(ScoringState),
    /// `scoring`: the counting the game ended in or after, if any (shown with the result).
    Finished {
        scoring: Option<ScoringState>,
    },
    /// Closed by its creator before play.
    Cancelled,
}

impl Phase {
    pub fn name(&self) -> RoomPhase {
        match self {
            Phase::Open => RoomPhase::Open,
            Phase::WaitingReady(_) => RoomPhase::WaitingReady,
            Phase::Playing => RoomPhase::Playing,
            Phase::Scoring(_) => RoomPhase::Scoring,
            Phase::Held { .. } => RoomPhase::Held,
            Phase::AwaitingReview(_) => RoomPhase::AwaitingReview,
            Phase::Finished { .. } => RoomPhase::Finished,
            Phase::Cancelled => RoomPhase::Cancelled,
        }
    }

    fn scoring(&self) -> Option<&ScoringState> {
        match self {
            Phase::Scoring(s)
            | Phase::AwaitingReview(s)
            | Phase::Held { scoring: Some(s), .. }
            | Phase::Finished { scoring: Some(s) } => Some(s),
            _ => None,
        }
    }

    fn scoring_mut(&mut self) -> Option<&mut ScoringState> {
        match self {
            Phase::Scoring(s)
            | Phase::AwaitingReview(s)
            | Phase::Held { scoring: Some(s), .. }
            | Phase::Finished { scoring: Some(s) } => Some(s),
            _ => None,
        }
    }

    /// Moves the counting out of this phase (which keeps whatever else it holds).
    fn take_scoring(&mut self) -> Option<ScoringState> {
        match std::mem::replace(self, Phase::Open) {
            Phase::Scoring(s) | Phase::AwaitingReview(s) => Some(s),
            Phase::Held { reason, scoring, since_ms } => {
                *self = Phase::Held { reason, scoring: None, since_ms };
                scoring
            }
            Phase::Finished { scoring } => {
                *self = Phase::Finished { scoring: None };
                scoring
            }
            other => {
                *self = other;
                None
            }
        }
    }
}

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
    pub undos_used: [u32; 2],
    /// Move number at which each colour asked to count (003 §2.7).
    pub scoring_requests: [Option<u32>; 2],
    pub draw: DrawState,
    pub next_statement: u64,
    pub faults: [Option<Fault>; 2],
    /// An outstanding notice to the administrator.
    pub attention: Option<Attention>,
    /// Accounts approved to read the stored record, by id, in order of first approval
    /// (003 §8.1).
    pub record_viewers: Vec<RecordViewer>,
    pub illegal_attempts: u32,
    /// Opinions, rulings, objections, reviews and corrections (shown to everyone watching).
    pub referee: super::referee::RefereeRecord,
    /// The event that ended the game.
    pub ended: Option<Event>,
    pub last_event: Option<Event>,
    pub last_event_ms: i64,
    /// A decided event failed to apply: this state must be rebuilt from the log.
    pub poisoned: bool,
}

/// Replay found an event that does not fit the state: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {why}")]
pub struct ReplayError {
    pub seq: i64,
    pub why: String,
}

pub(crate) fn colour_index(c: Colour) -> usize {
    super::clocks::index(c)
}

pub(crate) fn opponent(c: Colour) -> Colour {
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

pub use crate::data::sha256_hex;

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
    /// Rebuilds a room from its stored log as far as it replays (003 §6.2): a log that
    /// fails at event `seq` (unreadable there, `damage`, or not applying) gives the room as
    /// the events before it left it, held as a damaged record until an administrator
    /// repairs it; its version stays the log's last (`last_seq`) so that the repair is
    /// appended after everything stored. Only a log without its first event fails.
    pub fn replay_checked(
        events: &[StoredEvent],
        secrets: RoomSecrets,
        damage: Option<(i64, String)>,
        last_seq: i64,
        now: i64,
    ) -> Result<MatchState, ReplayError> {
        let (mut state, failure) = Self::replay_prefix(events, secrets)?;
        let Some((seq, why)) = failure.or(damage) else {
            return Ok(state);
        };
        let scoring = state.phase.take_scoring();
        state.clocks.pause(state.last_event_ms);
        state.phase = Phase::Held { reason: HoldReason::DamagedRecord { seq, why }, scoring, since_ms: now };
        state.version = last_seq.max(state.version);
        Ok(state)
    }

    /// The room's secrets, to rebuild an earlier moment of it from its log (a replay).
    pub(in crate::matches) fn secrets_for_replay(&self) -> RoomSecrets {
        self.secrets.clone()
    }

    /// Rebuilds a room from its stored events (the first must be `RoomCreated`).
    pub fn replay(events: &[StoredEvent], secrets: RoomSecrets) -> Result<MatchState, ReplayError> {
        match Self::replay_prefix(events, secrets)? {
            (state, None) => Ok(state),
            (_, Some((seq, why))) => Err(ReplayError { seq, why }),
        }
    }

    /// The room as far as its events replay, and where and why replay stopped. Events a
    /// later `RecordRepaired` set aside are skipped.
    fn replay_prefix(
        events: &[StoredEvent],
        secrets: RoomSecrets,
    ) -> Result<(MatchState, Option<(i64, String)>), ReplayError> {
        let first = events.first().ok_or(ReplayError { seq: 0, why: "empty log".into() })?;
        let Event::RoomCreated { name, settings, created_by } = &first.event else {
            return Err(ReplayError { seq: first.seq, why: "log does not start with room_created".into() });
        };
        let mut state = MatchState::new(name.clone(), settings.clone(), *created_by, secrets)
            .map_err(|why| ReplayError { seq: first.seq, why })?;
        state.version = first.seq;
        state.last_event_ms = first.at_ms;
        let set_aside: Vec<(i64, i64)> = events
            .iter()
            .filter_map(|e| match e.event {
                Event::RecordRepaired { resume_after, .. } => Some((resume_after, e.seq)),
                _ => None,
            })
            .collect();
        for (i, e) in events.iter().enumerate().skip(1) {
            if set_aside.iter().any(|(after, repair)| e.seq > *after && e.seq < *repair) {
                continue;
            }
            let resumes =
                matches!(e.event, Event::RecordRepaired { resume_after, .. } if resume_after == state.version);
            if e.seq != state.version + 1 && !resumes {
                let why = format!("expected event {}", state.version + 1);
                return Ok((state, Some((e.seq, why))));
            }
            if let Err(why) = state.apply(&e.event, e.at_ms) {
                // The failed event may have changed part of the state: the room is what the
                // events before it make (replayed again; this is the rare path).
                let (before, _) = Self::replay_prefix(&events[..i], state.secrets.clone())?;
                return Ok((before, Some((e.seq, why))));
            }
            state.version = e.seq;
        }
        Ok((state, None))
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
            undos_used: [0, 0],
            scoring_requests: [None, None],
            draw: DrawState::default(),
            next_statement: 1,
            faults: [None, None],
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

    /// The (first) seat the account acts for.
    pub fn seat_of(&self, user_id: i64) -> Option<Seat> {
        self.seats_of(user_id).next()
    }

    /// Every seat the account acts for: both on one device and in practice.
    pub fn seats_of(&self, user_id: i64) -> impl Iterator<Item = Seat> + '_ {
        [Seat::First, Seat::Second]
            .into_iter()
            .filter(move |s| self.seats[s.index()].as_ref().and_then(Occupant::account) == Some(user_id))
    }

    /// The seats held by the computer (both in a program game).
    pub fn computer_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        [Seat::First, Seat::Second].into_iter().filter(|s| self.seats[s.index()] == Some(Occupant::Computer))
    }

    /// The colours the computer plays, once started.
    pub fn computer_colours(&self) -> impl Iterator<Item = Colour> + '_ {
        self.computer_seats().filter_map(|s| self.colour_of_seat(s))
    }

    /// The seat `user_id` acts for with `cmd`. Holding both seats (one device, practice), the
    /// command acts for the colour whose turn it is for that command (issue 13 §1): the
    /// colour to move plays, the mover asks to undo and the other answers, readiness and
    /// consents go to the first colour still without them.
    fn acting_seat(&self, user_id: i64, cmd: &Command) -> Option<Seat> {
        let mut seats = self.seats_of(user_id);
        let first = seats.next()?;
        let Some(second) = seats.next() else { return Some(first) };
        if matches!(cmd, Command::Confirm) {
            return Some(if self.confirmed[first.index()] { second } else { first });
        }
        let colour = self.colour_in_turn(cmd)?;
        self.seat_of_colour(colour)
    }

    /// For a command given on one screen for both colours: the colour it acts for.
    fn colour_in_turn(&self, cmd: &Command) -> Option<Colour> {
        use Command::*;
        let both = [Colour::Black, Colour::White];
        let to_move = self.to_move();
        Some(match cmd {
            Ready => both.into_iter().find(|c| !self.ready_flags()[colour_index(*c)]).unwrap_or(to_move),
            Acknowledge { .. } => self.awaiting_ack.map_or(to_move, |(c, _)| c),
            // 003 §5.1: the player who made the latest stone move asks; the other answers.
            RequestUndo => opponent(to_move),
            AnswerUndo { .. } => self.undo.map_or(to_move, |u| opponent(u.colour)),
            CancelUndo => self.undo.map_or(to_move, |u| u.colour),
            AnswerDraw { .. } => self.draw.pending_by.map_or(to_move, opponent),
            CancelDrawOffer => self.draw.pending_by.unwrap_or(to_move),
            CancelScoringRequest => {
                both.into_iter().find(|c| self.scoring_requests[colour_index(*c)].is_some()).unwrap_or(to_move)
            }
            RequestScoring => {
                both.into_iter().find(|c| self.scoring_requests[colour_index(*c)].is_none()).unwrap_or(to_move)
            }
            Consent { .. } => match self.scoring() {
                Some(sc) => {
                    both.into_iter().find(|c| sc.consents[colour_index(*c)] != Some(sc.statement)).unwrap_or(to_move)
                }
                None => to_move,
            },
            WithdrawConsent => match self.scoring() {
                Some(sc) => both.into_iter().find(|c| sc.consents[colour_index(*c)].is_some()).unwrap_or(to_move),
                None => to_move,
            },
            _ => to_move,
        })
    }

    /// The colour a viewer plays as the view shows it: on one screen for both colours, the
    /// colour in turn for the phase's main action (to move, to be ready, to consent).
    pub fn colour_shown_to(&self, user_id: i64) -> Option<Colour> {
        let mut seats = self.seats_of(user_id);
        let first = seats.next()?;
        if seats.next().is_none() {
            return self.colour_of_seat(first);
        }
        self.black?;
        let cmd = match self.phase {
            Phase::WaitingReady(_) => Command::Ready,
            Phase::Scoring(_) | Phase::AwaitingReview(_) => Command::Consent { statement: 0 },
            _ => Command::Pass,
        };
        self.colour_in_turn(&cmd)
    }

    pub fn seat_of_colour(&self, c: Colour) -> Option<Seat> {
        let b = self.black?;
        Some(if c == Colour::Black { b } else { b.other() })
    }

    pub fn colour_of_seat(&self, seat: Seat) -> Option<Colour> {
        self.black.map(|b| if b == seat { Colour::Black } else { Colour::White })
    }

    pub fn colour_of(&self, user_id: i64) -> Option<Colour> {
        self.seat_of(user_id).and_then(|s| self.colour_of_seat(s))
    }

    /// Who plays `c`, once started.
    pub fn holder_of(&self, c: Colour) -> Option<&Occupant> {
        self.seats[self.seat_of_colour(c)?.index()].as_ref()
    }

    /// The account that acts for `c` (the host for a guest; none for the computer).
    pub fn account_of(&self, c: Colour) -> Option<i64> {
        self.holder_of(c).and_then(Occupant::account)
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
    pub fn ready_flags(&self) -> [bool; 2] {
        match &self.phase {
            Phase::Open => [false, false],
            Phase::WaitingReady(r) => r.ready,
            _ => [true, true],
        }
    }

    /// Who may read and download the stored record (003 §8.1, §9.7): the players, the
    /// administrator, and users both players approved. Live viewing is open to all.
    pub fn may_read_record(&self, who: &Requester) -> bool {
        if who.is_admin() || self.seat_of(who.user_id).is_some() {
            return true;
        }
        // By account id only: never by a name, which another account may spell alike.
        self.record_viewers.iter().any(|v| v.user_id == who.user_id && v.approved == [true, true])
    }

    fn wrong_phase(&self, needed: PhaseNeeded) -> MatchError {
        MatchError::WrongPhase { phase: self.phase(), needed }
    }

    /// Play is suspended while either side's connection is faulty (003 §5.6, §6.1) — except
    /// a Classic disconnection, which stops nothing (000 §8.5).
    fn suspension(&self) -> Option<MatchError> {
        [Colour::Black, Colour::White].into_iter().find_map(|c| {
            self.faults[colour_index(c)]
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
        self.faults[colour_index(c)].is_some_and(|f| !self.fault_suspends(&f))
    }

    /// Validates `cmd` from `caller`, received at `now`. Accepted events are already applied
    /// to `self` on return.
    pub fn handle(&mut self, caller: &Requester, cmd: &Command, now: i64) -> Decision {
        // Moves and passes are validated by playing them on the engine (no second pass).
        if let Command::Move { .. } | Command::Pass = cmd {
            let colour = match self.acting_seat(caller.user_id, cmd) {
                None => return Decision::refuse(MatchError::NotAPlayer),
                Some(seat) => match self.colour_of_seat(seat) {
                    Some(c) => c,
                    None => return Decision::refuse(self.wrong_phase(PhaseNeeded::Playing)),
                },
            };
            let at = if let Command::Move { at } = cmd { Some(*at) } else { None };
            return self.play(colour, at, now);
        }
        let decided = self.decide(caller, cmd, now);
        match decided {
            Ok(Decision { events, outcome }) => self.accept(events, outcome, now),
            Err(e) => Decision::refuse(e),
        }
    }

    /// Validates `cmd` from the computer player for its seat playing `colour`: the same
    /// procedure, engine and events as a person's command (003 §11.4: "validated like a
    /// human").
    pub fn handle_computer(&mut self, colour: Colour, cmd: &Command, now: i64) -> Decision {
        let Some(seat) = self.computer_seats().find(|s| self.colour_of_seat(*s) == Some(colour)) else {
            return Decision::refuse(MatchError::NotAPlayer);
        };
        if let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() {
            return Decision::refuse(MatchError::RecordDamaged { seq: *seq });
        }
        if let Command::Move { .. } | Command::Pass = cmd {
            let at = if let Command::Move { at } = cmd { Some(*at) } else { None };
            return self.play(colour, at, now);
        }
        match self.decide_for_seat(seat, cmd, now) {
            Ok(Decision { events, outcome }) => self.accept(events, outcome, now),
            Err(e) => Decision::refuse(e),
        }
    }

    /// Decides a command's events without applying them (moves excepted: see `play`).
    fn decide(&mut self, caller: &Requester, cmd: &Command, now: i64) -> Result<Decision, MatchError> {
        use Command::*;
        match cmd {
            AdminHold { .. }
            | AdminResume { .. }
            | AdminRuling { .. }
            | AdminConfirmRuling { .. }
            | AdminConfirmStatement { .. }
            | AdminTimeLossDecision { .. }
            | AdminProposeCorrection { .. }
            | AdminCloseCorrection { .. }
            | AdminRepair { .. }
            | AdminDecide { .. }
            | AdminOpenAppeal { .. }
            | AdminDecideAppeal { .. } => {
                if !caller.is_admin() {
                    return Err(MatchError::AdminOnly);
                }
                return self.admin(cmd, now).map(ok);
            }
            // Names are resolved to accounts first: [`MatchState::sanction`].
            AdminSanction { .. } => return Err(MatchError::Internal),
            Join { code } => return self.join(caller, code).map(ok),
            TakeSeat => return self.take_seat(caller).map(ok),
            LeaveSeat => return self.leave_seat(caller).map(ok),
            CancelRoom => return self.cancel_room(caller).map(ok),
            // 003 §4.7: a player or an administrator refers an error.
            RequestCorrection { reasons } if caller.is_admin() && self.seat_of(caller.user_id).is_none() => {
                return self.request_correction(None, reasons).map(ok);
            }
            _ => {}
        }
        // A damaged log takes nothing but its repair (003 §6.2).
        if let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() {
            return Err(MatchError::RecordDamaged { seq: *seq });
        }
        // A spectator appeals too: the sanctioned person, seated or not (003 §6.6).
        if let Appeal { sanction, evidence } = cmd {
            return self.appeal(caller, *sanction, evidence, now).map(ok);
        }
        let seat = self.acting_seat(caller.user_id, cmd).ok_or(MatchError::NotAPlayer)?;
        self.decide_for_seat(seat, cmd, now)
    }

    /// Decides `cmd` given for `seat` (by its person, or by the computer player).
    fn decide_for_seat(&mut self, seat: Seat, cmd: &Command, now: i64) -> Result<Decision, MatchError> {
        use Command::*;
        if matches!(cmd, Confirm) {
            return self.confirm(seat).map(ok);
        }
        let colour = self.colour_of_seat(seat).ok_or_else(|| self.wrong_phase(PhaseNeeded::Started))?;
        match cmd {
            Join { .. }
            | TakeSeat
            | LeaveSeat
            | CancelRoom
            | Confirm
            | Move { .. }
            | Pass
            | AdminHold { .. }
            | AdminResume { .. }
            | AdminRuling { .. }
            | AdminConfirmRuling { .. }
            | AdminConfirmStatement { .. }
            | AdminTimeLossDecision { .. }
            | AdminProposeCorrection { .. }
            | AdminCloseCorrection { .. }
            | AdminRepair { .. }
            | AdminDecide { .. }
            | AdminSanction { .. }
            | AdminOpenAppeal { .. }
            | AdminDecideAppeal { .. }
            | Appeal { .. } => Err(MatchError::Internal),
            StateOpinion { at, opinion, reasons } => self.state_opinion(colour, *at, *opinion, reasons, now).map(ok),
            ObjectToRuling { reasons } => self.object_to_ruling(colour, reasons).map(ok),
            CallAdministrator { reason } => self.call_administrator(colour, reason).map(ok),
            ObjectToTimeLoss { reasons } => self.object_to_time_loss(colour, reasons, now).map(ok),
            RequestCorrection { reasons } => self.request_correction(Some(colour), reasons).map(ok),
            AnswerCorrection { accept } => self.answer_correction(colour, *accept).map(ok),
            Ready => self.ready(colour).map(ok),
            Acknowledge { move_number } => self.acknowledge(colour, *move_number).map(ok),
            Resign => self.resign(colour).map(ok),
            RequestUndo => self.request_undo(colour).map(ok),
            AnswerUndo { accept } => self.answer_undo(colour, *accept).map(ok),
            CancelUndo => self.cancel_undo(colour).map(ok),
            RequestScoring => self.request_scoring(colour).map(ok),
            CancelScoringRequest => self.cancel_scoring_request(colour).map(ok),
            OfferDraw => self.offer_draw(colour).map(ok),
            AnswerDraw { accept } => self.answer_draw(colour, *accept).map(ok),
            CancelDrawOffer => self.cancel_draw(colour).map(ok),
            Mark { at, kind } => self.mark(colour, *at, *kind).map(ok),
            Unmark { at } => self.unmark(colour, *at).map(ok),
            Consent { statement } => self.consent(colour, *statement).map(ok),
            WithdrawConsent => self.withdraw_consent(colour).map(ok),
            Dispute { reason } => self.dispute(colour, reason).map(ok),
            ResumePlay => self.continue_play(colour).map(ok),
            // Names are resolved to accounts first: [`MatchState::approve_record_viewer`].
            ApproveRecordViewer { .. } => Err(MatchError::Internal),
        }
    }

    /// Applies decided events. If one fails to apply (a bug), the state is marked
    /// `poisoned`: the owner rebuilds it from the stored log, which holds none of them.
    fn accept(&mut self, events: Vec<Event>, outcome: Result<(), MatchError>, now: i64) -> Decision {
        for e in &events {
            if let Err(why) = self.apply(e, now) {
                debug_assert!(false, "decided event failed to apply: {why}");
                self.poisoned = true;
                return Decision::refuse(MatchError::Internal);
            }
        }
        Decision { events, outcome }
    }

    fn wait_for_ready(&mut self, t: i64) {
        self.phase = Phase::WaitingReady(Readiness { ready: [false, false], since_ms: t, alerted: false });
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

    pub(crate) fn xyz(&self, p: engine::Point) -> Xyz {
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

fn ok(events: Vec<Event>) -> Decision {
    Decision { events, outcome: Ok(()) }
}

pub(crate) fn xyz_of(g: &engine::Geometry, p: engine::Point) -> Xyz {
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
