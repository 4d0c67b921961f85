//! Several instances on one database: this instance's name and peer key, renewing its room
//! leases, taking over rooms whose owner stopped renewing, and forwarding a command to the
//! instance that owns its room.
//!
//! With several instances on one PostgreSQL database
//! (docs/decisions/0003-several-instances-one-database.md) a command may reach an instance that
//! only follows the room. `MatchService::command` then forwards it to the owner at
//! `/internal/v1/rooms/{id}/commands` with the owner's peer key, read from `server_instances`;
//! the owner is remembered while its lease lasts, so no lease attempt comes first. The owner runs
//! it (`command_here`) and never forwards again; with no owner reachable the answer is 503
//! `served_elsewhere` with the wait. `start_leasing` renews this instance's leases (every
//! `leases::RENEW_EVERY_MS`) and takes over the rooms whose owner stopped renewing, loading them
//! as after a server failure.

use super::MatchService;
use crate::{
    data::{
        doorbell::Ring,
        leases::{Lease, Peer, LEASE_MS, RENEW_EVERY_MS},
    },
    matches::actor::{CommandReply, Request, RoomHandle},
    AppError,
};
use room::{Command, MatchError, Requester};

/// This server instance among those sharing a PostgreSQL database: its name, under
/// which it holds room leases, and where its peers reach it.
#[derive(Clone, PartialEq, Eq)]
pub struct Instance {
    pub id: String,
    /// Where the other instances send commands for the rooms this one owns.
    pub address: Option<String>,
    /// What a forwarded command must carry (made at start; the others read it from the
    /// database, so only they can forward).
    pub peer_key: String,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance").field("id", &self.id).field("address", &self.address).finish_non_exhaustive()
    }
}

impl Instance {
    /// An instance named `id`, reached at `address`, with a fresh peer key.
    pub fn new(id: String, address: Option<String>) -> Self {
        Instance { id, address, peer_key: crate::data::secrets::random_hex::<16>().unwrap_or_default() }
    }

    /// The embedded database's only instance (the data folder's lock keeps it alone).
    pub fn embedded() -> Self {
        Self::new("embedded".into(), None)
    }
}

