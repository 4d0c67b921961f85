//! What happens in a room, as an append-only sequence of events (lichess-style): the stored
//! log is the truth; a room's state is the fold of its events (see `state`).

use serde::{Deserialize, Serialize};

use super::settings::MatchSettings;

/// The two places at the table. Colours are fixed only at the start (nigiri or as agreed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The seat of the room's creator (the "host" of 000 §2 `hostBlack`/`hostWhite`).
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// Stone colour on the wire: "black" / "white".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    White,
}

impl From<engine::Color> for Colour {
    fn from(c: engine::Color) -> Self {
        match c {
            engine::Color::Black => Colour::Black,
            engine::Color::White => Colour::White,
        }
    }
}

impl From<Colour> for engine::Color {
    fn from(c: Colour) -> Self {
        match c {
            Colour::Black => engine::Color::Black,
            Colour::White => engine::Color::White,
        }
    }
}

/// Actual board coordinates (003 §7.1), as sent and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Xyz {
    pub x: i64,
    pub y: i64,
    pub z: i64,
}

impl std::fmt::Display for Xyz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.z)
    }
}

/// Why play is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HoldReason {
    /// The server restarted; every acknowledged action is intact (003 §6.1).
    ServerRestart,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoomCreated {
        name: String,
        settings: MatchSettings,
        created_by: i64,
        /// SHA-256 of each seat's invitation code (the codes themselves are shown once).
        invite_sha256: [String; 2],
    },
    SeatTaken { seat: Seat, user_id: i64, username: String },
    /// A seated player accepts the room's settings (003 §1.3). Both are needed to start.
    SettingsConfirmed { seat: Seat },
    /// Colours fixed. With nigiri, `nigiri_seed` is the ChaCha seed that drew them; it is
    /// recorded here and never sent to clients.
    Started { black: Seat, nigiri_seed: Option<u64> },
    /// A player's device shows the board and the player pressed Ready (003 §1.6, §6.3).
    Ready { colour: Colour },
    /// Both are ready: play (and, later, Black's clock) runs.
    PlayResumed,
    MovePlayed { colour: Colour, at: Xyz, move_number: u32, captured: Vec<Xyz> },
    /// Rejected by the rules: recorded and shown, not counted (003 §2.5).
    IllegalAttempt { colour: Colour, at: Xyz, reason: String, message: String },
    /// The opponent's device displays the move (003 §2.4, §5.5).
    MoveAcknowledged { colour: Colour, move_number: u32 },
    Passed { colour: Colour, move_number: u32 },
    Resigned { colour: Colour },
    /// Two consecutive passes: counting starts; clocks stop (003 §2.7).
    ScoringEntered,
    Held { reason: HoldReason },
    Ended { winner: Option<Colour>, reason: String, summary_ko: String, summary_en: String },
}

impl Event {
    /// The short name stored beside the JSON body (for queries and logs).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::RoomCreated { .. } => "room_created",
            Event::SeatTaken { .. } => "seat_taken",
            Event::SettingsConfirmed { .. } => "settings_confirmed",
            Event::Started { .. } => "started",
            Event::Ready { .. } => "ready",
            Event::PlayResumed => "play_resumed",
            Event::MovePlayed { .. } => "move_played",
            Event::IllegalAttempt { .. } => "illegal_attempt",
            Event::MoveAcknowledged { .. } => "move_acknowledged",
            Event::Passed { .. } => "passed",
            Event::Resigned { .. } => "resigned",
            Event::ScoringEntered => "scoring_entered",
            Event::Held { .. } => "held",
            Event::Ended { .. } => "ended",
        }
    }

    /// The form a viewer receives: secrets (RNG seed, invitation hashes) never leave the server.
    pub fn public_view(&self) -> Event {
        match self {
            Event::Started { black, .. } => Event::Started { black: *black, nigiri_seed: None },
            Event::RoomCreated { name, settings, created_by, .. } => Event::RoomCreated {
                name: name.clone(),
                settings: settings.clone(),
                created_by: *created_by,
                invite_sha256: [String::new(), String::new()],
            },
            e => e.clone(),
        }
    }
}

/// An event as stored: its number in the room's sequence (the room's version), when the
/// server accepted it, and who caused it (`None`: the server itself).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEvent {
    pub seq: i64,
    pub at_ms: i64,
    pub actor: Option<i64>,
    pub event: Event,
}

impl StoredEvent {
    pub fn public_view(&self) -> StoredEvent {
        StoredEvent { seq: self.seq, at_ms: self.at_ms, actor: self.actor, event: self.event.public_view() }
    }
}
