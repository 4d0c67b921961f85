//! When a room stream writes to a viewer (docs/decisions/0002-cost-per-game-and-spectator.md).
//! A player gets every event the moment it is committed. A viewer who holds no seat gets the
//! first event after a quiet spell at once, and during a burst at most one write per interval,
//! carrying everything committed meanwhile. Every event is still sent, in order.
//!
//! With thousands of spectators, the writes are what the server spends its time on: the
//! kernel's socket writes and the wake-ups of each socket's task, about 25 µs per write on
//! this 2-core machine (40,000 writes a second took a core). So the interval widens with the
//! number of paced streams that are writing (a viewer of a quiet room does not count), to keep
//! their writes within a budget per second.
//!
//! The interval is `--spectator-pace-ms`; `SpectatorPace` widens it (up to one second) to keep
//! the writing streams within `--spectator-writes-per-s`, and a stream that looks and finds
//! nothing new stops counting. A stream sleeps out its pace before it looks for events, so
//! each write costs one wake-up.
//! At the defaults (250 ms, 10,000 writes a second) that is one write per 250 ms up to 2,500
//! writing streams, and one a second from 10,000 on. Pacing's price is memory: a paced write
//! is larger, and tungstenite keeps each socket's write buffer at its largest write, hence
//! `pump`'s writes of at most about 4 KiB (figures: docs/performance.md, "Server memory").

use std::sync::{
    atomic::{AtomicUsize, Ordering::Relaxed},
    Arc,
};
use std::time::Duration;

use tokio::time::Instant;
use wire::events::StoredEvent;

/// The widest interval, however many watch: a spectator of a busy room is at most this far
/// behind.
pub const CEILING: Duration = Duration::from_secs(1);

/// The interval of every unseated viewer's stream, shared by all of them.
#[derive(Debug)]
pub struct SpectatorPace {
    /// The narrowest interval (`--spectator-pace-ms`); zero turns pacing off.
    floor: Duration,
    /// Paced writes a second the server aims to stay within (`--spectator-writes-per-s`).
    writes_per_s: u32,
    /// Paced streams writing now: those that wrote within their interval. A viewer of a
    /// quiet room does not narrow the share of those watching a busy one.
    paced: AtomicUsize,
}

impl SpectatorPace {
    pub fn new(floor: Duration, writes_per_s: u32) -> Arc<SpectatorPace> {
        Arc::new(SpectatorPace { floor, writes_per_s: writes_per_s.max(1), paced: AtomicUsize::new(0) })
    }

    /// The interval now: the floor, or as wide as the budget needs when each paced stream
    /// writes once per interval, but never wider than the ceiling (or the floor, if wider).
    pub fn every(&self) -> Duration {
        let paced = self.paced.load(Relaxed) as u64;
        let spread = Duration::from_micros(paced.saturating_mul(1_000_000) / u64::from(self.writes_per_s));
        spread.clamp(self.floor, CEILING.max(self.floor))
    }

    /// Counts a writing stream while the guard lives.
    fn pace(self: &Arc<Self>) -> Paced {
        self.paced.fetch_add(1, Relaxed);
        Paced(self.clone())
    }
}

/// One writing paced stream, counted in [`SpectatorPace`] until dropped.
#[derive(Debug)]
struct Paced(Arc<SpectatorPace>);

impl Drop for Paced {
    fn drop(&mut self) {
        self.0.paced.fetch_sub(1, Relaxed);
    }
}

/// One stream's pace.
#[derive(Debug)]
pub struct Pace {
    /// `None`: write at once (a player, or pacing turned off).
    shared: Option<Arc<SpectatorPace>>,
    /// Counted among the writing streams: from a write until a look finds nothing waiting.
    writing: Option<Paced>,
    viewer: Option<i64>,
    /// No write before this.
    next: Option<Instant>,
}

impl Pace {
    pub fn new(shared: &Arc<SpectatorPace>, viewer: Option<i64>, seated: bool) -> Pace {
        let shared = (!seated && !shared.floor.is_zero()).then(|| shared.clone());
        Pace { shared, writing: None, viewer, next: None }
    }

    pub fn is_paced(&self) -> bool {
        self.shared.is_some()
    }

    /// The stream looked for events after its interval and found none: it stops counting.
    pub fn quiet(&mut self) {
        self.writing = None;
    }

    /// A viewer who takes a seat is a player from then on.
    pub fn note(&mut self, e: &StoredEvent) {
        use wire::events::Event;
        if let Event::SeatTaken { user_id, .. } = &e.event {
            if Some(*user_id) == self.viewer {
                self.shared = None;
                self.writing = None;
            }
        }
    }

    /// When the next write may go out, if not at `now`.
    pub fn held_until(&self, now: Instant) -> Option<Instant> {
        self.shared.as_ref().and(self.next).filter(|next| *next > now)
    }

