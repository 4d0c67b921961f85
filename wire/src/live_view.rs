//! What the frequent events change in a room's view, sent with them on the live stream so
//! that a browser — a spectator's or a player's — keeps its view itself instead of asking
//! for the whole of it after every event (as lila-ws's versioned events do). A move,
//! an acknowledgement, a pass and an illegal attempt are applied this way; after anything
//! else, or a gap in the event numbers, the browser asks for the view as before. The one
//! personal part of a player's view that these events change, the hints of the player to
//! move (000 §8.3), comes with them while that player watches: they are no secret (anyone
//! can work them out from the position), and they are computed once per commit.
//!
//! The fields go with every event a room publishes, so `LiveFields::of` reads the game's
//! last move and its last move since play resumed from the end (`Game::last_move`,
//! `last_move_since_resumption`): copying the move list — thousands of moves in a 19³ game —
//! twice per event was 7% of the server's CPU under load (figures: docs/performance.md,
//! "Where the server's time goes").

use serde::{Deserialize, Serialize};

use crate::ByColour;

use super::{
    clocks::ClockView,
    commands::RoomPhase,
    events::{Attention, Colour, Event, HoldReason, Xyz},
    view::{FaultView, Hints, PendingUndo, RoomView},
};

/// The view's fields that those events change. Sent with the last event of each commit (the
/// state after all of that commit's events); on a spectator's paced stream only with the last
/// event of each write, which may hold several commits. Fields that are `None` (most, most of the
/// time) are left out of the text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveFields {
    pub version: i64,
    pub server_time_ms: i64,
    pub phase: RoomPhase,
    pub to_move: Colour,
    pub move_number: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<Xyz>,
    pub captures: ByColour<u32>,
    pub clocks: ClockView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awaiting_ack: Option<(Colour, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<PendingUndo>,
    pub undos_used: ByColour<u32>,
    pub scoring_requests: ByColour<Option<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer_by: Option<Colour>,
    pub faults: ByColour<Option<FaultView>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<HoldReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_since_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<Attention>,
    pub illegal_attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_pass_by: Option<Colour>,
    /// The hints of the player to move, while in play and that player's page is connected
    /// (`None` otherwise: a player's page without them asks for its view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Hints>,
}

/// Whether a browser applies `e` itself (with the fields that come with it).
pub fn applied_in_browser(e: &Event) -> bool {
    matches!(
        e,
        Event::MovePlayed { .. } | Event::MoveAcknowledged { .. } | Event::Passed { .. } | Event::IllegalAttempt { .. }
    )
}

impl LiveFields {
    /// The fields as `view` holds them (the inverse of [`LiveFields::write_into`]): sent with
    /// the last event of a reconnecting stream's gap when the view is at that event, so the
    /// page's turn and clocks are current without asking for the view.
    pub fn from_view(view: &RoomView) -> LiveFields {
        LiveFields {
            version: view.version,
            server_time_ms: view.server_time_ms,
            phase: view.phase,
            to_move: view.to_move,
            move_number: view.move_number,
            last_move: view.last_move,
            captures: view.captures,
            clocks: view.clocks.clone(),
            awaiting_ack: view.awaiting_ack,
            undo: view.undo.clone(),
            undos_used: view.undos_used,
            scoring_requests: view.scoring_requests,
            draw_offer_by: view.draw_offer_by,
            faults: view.faults.clone(),
            hold: view.hold.clone(),
            hold_since_ms: view.hold_since_ms,
            attention: view.attention,
            illegal_attempts: view.illegal_attempts,
            last_pass_by: view.last_pass_by,
            hints: view.hints.clone(),
        }
    }

    /// Writes these fields into `view`; the hints only into the view of the player to move.
    pub fn write_into(self, view: &mut RoomView) {
        let LiveFields {
            version,
            server_time_ms,
            phase,
            to_move,
            move_number,
            last_move,
            captures,
            clocks,
            awaiting_ack,
            undo,
            undos_used,
            scoring_requests,
            draw_offer_by,
            faults,
            hold,
            hold_since_ms,
            attention,
            illegal_attempts,
            last_pass_by,
            hints,
        } = self;
        view.version = version;
        view.server_time_ms = server_time_ms;
        view.phase = phase;
        view.to_move = to_move;
        view.move_number = move_number;
        view.last_move = last_move;
        view.captures = captures;
        view.clocks = clocks;
        view.awaiting_ack = awaiting_ack;
        view.undo = undo;
        view.undos_used = undos_used;
        view.scoring_requests = scoring_requests;
        view.draw_offer_by = draw_offer_by;
        view.faults = faults;
        view.hold = hold;
        view.hold_since_ms = hold_since_ms;
        view.attention = attention;
        view.illegal_attempts = illegal_attempts;
        view.last_pass_by = last_pass_by;
        let to_me = view.your_colour == Some(to_move) && phase == RoomPhase::Playing;
        view.hints = hints.filter(|_| to_me);
    }

    /// Whether `view` (after these fields) lacks the hints its player should see: then the
    /// browser asks for the view.
    pub fn lacks_hints_for(&self, view: &RoomView) -> bool {
        view.your_colour == Some(self.to_move) && self.phase == RoomPhase::Playing && self.hints.is_none()
    }
}

impl RoomView {
    /// Applies an event that [`applied_in_browser`] accepts: its stones at once, and the
    /// fields when they come (with the last event of a commit).
    pub fn apply_live(&mut self, e: &Event, fields: Option<LiveFields>) {
        if let Event::MovePlayed { colour, at, captured, .. } = e {
            self.stones.retain(|(p, _)| !captured.contains(p));
            self.stones.push((*at, *colour));
        }
        if let Some(f) = fields {
            f.write_into(self);
        }
    }
}
