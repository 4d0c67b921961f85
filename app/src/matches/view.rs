//! What a viewer is told about a room right now (a full state, sent on request or to a
//! reconnecting client too far behind). Built on the server, shared with the browser.

use serde::{Deserialize, Serialize};

use super::{events::{Colour, Xyz}, settings::MatchSettings};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomView {
    pub room_id: i64,
    /// The room's version: the number of the last event included.
    pub version: i64,
    pub name: String,
    /// "open", "waiting_ready", "playing", "scoring", "finished".
    pub phase: String,
    pub settings: MatchSettings,
    /// User names in the first and second seat.
    pub seats: [Option<String>; 2],
    pub confirmed: [bool; 2],
    /// User name playing Black and White, once started.
    pub black: Option<String>,
    pub white: Option<String>,
    /// Ready flags (Black, White).
    pub ready: [bool; 2],
    pub to_move: Colour,
    pub move_number: u32,
    pub stones: Vec<(Xyz, Colour)>,
    /// Stones captured by Black and by White.
    pub captures: [u32; 2],
    /// The colour whose device must still acknowledge a move, and the move's number.
    pub awaiting_ack: Option<(Colour, u32)>,
    pub illegal_attempts: u32,
}

#[cfg(feature = "ssr")]
impl RoomView {
    pub fn of(room_id: i64, s: &super::state::MatchState) -> RoomView {
        let g = &s.game;
        let geometry = g.geometry();
        let stones = geometry
            .points()
            .filter_map(|p| {
                let c = g.stone_at(p)?;
                let xyz = geometry.coords_of(p)?;
                Some((Xyz { x: xyz.x, y: xyz.y, z: xyz.z }, c.into()))
            })
            .collect();
        let name_of = |c: Colour| s.black.map(|b| if c == Colour::Black { b } else { b.other() })
            .and_then(|seat| s.seats[seat.index()].as_ref().map(|h| h.username.clone()));
        RoomView {
            room_id,
            version: s.version,
            name: s.name.clone(),
            phase: serde_json::to_value(s.phase).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
            settings: s.settings.clone(),
            seats: [0, 1].map(|i| s.seats[i].as_ref().map(|h| h.username.clone())),
            confirmed: s.confirmed,
            black: name_of(Colour::Black),
            white: name_of(Colour::White),
            ready: s.ready,
            to_move: s.to_move(),
            move_number: g.move_number(),
            stones,
            captures: [g.captures(engine::Color::Black), g.captures(engine::Color::White)],
            awaiting_ack: s.awaiting_ack,
            illegal_attempts: s.illegal_attempts,
        }
    }
}