    /// A write went out at `now`; `drained`: nothing was left waiting (otherwise the rest
    /// follows at once).
    pub fn wrote(&mut self, now: Instant, drained: bool) {
        let Some(shared) = &self.shared else { return };
        if self.writing.is_none() {
            self.writing = Some(shared.pace());
        }
        self.next = drained.then(|| now + shared.every());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::events::{Event, Seat};

    const EVERY: Duration = Duration::from_millis(100);

    fn seat_taken(user_id: i64) -> StoredEvent {
        let event = Event::SeatTaken { seat: Seat::Second, user_id, username: format!("u{user_id}") };
        StoredEvent { seq: 2, at_ms: 0, actor: Some(user_id), event }
    }

    #[test]
    fn a_spectator_writes_at_once_after_a_quiet_spell_and_at_most_once_per_pace_in_a_burst() {
        let shared = SpectatorPace::new(EVERY, 10_000);
        let t0 = Instant::now();
        let mut p = Pace::new(&shared, Some(7), false);
        assert_eq!(p.held_until(t0), None, "the first event goes at once");
        p.wrote(t0, true);
        assert_eq!(p.held_until(t0 + Duration::from_millis(30)), Some(t0 + EVERY), "a burst waits its turn");
        assert_eq!(p.held_until(t0 + EVERY), None);
        assert_eq!(p.held_until(t0 + Duration::from_millis(250)), None, "quiet since: at once");
        // A write cut at the burst's bound leaves events waiting: they follow at once.
        p.wrote(t0, false);
        assert_eq!(p.held_until(t0 + Duration::from_millis(1)), None);
    }

    #[test]
    fn a_player_is_never_held_and_a_spectator_who_sits_down_becomes_one() {
        let shared = SpectatorPace::new(EVERY, 10_000);
        let t0 = Instant::now();
        let mut player = Pace::new(&shared, Some(7), true);
        player.wrote(t0, true);
        assert_eq!(player.held_until(t0), None);

        let mut off = Pace::new(&SpectatorPace::new(Duration::ZERO, 10_000), None, false);
        off.wrote(t0, true);
        assert_eq!(off.held_until(t0), None, "pace 0: every event at once");

        let mut viewer = Pace::new(&shared, Some(7), false);
        viewer.note(&seat_taken(8));
        viewer.wrote(t0, true);
        assert_eq!(viewer.held_until(t0), Some(t0 + EVERY), "someone else sat down");
        viewer.note(&seat_taken(7));
        assert_eq!(viewer.held_until(t0), None, "the viewer sat down");
        assert_eq!(shared.paced.load(Relaxed), 0, "a player is not counted among the paced");
    }

    #[test]
    fn the_interval_widens_with_the_paced_streams_to_keep_within_the_budget_up_to_the_ceiling() {
        // 10,000 writes a second: one write each per 250 ms holds up to 2,500 streams.
        let shared = SpectatorPace::new(Duration::from_millis(250), 10_000);
        // Streams that have written (and so count until they find nothing waiting).
        let open = |n: usize| {
            (0..n)
                .map(|_| {
                    let mut p = Pace::new(&shared, None, false);
                    p.wrote(Instant::now(), true);
                    p
                })
                .collect::<Vec<_>>()
        };
        let some = open(2_500);
        assert_eq!(shared.every(), Duration::from_millis(250));
        let more = open(2_500);
        assert_eq!(shared.every(), Duration::from_millis(500), "5,000 streams: one write each per 500 ms");
        let many = open(15_000);
        assert_eq!(shared.every(), CEILING, "20,000 streams: never wider than the ceiling");
        drop(many);
        more.into_iter().for_each(|mut p| p.quiet());
        assert_eq!(shared.every(), Duration::from_millis(250), "closed and quiet streams are no longer counted");
        let idle = (0..20_000).map(|_| Pace::new(&shared, None, false)).collect::<Vec<_>>();
        assert_eq!(shared.every(), Duration::from_millis(250), "streams that have not written do not count");
        drop(idle);
        drop(some);
        assert_eq!(shared.paced.load(Relaxed), 0);

        // Players do not count, and a floor above the ceiling is kept.
        let _players = (0..20_000).map(|_| Pace::new(&shared, Some(1), true)).collect::<Vec<_>>();
        assert_eq!(shared.every(), Duration::from_millis(250));
        let slow = SpectatorPace::new(Duration::from_millis(1_000), 1_000);
        let _watching = (0..5_000)
            .map(|_| {
                let mut p = Pace::new(&slow, None, false);
                p.wrote(Instant::now(), true);
                p
            })
            .collect::<Vec<_>>();
        assert_eq!(slow.every(), CEILING);

        // A stream's next write is spaced by the interval at the time of its write.
        let t0 = Instant::now();
        let mut p = Pace::new(&shared, None, false);
        let _crowd = open(4_999);
        p.wrote(t0, true);
        assert_eq!(p.held_until(t0), Some(t0 + Duration::from_millis(500)), "5,000 writing with this one");
    }
}