impl MatchService {
    /// Renews this instance's leases (and says it is alive) every [`RENEW_EVERY_MS`] of the
    /// service's clock, for as long as the returned task runs. A room whose lease another
    /// instance took stops here at once (its next append would be refused anyway); if the
    /// database cannot be reached until the leases are about to lapse, every room stops (each
    /// may be taken).
    pub fn start_leasing(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move {
            let mut renewed_at = this.clock.now_ms();
            let mut gone = std::collections::HashSet::new();
            // A renewal still running from an earlier round (never two at once).
            let mut running: Option<(i64, Renewal)> = None;
            loop {
                let at = this.clock.now_ms() + RENEW_EVERY_MS;
                this.clock.sleep_until(at).await;
                let now = this.clock.now_ms();
                // Renewed leases last from when the renewal was sent.
                let (sent, mut renewal) = running.take().unwrap_or_else(|| {
                    let this = this.clone();
                    (now, tokio::spawn(async move { this.renew().await }))
                });
                // A database cut off by a partition does not answer at all (no error until
                // TCP gives up, minutes later): a renewal slower than its interval failed. It
                // is left to finish, not dropped: a transaction dropped while it waits for a
                // row lock could take that lock after all and hold it. The wait is the
                // database's answer time, so real time: a test's clock jumping ahead while a
                // renewal runs says nothing about the database.
                let patience = std::time::Duration::from_millis(RENEW_EVERY_MS as u64);
                let renewed = tokio::select! {
                    done = &mut renewal => done.unwrap_or(Err(AppError::Internal)),
                    () = tokio::time::sleep(patience) => {
                        running = Some((sent, renewal));
                        Err(AppError::Internal)
                    }
                };
                match renewed {
                    Ok(held) => {
                        renewed_at = sent;
                        this.stop_lost(held).await;
                        this.take_over_lapsed(now).await;
                        gone = this.close_streams_of_gone(gone, now).await;
                    }
                    // Stopped before the leases can lapse (the next renewal could not come in
                    // time): another instance may take them then.
                    Err(_) if this.clock.now_ms() - renewed_at >= LEASE_MS - RENEW_EVERY_MS => {
                        tracing::error!("leases not renewed in time; this instance's rooms stop");
                        this.stop_rooms(|_| true).await;
                    }
                    Err(_) => {}
                }
            }
        })
    }

    /// Listens to the doorbell (PostgreSQL): a followed room whose owner elsewhere stored new
    /// events reads them at once; after a reconnection every followed room reads again. A
    /// change of the administrators' queue anywhere (or a reconnection) wakes their streams
    /// here. `None`
    /// on the embedded database (one instance). Runs for as long as the returned task does.
    pub async fn start_listening(&self) -> Option<tokio::task::JoinHandle<()>> {
        let mut rings = self.db.listen().await?;
        let this = self.clone();
        Some(tokio::spawn(async move {
            while let Some(ring) = rings.recv().await {
                if matches!(ring, Ring::Queue | Ring::Resync) {
                    this.desk.wake_here();
                }
                let followers: Vec<RoomHandle> = {
                    let rooms = this.rooms.lock().await;
                    match ring {
                        Ring::Events { room, .. } => rooms.get(&room).into_iter().cloned().collect(),
                        Ring::Resync => rooms.values().cloned().collect(),
                        Ring::Logins | Ring::Queue => Vec::new(),
                    }
                };
                for h in followers.into_iter().filter(|h| h.lease.is_none()) {
                    // A full inbox has a catch-up coming anyway (every read catches up).
                    let _ = h.tx.try_send(Request::CatchUp);
                }
            }
        }))
    }

    /// Takes over the unfinished rooms whose owner stopped renewing (their clocks and
    /// computer seats need an owner even if nobody asks); several instances may try, the
    /// lease decides. Returns how many this instance took.
    pub async fn take_over_lapsed(&self, now: i64) -> usize {
        let lapsed = match self.db.lapsed_leases(now, 100).await {
            Ok(ids) => ids,
            Err(_) => return 0,
        };
        let mut taken = 0;
        for room_id in lapsed {
            match self.owner(room_id).await {
                Ok(_) => {
                    tracing::info!(room_id, "room taken over from an instance that stopped renewing");
                    taken += 1;
                }
                Err(MatchError::ServedElsewhere { .. }) => {}
                Err(e) => tracing::warn!(room_id, error = %e, "lapsed room not taken over"),
            }
        }
        taken
    }

    /// Tells the owners here which instances stopped renewing since `before` (the set
    /// returned by the last call): the players whose streams those held are disconnected.
    pub(super) async fn close_streams_of_gone(
        &self,
        before: std::collections::HashSet<String>,
        now: i64,
    ) -> std::collections::HashSet<String> {
        let Ok(gone) = self.db.gone_instances(now).await else { return before };
        let gone: std::collections::HashSet<String> = gone.into_iter().collect();
        let new: Vec<String> = gone.difference(&before).cloned().collect();
        if !new.is_empty() {
            let owners: Vec<RoomHandle> =
                self.rooms.lock().await.values().filter(|h| h.lease.is_some()).cloned().collect();
            for h in owners {
                let _ = h.tx.send(Request::PeersGone { instances: new.clone() }).await;
            }
        }
        gone
    }

    /// Renews this instance's leases and its entry among the instances.
    pub(super) async fn renew(&self) -> Result<Vec<(i64, i64)>, AppError> {
        let i = &self.instance;
        self.db.renew_leases(&i.id, i.address.as_deref(), &i.peer_key, self.clock.now_ms()).await
    }

    /// True when `key` is this instance's peer key (compared in constant time).
    pub fn is_peer_key(&self, key: &str) -> bool {
        let mine = self.instance.peer_key.as_bytes();
        let given = key.as_bytes();
        !mine.is_empty()
            && mine.len() == given.len()
            && mine.iter().zip(given).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }

    /// Stops the owners here whose lease is not among `renewed` and was taken since (a room
    /// loaded while the renewal ran holds a lease the renewal did not see: it stays).
    pub(super) async fn stop_lost(&self, renewed: Vec<(i64, i64)>) {
        let renewed: std::collections::HashSet<(i64, i64)> = renewed.into_iter().collect();
        let unseen: Vec<Lease> = {
            let rooms = self.rooms.lock().await;
            rooms
                .values()
                .filter(|h| h.is_alive())
                .filter_map(|h| h.lease)
                .filter(|l| !renewed.contains(&(l.room_id, l.epoch)))
                .collect()
        };
        let mut lost = std::collections::HashSet::new();
        for lease in unseen {
            if let Ok(false) = self.db.holds(lease, &self.instance.id).await {
                lost.insert(lease);
            }
        }
        if !lost.is_empty() {
            self.stop_rooms(|lease| lost.contains(lease)).await;
        }
    }

    /// The instance known to own `room_id`, while the lease last read lasts.
    pub(super) fn known_peer(&self, room_id: i64) -> Option<Peer> {
        let now = self.clock.now_ms();
        let known = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
        known.get(&room_id).filter(|p| p.until_ms > now).cloned()
    }

    /// The instance owning `room_id` now, as the database says (remembered while its lease
    /// lasts); `None` when none holds a live lease.
    pub(super) async fn peer_of(&self, room_id: i64) -> Option<Peer> {
        let found = self.db.lease_peer(room_id, &self.instance.id, self.clock.now_ms()).await.ok().flatten();
        let mut known = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
        match &found {
            Some(peer) => known.insert(room_id, peer.clone()),
            None => known.remove(&room_id),
        };
        found
    }

    pub(super) fn forget_peer(&self, room_id: i64) {
        self.elsewhere.lock().unwrap_or_else(|e| e.into_inner()).remove(&room_id);
    }

    /// Sends a command to the instance that owns its room.
    pub(super) async fn forward(&self, peer: &Peer, room_id: i64, caller: &Requester, cmd: &Command) -> Forwarding {
        match self.send_to(peer, room_id, &Forwarded::Command { caller: caller.clone(), cmd: cmd.clone() }).await {
            Sent::Answered(Ok(Some(reply))) => Forwarding::Answered(Ok(reply)),
            Sent::Answered(Ok(None)) => Forwarding::Answered(Err(MatchError::Internal)),
            Sent::Answered(Err(MatchError::ServedElsewhere { .. })) | Sent::NotDelivered => Forwarding::NotRun,
            Sent::Answered(Err(refused)) => Forwarding::Answered(Err(refused)),
            Sent::Unknown => Forwarding::Unknown,
        }
    }

    /// Sends `what` to the instance that owns the room (failures logged).
    pub(super) async fn send_to(&self, peer: &Peer, room_id: i64, what: &Forwarded) -> Sent {
        let url = format!("{}{}", peer.address.trim_end_matches('/'), forwarded_path(room_id));
        let sent = self.peers.post(&url).header(PEER_KEY_HEADER, &peer.key).json(what).send().await;
        match sent {
            Ok(r) if r.status().is_success() => match r.json::<Result<Option<CommandReply>, MatchError>>().await {
                Ok(answer) => Sent::Answered(answer),
                Err(e) => {
                    tracing::warn!(room_id, %url, error = %e, "the room's owner answered a forwarded command unreadably");
                    Sent::Unknown
                }
            },
            // Refused before the body was read (a wrong key: the owner restarted).
            Ok(r) => {
                tracing::warn!(room_id, %url, status = %r.status(), "forwarded command refused by its owner");
                Sent::NotDelivered
            }
            Err(e) if e.is_connect() => {
                tracing::warn!(room_id, %url, error = %e, "the room's owner could not be reached");
                Sent::NotDelivered
            }
            Err(e) => {
                tracing::warn!(room_id, %url, error = %e, "the room's owner did not answer a forwarded command");
                Sent::Unknown
            }
        }
    }
}

