//! A committed event as the room's actor publishes it to every follower (issue 15 §1): one
//! shared value per event, not a copy per follower, and its wire text made once — by the
//! first stream that sends it — then shared by every socket.

use std::sync::{Arc, OnceLock};

use axum::extract::ws::Utf8Bytes;

use super::{events::StoredEvent, live_view::LiveFields};

#[derive(Debug)]
pub struct Published {
    pub stored: StoredEvent,
    /// With the last event of a commit, while anyone watches: what the view shows now, so
    /// that a browser applies the event without asking for the view.
    pub live: Option<LiveFields>,
    frame: OnceLock<Option<Utf8Bytes>>,
}

impl Published {
    pub fn new(stored: StoredEvent, live: Option<LiveFields>) -> Arc<Published> {
        Arc::new(Published { stored, live, frame: OnceLock::new() })
    }

    /// The event's wire text, made by `make` the first time it is asked for (`None` when
    /// it cannot be made: then no follower gets it).
    pub fn frame(&self, make: impl FnOnce(&Published) -> Option<String>) -> Option<Utf8Bytes> {
        self.frame.get_or_init(|| make(self).map(Utf8Bytes::from)).clone()
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
    use crate::matches::events::Event;
    use std::cell::Cell;

    #[test]
    fn the_frame_is_made_once_and_shared() {
        let p = Published::new(StoredEvent { seq: 3, at_ms: 0, actor: None, event: Event::PlayResumed }, None);
        let made = Cell::new(0);
        let make = |e: &Published| {
            made.set(made.get() + 1);
            Some(format!("event {}", e.seq))
        };
        assert_eq!(p.frame(make).as_deref(), Some("event 3"));
        assert_eq!(p.frame(make).as_deref(), Some("event 3"));
        assert_eq!(made.get(), 1);
        assert_eq!(p.seq, 3, "reads as the stored event");
    }
}
