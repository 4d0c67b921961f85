//! The match service: the one place the UI's server functions and the participant API both
//! call. Finds (or starts) a room's actor and passes commands to it.
//!
//! - `registry`: the rooms loaded here, owner or follower, released when idle;
//! - `cluster`: this instance among several (leases, take-over, forwarding);
//! - `creation`: making a room;
//! - `desk`: the administrators' queue and desk, and notices.

mod cluster;
mod creation;
mod desk;
mod registry;
pub mod reports;
mod training_slot;

use std::{collections::HashMap, sync::Arc};

use tokio::sync::{broadcast, oneshot, Mutex};

use crate::{
    clock::Clock,
    data::{leases::Peer, Db},
    matches::{
        actor::{CommandReply, Request, RoomHandle},
        desk::Desk,
        from_app,
    },
};

use wire::{conduct::Target, events::StoredEvent, view::RoomView};

use room::{Command, MatchError, Requester, SeatHolder};

pub use cluster::{forwarded_path, Forwarded, Instance, PEER_KEY_HEADER};
use cluster::{Forwarding, Sent};
pub use creation::ROOM_NAME_LEN;
pub use wire::commands::CreatedRoom;

#[derive(Clone)]
pub struct MatchService {
    pub(super) db: Db,
    pub(super) clock: Arc<dyn Clock>,
    instance: Arc<Instance>,
    /// Forwards commands to the instance that owns their room.
    peers: reqwest::Client,
    rooms: Arc<Mutex<HashMap<i64, RoomHandle>>>,
    /// Rooms last found owned by another instance, while that lease lasts as read: their
    /// commands go straight to the owner, with no lease attempt (a write) and no follower
    /// here. A stale entry costs one refused forward; safety is the owner's fencing.
    elsewhere: Arc<std::sync::Mutex<HashMap<i64, Peer>>>,
    pub(super) desk: Desk,
    /// The one training run at a time (003 §12.3).
    training: training_slot::Training,
}

impl MatchService {
    /// The service of the embedded database's one instance.
    pub fn new(db: Db, clock: Arc<dyn Clock>) -> Self {
        Self::for_instance(db, clock, Instance::embedded())
    }

