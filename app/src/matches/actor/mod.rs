//! One sequential task per live room (lichess' round actor): it owns the room's state and
//! timers, so commands, timer expiries and connection changes are handled strictly in the
//! order the server received them (003 §9.6). Each accepted action's events are committed
//! to the database before the caller gets an answer and before any viewer sees them.
//!
//! An actor is the room's owner, under its lease, or a follower of a room another instance
//! owns: a follower reads the room's new events from the log when the doorbell rings (and
//! polls, for a ring lost unnoticed), runs no timers and refuses commands (`ServedElsewhere`:
//! the service forwards them to the owner). After each commit the owner publishes every event
//! once as `Published` (the view's changed fields with the last) and tells the desk. A failed
//! write rebuilds the state from the log; a fenced one (the lease moved on) stops the actor.
//! The service's sweep releases an actor idle for `RELEASE_AFTER_MS` (ten minutes) that
//! nobody watches and nothing is due in; the room is loaded again from its log on demand.
//!
//! Each room's broadcast ring holds `BROADCAST_CAPACITY` (1,024) events, as far as a slow
//! viewer may fall behind. A ring of 256 saved no memory: what grows as games go on is each
//! game's state and what the allocator holds (figures: docs/performance.md, "Server memory").

mod commit;
mod computer_seat;
mod presence;

use std::{collections::HashMap, sync::Arc};

use tokio::sync::{broadcast, mpsc, oneshot};

use super::desk::Desk;
use super::published::Published;
use crate::{
    clock::Clock,
    data::{leases::Lease, Db},
};
use room::{Command, Decision, MatchError, MatchState, Requester, SeatHolder};
use wire::listing::Listing;
use wire::{
    events::{Event, StoredEvent},
    view::RoomView,
};

pub use wire::commands::CommandReply;

pub(crate) enum Request {
    Command {
        caller: Requester,
        cmd: Command,
        reply: oneshot::Sender<Result<CommandReply, MatchError>>,
    },
    /// Refused to a spectator whose viewing of this match is restricted (003 §6.5).
    View {
        viewer: Option<Requester>,
        reply: oneshot::Sender<Result<RoomView, MatchError>>,
    },
    /// A live stream opened (`true`) or closed; `user_id` is `None` for anonymous viewers;
    /// `from` names the instance that holds the stream when it is not this one (forwarded).
    Presence {
        user_id: Option<i64>,
        connected: bool,
        from: Option<String>,
    },
    /// These instances stopped renewing: the streams they told of are gone with them (their
    /// players are disconnected, 003 §6.1, unless connected elsewhere too).
    PeersGone {
        instances: Vec<String>,
    },
    /// What the referee's desk shows beside the board (administrators only; checked by the
    /// service): the chains in detail and the state for the timeline.
    Desk {
        reply: oneshot::Sender<(Vec<wire::referee::ChainDetail>, RoomView)>,
    },
    /// The seated players' account ids (Black and White once started), to notify them.
    Players {
        reply: oneshot::Sender<Vec<i64>>,
    },
    /// May this viewer read the stored record? Answers with the room's state for export.
    Record {
        viewer: Requester,
        reply: oneshot::Sender<Result<Box<MatchState>, MatchError>>,
    },
    /// May this viewer (`None`: anonymous) read the stored record (003 §8.1)?
    RecordAccess {
        viewer: Option<Requester>,
        reply: oneshot::Sender<bool>,
    },
    /// `ApproveRecordViewer { username }`, the name looked up: `account` is whom it names.
    ApproveViewer {
        caller: Requester,
        username: String,
        account: Option<SeatHolder>,
        reply: oneshot::Sender<Result<CommandReply, MatchError>>,
    },
    /// `AdminSanction`, a spectator's name looked up: `spectator` is whom it names.
    Sanction {
        caller: Requester,
        cmd: Command,
        spectator: Option<SeatHolder>,
        reply: oneshot::Sender<Result<CommandReply, MatchError>>,
    },
    /// What reports and conduct histories need of the room.
    Conduct {
        reply: oneshot::Sender<ConductFacts>,
    },
    /// Asked by the service's sweep: stop if the room has been idle for [`RELEASE_AFTER_MS`]
    /// (true: stopped, after answering whatever was already queued).
    Release {
        reply: oneshot::Sender<bool>,
    },
    /// Another instance took the room's lease, or this follower is being replaced by the
    /// room's owner here: stop, after answering what was already queued (a command among
    /// it is refused by the fence).
    Stop,
    /// A follower's room has new events (the doorbell rang): read them.
    CatchUp,
}