/// A lease renewal running in its own task: the leases it renewed, as (room, epoch).
type Renewal = tokio::task::JoinHandle<Result<Vec<(i64, i64)>, AppError>>;

/// The header a forwarded command carries its owner's peer key in.
pub const PEER_KEY_HEADER: &str = "x-space-baduk-peer";

/// Where an instance takes the commands other instances forward to it.
pub fn forwarded_path(room_id: i64) -> String {
    format!("/internal/v1/rooms/{room_id}/commands")
}

/// What came of sending something to a room's owner.
pub(super) enum Sent {
    /// The owner's answer.
    Answered(Result<Option<CommandReply>, MatchError>),
    /// Not delivered: no connection, or refused before the body was read.
    NotDelivered,
    /// Sent, but no answer came back: it may or may not have run (never sent twice).
    Unknown,
}

/// What came of forwarding a command.
pub(super) enum Forwarding {
    Answered(Result<CommandReply, MatchError>),
    /// Known not to have run: the owner could not be reached, or no longer owns the room.
    NotRun,
    /// It may have run.
    Unknown,
}

/// What an instance forwards to the owner of a room.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Forwarded {
    /// A command, with who sent it.
    Command { caller: Requester, cmd: Command },
    /// A signed-in viewer's live stream opened or closed on the forwarding instance, `from`.
    Presence { user_id: i64, connected: bool, from: String },
}