    /// The service of `instance`, one of several sharing the database.
    pub fn for_instance(db: Db, clock: Arc<dyn Clock>, instance: Instance) -> Self {
        let desk = Desk::new(db.clone());
        let training = Default::default();
        let instance = Arc::new(instance);
        let peers = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(2))
            .timeout(std::time::Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        MatchService {
            db,
            clock,
            instance,
            peers,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            elsewhere: Default::default(),
            desk,
            training,
        }
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// The server's time by this service's clock (manual in tests).
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub(crate) fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    pub(crate) fn training(&self) -> training_slot::Training {
        self.training.clone()
    }

    /// Runs a command in the room's actor, wherever it is: here, or forwarded to the instance
    /// that owns the room.
    pub async fn command(&self, room_id: i64, caller: Requester, cmd: Command) -> Result<CommandReply, MatchError> {
        if let Some(peer) = self.known_peer(room_id) {
            match self.forward(&peer, room_id, &caller, &cmd).await {
                // Not run there (refused unread, or that instance no longer owns the room):
                // asked afresh below.
                Forwarding::NotRun => self.forget_peer(room_id),
                Forwarding::Answered(answer) => return answer,
                Forwarding::Unknown => return Err(MatchError::ServedElsewhere { retry_after_s: 1 }),
            }
        }
        match self.command_here(room_id, caller.clone(), cmd.clone()).await {
            Err(elsewhere @ MatchError::ServedElsewhere { .. }) => match self.peer_of(room_id).await {
                Some(peer) => match self.forward(&peer, room_id, &caller, &cmd).await {
                    Forwarding::Answered(answer) => answer,
                    Forwarding::NotRun | Forwarding::Unknown => {
                        self.forget_peer(room_id);
                        Err(MatchError::ServedElsewhere { retry_after_s: 1 })
                    }
                },
                None => Err(elsewhere),
            },
            answer => answer,
        }
    }

    /// Runs a command here, where this instance owns the room or can take it (a command
    /// forwarded by another instance is not forwarded again). An actor that finds its lease
    /// taken (fencing) has stopped; the command is then asked once more.
    pub async fn command_here(
        &self,
        room_id: i64,
        caller: Requester,
        cmd: Command,
    ) -> Result<CommandReply, MatchError> {
        match self.command_once(room_id, caller.clone(), cmd.clone()).await {
            Err(MatchError::ServedElsewhere { .. }) => self.command_once(room_id, caller, cmd).await,
            answer => answer,
        }
    }

    /// Handles what another instance forwarded to this one, the room's owner (never
    /// forwarded again): a command's reply, or nothing for a presence.
    pub async fn forwarded(&self, room_id: i64, what: Forwarded) -> Result<Option<CommandReply>, MatchError> {
        match what {
            Forwarded::Command { caller, cmd } => self.command_here(room_id, caller, cmd).await.map(Some),
            Forwarded::Presence { user_id, connected, from } => {
                self.presence_here(room_id, user_id, connected, from).await.map(|()| None)
            }
        }
    }

    async fn command_once(&self, room_id: i64, caller: Requester, cmd: Command) -> Result<CommandReply, MatchError> {
        let h = self.owner(room_id).await?;
        let (reply, rx) = oneshot::channel();
        let request = match cmd {
            // 003 §8.1: the name means an account (by its key, as at sign-up); the room
            // records the approval by the account's id.
            Command::ApproveRecordViewer { username } => {
                let account = if wire::commands::APPROVED_NAME_LEN.contains(&username.trim().chars().count()) {
                    let user = self.db.user_by_name(&username).await.map_err(from_app)?;
                    user.map(|u| SeatHolder { user_id: u.id, username: u.username })
                } else {
                    None // the room refuses the length first
                };
                Request::ApproveViewer { caller, username, account, reply }
            }
            // 003 §6.5: a spectator is named by account; the room records the account's id.
            Command::AdminSanction { target: Target::Spectator { ref username }, .. } => {
                let spectator = if wire::commands::APPROVED_NAME_LEN.contains(&username.trim().chars().count()) {
                    let user = self.db.user_by_name(username).await.map_err(from_app)?;
                    user.map(|u| SeatHolder { user_id: u.id, username: u.username })
                } else {
                    None
                };
                Request::Sanction { caller, cmd, spectator, reply }
            }
            cmd @ Command::AdminSanction { .. } => Request::Sanction { caller, cmd, spectator: None, reply },
            cmd => Request::Command { caller, cmd, reply },
        };
        self.deliver(room_id, h, request).await?;
        rx.await.map_err(|_| MatchError::Internal)?
    }

    /// The room as `viewer` may see it (hints only for the player to move, 000 §8.3).
    pub async fn view(&self, room_id: i64, viewer: Option<Requester>) -> Result<RoomView, MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::View { viewer, reply }).await?;
        rx.await.map_err(|_| MatchError::Internal)?
    }

    /// A live stream opened or closed. A player's last stream closing during play or
    /// scoring is a disconnection (003 §6.1); the first one opening again ends it.
    ///
    /// A signed-in viewer's stream on a follower is told to the room's owner as well (a
    /// player's connection counts wherever the load balancer put it); if the owner cannot be
    /// reached, its successor counts from the streams opened after it took over.
    pub async fn presence(&self, room_id: i64, user_id: Option<i64>, connected: bool) {
        let Ok(h) = self.handle(room_id).await else { return };
        let following = h.lease.is_none();
        let _ = self.deliver(room_id, h, Request::Presence { user_id, connected, from: None }).await;
        if let (true, Some(user_id)) = (following, user_id) {
            let peer = match self.known_peer(room_id) {
                Some(peer) => Some(peer),
                None => self.peer_of(room_id).await,
            };
            if let Some(peer) = peer {
                let told = Forwarded::Presence { user_id, connected, from: self.instance.id.clone() };
                if !matches!(self.send_to(&peer, room_id, &told).await, Sent::Answered(_)) {
                    self.forget_peer(room_id);
                }
            }
        }
    }

    /// A viewer's stream on another instance opened or closed (forwarded to this owner).
    async fn presence_here(&self, room_id: i64, user_id: i64, connected: bool, from: String) -> Result<(), MatchError> {
        let h = self.owner(room_id).await?;
        self.deliver(room_id, h, Request::Presence { user_id: Some(user_id), connected, from: Some(from) }).await
    }

    /// The room and its stored log, for those allowed to read the record (003 §8.1, §9.7).
    pub async fn record_log(
        &self,
        room_id: i64,
        viewer: Requester,
    ) -> Result<(Box<room::MatchState>, Vec<wire::events::StoredEvent>), MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Record { viewer, reply }).await?;
        let state = rx.await.map_err(|_| MatchError::Internal)??;
        let log = self.db.load_events(room_id, 0).await.map_err(from_app)?;
        Ok((state, log))
    }

    /// The stored record of a room, for those allowed to read it (003 §8.1, §9.7).
    pub async fn record(
        &self,
        room_id: i64,
        viewer: Requester,
    ) -> Result<crate::matches::record::RoomRecord, MatchError> {
        let (state, log) = self.record_log(room_id, viewer).await?;
        let filter = crate::audit::AuditFilter { room: Some(room_id), ..Default::default() };
        let mut audit = self.db.audit_entries(&filter, None).await.map_err(from_app)?;
        audit.retain(|e| e.action.in_room_record());
        audit.reverse();
        Ok(crate::matches::record::RoomRecord::build(room_id, &state, &log, audit))
    }

    /// Rooms with an outstanding notice for the administrator.
    pub async fn needing_attention(&self) -> Result<Vec<RoomView>, MatchError> {
        let ids: Vec<i64> = self.rooms.lock().await.keys().copied().collect();
        let mut out = Vec::new();
        for id in ids {
            if let Ok(v) = self.view(id, None).await {
                if v.attention.is_some() || v.phase == wire::commands::RoomPhase::Held {
                    out.push(v);
                }
            }
        }
        out.sort_by_key(|v| v.room_id);
        Ok(out)
    }

    /// Follows a room as `viewer` (`None`: anonymous) from event `after`. Live viewing is
    /// open to all, the stored record is not (003 §8.1): a viewer who may read the record
    /// gets the stored events after `after` (the gap); anyone else gets no gap whatever
    /// `after` says, only the room as it is now (`view`: during play the board, after the
    /// end the final board, result and statement). Both then get the live events after
    /// `view.version`. Subscribing before the view is made and the gap is read means nothing
    /// falls between (the caller skips live events it already had from the view or the gap).
    /// The room's actor decides the access ([`RoomView::may_read_record`]).
    pub async fn follow(&self, room_id: i64, viewer: Option<Requester>, after: i64) -> Result<Follow, MatchError> {
        let h = self.handle(room_id).await?;
        let live = h.events.subscribe();
        let view = self.view(room_id, viewer.clone()).await?;
        let seated = match &viewer {
            Some(v) => {
                self.note_viewer(room_id, v).await;
                self.players(room_id).await?.contains(&v.user_id)
            }
            None => false,
        };
        let gap = if view.may_read_record {
            Some(self.db.load_events(room_id, after.max(0)).await.map_err(from_app)?)
        } else {
            None
        };
        Ok(Follow { gap, view, live, seated })
    }

    /// Stored events after `after` (the public event type: no secrets exist in it), for
    /// those who may read the stored record (003 §8.1); a missing room is `RoomNotFound`
    /// for everyone, first.
    pub async fn events_after(
        &self,
        room_id: i64,
        viewer: Option<Requester>,
        after: i64,
    ) -> Result<Vec<StoredEvent>, MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::RecordAccess { viewer, reply }).await?;
        if !rx.await.map_err(|_| MatchError::Internal)? {
            return Err(MatchError::RecordNotAllowed);
        }
        self.db.load_events(room_id, after.max(0)).await.map_err(from_app)
    }

    /// The accounts seated in the room (the computer, and a second player on the host's
    /// device, hold none).
    async fn players(&self, room_id: i64) -> Result<Vec<i64>, MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Players { reply }).await?;
        rx.await.map_err(|_| MatchError::Internal)
    }
}

/// A viewer following a room ([`MatchService::follow`]).
pub struct Follow {
    /// The stored events after the viewer's `after`: only for those who may read the stored
    /// record (003 §8.1); `None` for everyone else.
    pub gap: Option<Vec<StoredEvent>>,
    /// The room as the viewer saw it when they joined; `view.version` is the join version.
    pub view: RoomView,
    /// The live events; those up to `view.version` are already in the view (or the gap).
    pub live: broadcast::Receiver<std::sync::Arc<crate::matches::published::Published>>,
    /// The viewer holds a seat in the room (by account) as of the view.
    pub seated: bool,
}