impl Request {
    /// Answers `err` to a request that will not be handled (its actor stops after a failed
    /// write): the caller learns why — "ask again" when the database did not answer — instead
    /// of finding the reply dropped. Requests that answer no error are dropped.
    fn refuse(self, err: &MatchError) {
        match self {
            Request::Command { reply, .. } | Request::ApproveViewer { reply, .. } | Request::Sanction { reply, .. } => {
                let _ = reply.send(Err(err.clone()));
            }
            Request::View { reply, .. } => {
                let _ = reply.send(Err(err.clone()));
            }
            Request::Record { reply, .. } => {
                let _ = reply.send(Err(err.clone()));
            }
            _ => {}
        }
    }
}

/// Closes an ending actor's inbox and refuses what already waits in it with `err` (ask
/// again, when the database did not answer), so that no caller finds its reply dropped.
fn refuse_waiting(rx: &mut mpsc::Receiver<Request>, err: &MatchError) {
    rx.close();
    while let Ok(req) = rx.try_recv() {
        req.refuse(err);
    }
}

/// A room nobody watches, with nothing due and nothing asked of it for this long, gives
/// back its actor and memory; the next request loads it again from its log.
pub(crate) const RELEASE_AFTER_MS: i64 = 10 * 60 * 1000;

/// A room's conduct facts: its name and version, each colour's account, and its sanctions
/// with the account each concerns.
#[derive(Debug, Clone)]
pub struct ConductFacts {
    pub name: String,
    pub version: i64,
    pub players: wire::ByColour<Option<i64>>,
    pub sanctions: Vec<(wire::conduct::SanctionRecord, Option<i64>)>,
}

/// Lets others talk to a room's actor and follow its events.
#[derive(Clone)]
pub struct RoomHandle {
    /// The lease the actor writes under; `None`: it follows a room another instance owns.
    pub(crate) lease: Option<Lease>,
    pub(crate) tx: mpsc::Sender<Request>,
    pub(crate) events: broadcast::Sender<Arc<Published>>,
    /// Closed when the actor's task has ended (its sender is dropped with the task).
    done: tokio::sync::watch::Receiver<()>,
}

impl RoomHandle {
    pub fn is_alive(&self) -> bool {
        !self.tx.is_closed()
    }

    /// Returns once the actor has ended: a stopping actor may still be answering what was
    /// queued before it stopped, and a second one must not load the room meanwhile.
    pub(crate) async fn ended(&self) {
        let mut done = self.done.clone();
        while done.changed().await.is_ok() {}
    }

    pub(crate) fn same_actor(&self, other: &RoomHandle) -> bool {
        self.tx.same_channel(&other.tx)
    }
}

/// How often a follower with viewers here reads the room's new events: on PostgreSQL the
/// doorbell says when, and the poll only covers a ring lost in a reconnection the listener
/// did not notice; the embedded database has no bell.
const FOLLOW_POLL: std::time::Duration = std::time::Duration::from_millis(250);
const FOLLOW_POLL_WITH_DOORBELL: std::time::Duration = std::time::Duration::from_secs(5);

/// How many events a slow viewer may fall behind before it must catch up from the log.
const BROADCAST_CAPACITY: usize = 1024;
const INBOX: usize = 256;

/// Starts a room's actor: its owner under `lease`, or (`None`) a follower of a room another
/// instance owns — it answers reads from the log (read again before each answer, and every
/// [`FOLLOW_POLL`] while someone watches here), and refuses commands. `listed`: the room's
/// listing as stored, if known (an owner writes it anew when the state says otherwise).
pub(crate) fn spawn(
    room_id: i64,
    lease: Option<Lease>,
    state: MatchState,
    db: Db,
    clock: Arc<dyn Clock>,
    desk: Desk,
    listed: Option<Listing>,
) -> RoomHandle {
    let (tx, rx) = mpsc::channel(INBOX);
    let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
    let (thought_tx, thought_rx) = mpsc::channel(4);
    let (done_tx, done) = tokio::sync::watch::channel(());
    let last_active_ms = clock.now_ms();
    let actor = Actor {
        computer: super::computer::ComputerPlayer::new(thought_tx),
        room_id,
        lease,
        lost: false,
        state,
        db,
        clock,
        events: events.clone(),
        connections: HashMap::new(),
        forwarded: HashMap::new(),
        watchers: 0,
        shared_view: None,
        desk,
        items: None,
        listed,
        last_active_ms,
        published: None,
    };
    tokio::spawn(async move {
        actor.run(rx, thought_rx).await;
        drop(done_tx);
    });
    RoomHandle { lease, tx, events, done }
}

