//! Who sits where: the seats' occupants, the accounts approved to read the record, and the
//! state's questions about seats and colours (whose turn a command speaks for, 003 §1.2).

use serde::{Deserialize, Serialize};

use super::*;

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
    pub approved: ByColour<bool>,
}

impl MatchState {
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
    /// command acts for the colour whose turn it is for that command: the
    /// colour to move plays, the mover asks to undo and the other answers, readiness and
    /// consents go to the first colour still without them.
    pub(super) fn acting_seat(&self, user_id: i64, cmd: &Command) -> Option<Seat> {
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
    pub(super) fn colour_in_turn(&self, cmd: &Command) -> Option<Colour> {
        use Command::*;
        let both = [Colour::Black, Colour::White];
        let to_move = self.to_move();
        Some(match cmd {
            Ready => both.into_iter().find(|c| !self.ready_flags()[*c]).unwrap_or(to_move),
            Acknowledge { .. } => self.awaiting_ack.map_or(to_move, |(c, _)| c),
            // 003 §5.1: the player who made the latest stone move asks; the other answers.
            RequestUndo => opponent(to_move),
            AnswerUndo { .. } => self.undo.map_or(to_move, |u| opponent(u.colour)),
            CancelUndo => self.undo.map_or(to_move, |u| u.colour),
            AnswerDraw { .. } => self.draw.pending_by.map_or(to_move, opponent),
            CancelDrawOffer => self.draw.pending_by.unwrap_or(to_move),
            CancelScoringRequest => both.into_iter().find(|c| self.scoring_requests[*c].is_some()).unwrap_or(to_move),
            RequestScoring => both.into_iter().find(|c| self.scoring_requests[*c].is_none()).unwrap_or(to_move),
            Consent { .. } => match self.scoring() {
                Some(sc) => both.into_iter().find(|c| sc.consents[*c] != Some(sc.statement)).unwrap_or(to_move),
                None => to_move,
            },
            WithdrawConsent => match self.scoring() {
                Some(sc) => both.into_iter().find(|c| sc.consents[*c].is_some()).unwrap_or(to_move),
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
}
