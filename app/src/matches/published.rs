//! A committed event as the room's actor publishes it to every follower: one shared value
//! per event, not a copy per follower (a room may have thousands of viewers), and its wire
//! text made once — by the first stream that sends it — then shared by every socket. Twice at
//! most: with the view's fields, and without them for a write in which a later event's fields
//! supersede them. For packed messages (`wire::packed`) the event's packed text and the
//! fields' text, each once.

use std::sync::{Arc, OnceLock};

use axum::extract::ws::Utf8Bytes;

use wire::{events::StoredEvent, live_view::LiveFields};

#[derive(Debug)]
pub struct Published {
    pub stored: StoredEvent,
    /// With the last event of a commit, while anyone watches: what the view shows now, so
    /// that a browser applies the event without asking for the view.
    pub live: Option<LiveFields>,
    /// Milliseconds since the room's previous event (`seq − 1`), when the publisher knows it:
    /// a packed message takes an event without it only as its first.
    pub dt: Option<i64>,
    frame: OnceLock<Option<Utf8Bytes>>,
    bare: OnceLock<Option<Utf8Bytes>>,
    packed: OnceLock<Option<String>>,
    live_text: OnceLock<Option<String>>,
}

impl Published {
    pub fn new(stored: StoredEvent, live: Option<LiveFields>, dt: Option<i64>) -> Arc<Published> {
        let (frame, bare, packed, live_text) = (OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new());
        Arc::new(Published { stored, live, dt, frame, bare, packed, live_text })
    }

    /// The event's text in a packed message (`wire::packed::event_text`).
    pub fn packed(&self) -> Option<&str> {
        self.packed.get_or_init(|| wire::packed::event_text(&self.stored, self.dt.unwrap_or(0))).as_deref()
    }

    /// The view's fields as JSON (`None` without them).
    pub fn live_text(&self) -> Option<&str> {
        let live = self.live.as_ref()?;
        self.live_text.get_or_init(|| serde_json::to_string(live).ok()).as_deref()
    }

    /// The event's wire text, made by `make` from the event and the view's fields the first
    /// time it is asked for (`None` when it cannot be made: then no follower gets it).
    /// `with_live: false` leaves the fields out: for an event followed in the same write by a
    /// later one that carries them.
    pub fn frame(
        &self,
        with_live: bool,
        make: impl FnOnce(&StoredEvent, Option<&LiveFields>) -> Option<String>,
    ) -> Option<Utf8Bytes> {
        let live = self.live.as_ref().filter(|_| with_live);
        let cell = if live.is_none() && self.live.is_some() { &self.bare } else { &self.frame };
        cell.get_or_init(|| make(&self.stored, live).map(Utf8Bytes::from)).clone()
    }
}

impl std::ops::Deref for Published {
    type Target = StoredEvent;
    fn deref(&self) -> &StoredEvent {
        &self.stored
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use wire::events::Event;

    #[test]
    fn the_frame_is_made_once_and_shared() {
        let p = Published::new(StoredEvent { seq: 3, at_ms: 0, actor: None, event: Event::PlayResumed }, None, None);
        let made = Cell::new(0);
        let make = |e: &StoredEvent, live: Option<&LiveFields>| {
            made.set(made.get() + 1);
            Some(format!("event {} {}", e.seq, live.is_some()))
        };
        assert_eq!(p.frame(true, make).as_deref(), Some("event 3 false"));
        assert_eq!(p.frame(true, make).as_deref(), Some("event 3 false"));
        assert_eq!(p.frame(false, make).as_deref(), Some("event 3 false"), "no fields: one text");
        assert_eq!(made.get(), 1);
        assert_eq!(p.seq, 3, "reads as the stored event");
    }

    #[test]
    fn with_the_fields_and_without_them_are_two_texts_each_made_once() {
        let live: LiveFields = serde_json::from_str(
            r#"{"version":4,"server_time_ms":0,"phase":"playing","to_move":"white","move_number":1,
            "last_move":{"x":1,"y":1,"z":1},"captures":[0,0],"clocks":{"control":{"kind":"space_hours",
            "black":1,"white":1},"main_ms":[3599867,3599879],"periods_left":[0,0],"running":null,
            "turn_left_ms":null,"at_ms":0},"awaiting_ack":["white",1],"undos_used":[0,0],
            "scoring_requests":[null,null],"faults":[null,null],"illegal_attempts":0}"#,
        )
        .expect("the view's fields as the stream sends them");
        let p =
            Published::new(StoredEvent { seq: 4, at_ms: 0, actor: None, event: Event::PlayResumed }, Some(live), None);
        let made = Cell::new(0);
        let make = |_: &StoredEvent, live: Option<&LiveFields>| {
            made.set(made.get() + 1);
            Some(if live.is_some() { "full" } else { "bare" }.to_string())
        };
        for _ in 0..2 {
            assert_eq!(p.frame(true, make).as_deref(), Some("full"));
            assert_eq!(p.frame(false, make).as_deref(), Some("bare"));
        }
        assert_eq!(made.get(), 2);
    }
}