pub(crate) fn random_seed() -> u64 {
    crate::data::secrets::random_u64()
}

struct Actor {
    room_id: i64,
    /// `None`: a follower (see [`spawn`]).
    lease: Option<Lease>,
    /// Told to stop, or its lease was taken by another instance: this actor stops.
    lost: bool,
    state: MatchState,
    db: Db,
    clock: Arc<dyn Clock>,
    events: broadcast::Sender<Arc<Published>>,
    /// Open live streams per signed-in user (a player may have several devices), wherever
    /// they are held.
    connections: HashMap<i64, usize>,
    /// Of those, the ones other instances told of: per (instance, user).
    forwarded: HashMap<(String, i64), usize>,
    /// All open live streams, anonymous included.
    watchers: usize,
    /// The viewer-independent view of the current version and watcher count: browsers fetch
    /// the view after every event, so with many spectators it is computed once, not per
    /// viewer. Every state change goes through an event, which moves the version.
    shared_view: Option<(i64, usize, RoomView)>,
    desk: Desk,
    /// The queue items last given to the desk (`None`: not yet, at start).
    items: Option<Vec<wire::referee::RoomItem>>,
    /// The listing as stored (what the room lists show of this room).
    listed: Option<Listing>,
    /// The basic computer, for a room with a computer seat (003 §11.4).
    computer: super::computer::ComputerPlayer,
    /// The last request, timer or thought (for releasing an idle room).
    last_active_ms: i64,
    /// The number and time of the last event published (for packed messages' `dt`).
    published: Option<(i64, i64)>,
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Request>, mut thoughts: mpsc::Receiver<super::computer::Thought>) {
        // The queue follows the room from its first moment (a room loaded held is queued),
        // and so do the lists — the owner's to write.
        let owner = self.lease.is_some();
        if owner {
            self.tell_desk(&[], self.clock.now_ms()).await;
        }
        let listing = self.state.listing();
        if owner && self.listed.as_ref() != Some(&listing) {
            match self.db.set_listing(self.room_id, &listing).await {
                Ok(()) => self.listed = Some(listing),
                Err(e) => tracing::error!(room_id = self.room_id, error = %e, "listing not stored"),
            }
        }
        loop {
            if owner {
                self.drive_computer().await;
            }
            // A follower's timers are its owner's; it reads what they wrote.
            let deadline = self.state.next_deadline().filter(|_| owner);
            let clock = self.clock.clone();
            let timer = async move {
                match deadline {
                    Some(at) => clock.sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let polling = !owner && self.watchers > 0;
            let every = if self.db.has_doorbell() { FOLLOW_POLL_WITH_DOORBELL } else { FOLLOW_POLL };
            let poll = async move {
                if polling {
                    tokio::time::sleep(every).await
                } else {
                    std::future::pending().await
                }
            };
            tokio::select! {
                req = rx.recv() => match req {
                    Some(Request::Release { reply }) => {
                        if self.releasable() {
                            // Nothing new can arrive now; what already did is answered
                            // before this task ends (a second actor waits for that end).
                            rx.close();
                            while let Ok(req) = rx.try_recv() {
                                self.on_request(req).await;
                            }
                            let _ = reply.send(true);
                            return;
                        }
                        let _ = reply.send(false);
                    }
                    Some(Request::Stop) => self.lost = true,
                    Some(req) => {
                        self.last_active_ms = self.clock.now_ms();
                        self.on_request(req).await
                    }
                    None => return,
                },
                Some(thought) = thoughts.recv() => {
                    self.last_active_ms = self.clock.now_ms();
                    self.on_thought(thought).await
                }
                () = poll => self.catch_up().await,
                () = timer => {
                    let now = self.clock.now_ms();
                    self.last_active_ms = now;
                    let events = self.state.tick(now);
                    if let Err(e) = self.commit(events, None, now).await {
                        // What time did is not stored: this actor ends (the next request
                        // loads the room afresh).
                        refuse_waiting(&mut rx, &e);
                        return;
                    }
                }
            }
            if self.lost {
                // Nothing new can arrive now; what already did is answered (reads from what
                // this actor knows, commands refused by the fence) before this task ends.
                rx.close();
                while let Ok(req) = rx.try_recv() {
                    self.on_request(req).await;
                }
                return;
            }
            if self.state.poisoned {
                if let Err(e) = self.reload().await {
                    // Neither the write nor the reload worked: this actor ends.
                    refuse_waiting(&mut rx, &e);
                    return;
                }
            }
        }
    }

    /// Nobody watches, nothing is due or being thought about, and nothing was asked for
    /// [`RELEASE_AFTER_MS`]: the log alone says all this room is.
    fn releasable(&self) -> bool {
        let owes_nothing = self.lease.is_none()
            || (self.state.next_deadline().is_none()
                && !self.computer.is_thinking()
                && self.state.computer_step().is_none());
        self.watchers == 0
            && !self.state.poisoned
            && owes_nothing
            && self.clock.now_ms() - self.last_active_ms >= RELEASE_AFTER_MS
    }

    /// A follower reads and applies what the room's owner stored since its version, and
    /// publishes it to the viewers here; a log it cannot follow step by step (a gap, a
    /// repair) is read again whole.
    async fn catch_up(&mut self) {
        let new = match self.db.load_events(self.room_id, self.state.version).await {
            Ok(new) if !new.is_empty() => new,
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(room_id = self.room_id, error = %e, "follower did not read the log");
                return;
            }
        };
        let stepped = new.iter().all(|e| {
            let steps = e.seq == self.state.version + 1 && !matches!(e.event, Event::RecordRepaired { .. });
            let applied = steps && self.state.apply(&e.event, e.at_ms).is_ok();
            if applied {
                self.state.version = e.seq;
            }
            applied
        });
        if !stepped && self.reload().await.is_err() {
            self.state.poisoned = true;
        }
        self.shared_view = None;
        // Viewers here get every stored event either way (a repair's set-aside ones too, as
        // the log has them).
        self.publish(&new, self.clock.now_ms());
    }

    /// Gives stored events to this room's viewers here; the last carries the view's changed
    /// fields (only computed while someone watches; the hints while the player to move does).
    fn publish(&mut self, stored: &[StoredEvent], now: i64) {
        let mover_watches =
            self.state.account_of(self.state.to_move()).is_some_and(|u| self.connections.contains_key(&u));
        let mut live = (self.watchers > 0).then(|| self.state.live_fields(now, mover_watches));
        for (i, e) in stored.iter().enumerate() {
            let fields = if i + 1 == stored.len() { live.take() } else { None };
            let dt = wire::packed::dt(self.published, e);
            self.published = Some((e.seq, e.at_ms));
            let _ = self.events.send(Published::new(e.clone(), fields, dt));
        }
    }

    async fn on_request(&mut self, req: Request) {
        if self.lease.is_none() {
            match req {
                // Not this instance's to decide (the service sends commands to the owner).
                Request::Command { reply, .. }
                | Request::ApproveViewer { reply, .. }
                | Request::Sanction { reply, .. } => {
                    let _ = reply.send(Err(MatchError::ServedElsewhere { retry_after_s: 1 }));
                    return;
                }
                // Counted here, for polling; the owner decides what a player's connection means.
                Request::Presence { connected, user_id, from } => {
                    let _ = self.count_presence(user_id, connected, from);
                    return;
                }
                Request::PeersGone { .. } => return,
                Request::Release { .. } | Request::Stop => {}
                _ => self.catch_up().await,
            }
        }
        match req {
            // Only the run loop releases; one queued behind another is simply declined.
            Request::Release { reply } => {
                let _ = reply.send(false);
            }
            Request::Stop => self.lost = true,
            // An owner has it all already; a follower read it above.
            Request::CatchUp => {}
            Request::View { viewer, reply } => {
                let restricted = viewer.as_ref().and_then(|v| self.state.viewing_restricted(v.user_id));
                let _ = reply.send(match restricted {
                    Some(sanction) => Err(MatchError::ViewingRestricted { sanction }),
                    None => Ok(self.view_for(viewer.as_ref())),
                });
            }
            Request::RecordAccess { viewer, reply } => {
                let _ = reply.send(viewer.is_some_and(|v| {
                    self.state.viewing_restricted(v.user_id).is_none() && self.state.may_read_record(&v)
                }));
            }
            Request::Sanction { caller, cmd, spectator, reply } => {
                let now = self.clock.now_ms();
                let before = Some(self.state.standing());
                let decision = self.state.sanction(&caller, &cmd, spectator.as_ref(), now);
                let _ = reply.send(self.decided(caller.user_id, decision, now, before).await);
            }
            Request::Conduct { reply } => {
                let s = &self.state;
                let players = wire::ByColour::from_fn(|c| s.account_of(c));
                let sanctions =
                    s.referee.sanctions.iter().map(|x| (x.clone(), s.sanction_subject_account(x))).collect();
                let _ = reply.send(ConductFacts { name: s.name.clone(), version: s.version, players, sanctions });
            }
            Request::ApproveViewer { caller, username, account, reply } => {
                let now = self.clock.now_ms();
                let decision = self.state.approve_record_viewer(&caller, &username, account.as_ref(), now);
                let _ = reply.send(self.decided(caller.user_id, decision, now, None).await);
            }
            Request::Desk { reply } => {
                let view = self.state.view(self.room_id, None, self.clock.now_ms(), self.watchers);
                let _ = reply.send((super::desk::chains(&self.state), view));
            }
            Request::Players { reply } => {
                let _ = reply.send(self.state.seats.iter().flatten().filter_map(|h| h.account()).collect());
            }
            Request::Record { viewer, reply } => {
                let restricted = self.state.viewing_restricted(viewer.user_id);
                let allowed = restricted.is_none() && self.state.may_read_record(&viewer);
                let _ = reply.send(if let Some(sanction) = restricted {
                    Err(MatchError::ViewingRestricted { sanction })
                } else if allowed {
                    Ok(Box::new(self.state.clone()))
                } else {
                    Err(MatchError::RecordNotAllowed)
                });
            }
            Request::Presence { user_id, connected, from } => self.presence(user_id, connected, from).await,
            Request::PeersGone { instances } => {
                let gone: Vec<((String, i64), usize)> = self
                    .forwarded
                    .iter()
                    .filter(|((i, _), _)| instances.contains(i))
                    .map(|(k, n)| (k.clone(), *n))
                    .collect();
                for ((instance, user_id), streams) in gone {
                    tracing::info!(
                        room_id = self.room_id,
                        instance,
                        user_id,
                        streams,
                        "streams of a gone instance closed"
                    );
                    for _ in 0..streams {
                        self.presence(Some(user_id), false, Some(instance.clone())).await;
                    }
                }
            }
            Request::Command { caller, cmd, reply } => {
                let now = self.clock.now_ms();
                // Only an administrator's action is logged with where the room stood.
                let before = caller.is_admin().then(|| self.state.standing());
                let decision = self.state.handle(&caller, &cmd, now);
                let _ = reply.send(self.decided(caller.user_id, decision, now, before).await);
            }
        }
    }

    /// The room as `viewer` sees it now; the viewer-independent part is computed once per
    /// version and watcher count.
    fn view_for(&mut self, viewer: Option<&Requester>) -> RoomView {
        let now = self.clock.now_ms();
        let key = (self.state.version, self.watchers);
        let view = match &self.shared_view {
            Some((v, w, view)) if (*v, *w) == key => view,
            _ => &self.shared_view.insert((key.0, key.1, self.state.shared_view(self.room_id, key.1))).2,
        };
        let mut view = view.clone();
        self.state.personalise(&mut view, viewer, now);
        view.present = wire::ByColour::from_fn(|c| {
            self.state.account_of(c).is_some_and(|uid| self.connections.contains_key(&uid))
        });
        view
    }

    /// Rebuilds the state from the stored log (after a failed write or a poisoned state).
    async fn reload(&mut self) -> Result<(), MatchError> {
        let log = self.db.load_log_checked(self.room_id).await.map_err(super::from_app)?;
        let now = self.clock.now_ms();
        match log.and_then(|l| MatchState::replay_checked(&l.events, l.secrets, l.damage, l.last_seq, now).ok()) {
            Some(s) => {
                self.state = s;
                self.shared_view = None;
                Ok(())
            }
            None => {
                tracing::error!(room_id = self.room_id, "room state lost; actor stops");
                Err(MatchError::Internal)
            }
        }
    }
}
