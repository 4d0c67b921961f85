//! What the room lists show of a room: the open challenges, the games anyone may watch and
//! each player's own games. Kept in the room's row and written in the same transaction as
//! the events that change it, so that a list is one query and needs no room loaded in
//! memory.

use serde::{Deserialize, Serialize};

use super::{
    commands::RoomPhase,
    events::{Colour, Seat},
    settings::{RoomAccess, TimeControl},
};

/// Who sits in a seat, as a list names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[serde(tag = "kind", rename_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(SeatLabelCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum SeatLabel {
    Person {
        username: String,
    },
    /// A person on the host's device (003 §1.2, §11.3).
    Guest {
        name: String,
    },
    Computer,
}

/// One room as the lists show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    pub access: RoomAccess,
    pub phase: RoomPhase,
    /// First seat (the creator's side) first; `None`: free.
    pub seats: [Option<SeatLabel>; 2],
    /// The seat playing Black, once colours are fixed.
    pub black: Option<Seat>,
    pub move_number: u32,
    pub to_move: Option<Colour>,
    pub time: TimeControl,
    pub komi_half_points: i32,
    pub komi_to: Colour,
    pub handicap: u32,
    pub scoring: engine::ScoringMethod,
    pub ko: engine::KoRule,
    /// The accounts the room waits for now: to confirm, to press Ready, to move or
    /// acknowledge, to answer a request, to consent to the statement.
    pub waiting_on: Vec<i64>,
    /// Every account seated (the host for a guest).
    pub players: Vec<i64>,
    /// Accounts both players approved to read the stored record (003 §8.1): the archive
    /// lists the game for them too. Absent in listings written before it existed.
    #[serde(default)]
    pub readers: Vec<i64>,
    pub result: Option<engine::GameResult>,
    /// The result is not settled: an objection, a correction or an appeal of a sanction
    /// that set it is under review (003 §4.7, §5.7, §6.6). Lists say so beside it.
    #[serde(default)]
    pub under_review: bool,
}

impl Listing {
    /// The name in the seat playing `c`, once colours are fixed.
    pub fn player(&self, c: Colour) -> Option<&SeatLabel> {
        let black = self.black?;
        let seat = if c == Colour::Black { black } else { black.other() };
        self.seats[seat.index()].as_ref()
    }

    /// The free seat of an open room, if it has one.
    pub fn free_seat(&self) -> Option<Seat> {
        [Seat::First, Seat::Second].into_iter().find(|s| self.seats[s.index()].is_none())
    }
}
