//! The rooms loaded in this process: each room's actor found or started from its stored log,
//! as owner (holding the room's lease) or follower (reads only), and given back when idle.
//!
//! `owner` takes a room's lease (given back, or lapsed: then loaded as after a server failure)
//! and starts its actor as owner, replacing a follower here; while another instance holds the
//! lease it answers `ServedElsewhere` with the wait. At start, `boot` loads every unfinished room
//! from its log; a game that was in play comes back held (reason `server_restart`) and moves are
//! refused until both players are Ready again (003 §6.1–6.3). The sweep (`start_releasing`, every
//! minute of the service's clock) gives back the actor of a room idle for ten minutes that nobody
//! watches (`actor::RELEASE_AFTER_MS`); the room is loaded again from its log when next asked for.

use tokio::sync::oneshot;

use super::MatchService;
use crate::matches::from_app;
use crate::{
    data::leases::{Lease, Previous, Taking},
    matches::actor::{self, Request, RoomHandle},
    AppError,
};
use room::{MatchError, MatchState};

/// How often the service looks for idle rooms to release.
const RELEASE_SWEEP_MS: i64 = 60 * 1000;

impl MatchService {
    /// At server start: every unfinished room is loaded from its log; games that were in
    /// play are held until both players are ready again (003 §6.1–6.3). Returns how many
    /// rooms were loaded.
    pub async fn boot(&self) -> Result<usize, AppError> {
        // Known to the other instances (and to forwarded commands) from the start.
        self.renew().await?;
        let ids = self.db.unfinished_room_ids().await?;
        let mut rooms = self.rooms.lock().await;
        for id in &ids {
            match self.load(*id, Loading::Boot).await {
                Ok(handle) => {
                    rooms.insert(*id, handle);
                }
                // Another instance serves it.
                Err(MatchError::ServedElsewhere { .. }) => {}
                Err(e) => tracing::error!(room_id = id, error = %e, "room not loaded"),
            }
        }
        Ok(rooms.len())
    }

    /// Takes the room's lease and loads it from its log as its owner. While another instance
    /// holds the lease, the room is loaded as a follower (reads only; at boot, not at all:
    /// `ServedElsewhere`).
    pub(super) async fn load(&self, room_id: i64, loading: Loading) -> Result<RoomHandle, MatchError> {
        match self.take_lease(room_id).await? {
            Ok((lease, previous)) => self.load_as(room_id, Some(lease), restarting(loading, previous)).await,
            Err(elsewhere) if loading == Loading::Boot => Err(elsewhere),
            Err(_) => self.load_as(room_id, None, false).await,
        }
    }

    /// The room's lease for this instance (with whom it was taken from), or
    /// `ServedElsewhere` with how long until the holder's lease lapses unless renewed.
    pub(super) async fn take_lease(&self, room_id: i64) -> Result<Result<(Lease, Previous), MatchError>, MatchError> {
        let now = self.clock.now_ms();
        Ok(match self.db.take_lease(room_id, &self.instance.id, now).await.map_err(from_app)? {
            Taking::Taken { lease, previous } => Ok((lease, previous)),
            Taking::HeldBy { until_ms, .. } => {
                let retry_after_s = u32::try_from((until_ms - now + 999) / 1000).unwrap_or(u32::MAX).max(1);
                Err(MatchError::ServedElsewhere { retry_after_s })
            }
            Taking::NoSuchRoom => return Err(MatchError::RoomNotFound),
        })
    }

    /// Loads the room from its log: its owner under `lease`, or a follower (`None`).
    pub(super) async fn load_as(
        &self,
        room_id: i64,
        lease: Option<Lease>,
        restarting: bool,
    ) -> Result<RoomHandle, MatchError> {
        let Some(log) = self.db.load_log_checked(room_id).await.map_err(from_app)? else {
            // 003 §9.7: a record deleted under its retention is gone, and says so.
            return Err(match self.db.purged_at(room_id).await.map_err(from_app)? {
                Some(at_ms) => MatchError::RecordDeleted { at_ms },
                None => MatchError::RoomNotFound,
            });
        };
        let now = self.clock.now_ms();
        // 003 §6.2: a log that does not replay is not skipped: the room is held as damaged
        // (clocks stopped) and queued for the administrator.
        let mut state =
            MatchState::replay_checked(&log.events, log.secrets, log.damage, log.last_seq, now).map_err(|e| {
                tracing::error!(room_id, error = %e, "event log has no first event");
                MatchError::Internal
            })?;
        if let Some(wire::events::HoldReason::DamagedRecord { seq, why }) = state.hold() {
            tracing::error!(room_id, seq, why, "event log does not replay; room held as damaged");
        }
        if let Some(lease) = lease.filter(|_| {
            restarting && state.hold().is_none_or(|h| !matches!(h, wire::events::HoldReason::DamagedRecord { .. }))
        }) {
            let held = state.on_restart(self.clock.now_ms());
            if !held.is_empty() {
                let stored = self
                    .db
                    .append_events(
                        lease,
                        state.version,
                        self.clock.now_ms(),
                        crate::data::room_log::Cause::by(None),
                        held,
                        None,
                    )
                    .await
                    .map_err(from_app)?;
                if let Some(last) = stored.last() {
                    state.version = last.seq;
                }
            }
        }
        let listed = self.db.listing_of(room_id).await.map_err(from_app)?;
        Ok(actor::spawn(room_id, lease, state, self.db.clone(), self.clock.clone(), self.desk.clone(), listed))
    }

    /// Lists again every closed room whose listing is stale (none yet, or one older than its
    /// newest fields), replayed from its log, so that "your games", profiles and the archive
    /// count them too; rooms in play got theirs from their actors at boot. Returns how many
    /// were listed.
    pub async fn list_closed_rooms(&self) -> usize {
        let ids = match self.db.stale_closed_room_ids().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!(error = %e, "closed rooms not listed");
                return 0;
            }
        };
        let mut listed = 0;
        for id in ids {
            let Ok(Some(log)) = self.db.load_log_checked(id).await else { continue };
            let now = self.clock.now_ms();
            match MatchState::replay_checked(&log.events, log.secrets, log.damage, log.last_seq, now) {
                Ok(state) => {
                    listed += usize::from(self.db.set_listing_if_stale(id, &state.listing()).await.unwrap_or(false))
                }
                Err(e) => tracing::warn!(room_id = id, error = %e, "closed room not listed"),
            }
        }
        listed
    }

    /// Drops a room's actor (its record is being deleted); a later request loads it again.
    pub(crate) async fn forget(&self, room_id: i64) {
        self.rooms.lock().await.remove(&room_id);
    }

    /// The room's actor here, its owner or a follower: enough for reads.
    pub(crate) async fn handle(&self, room_id: i64) -> Result<RoomHandle, MatchError> {
        let mut rooms = self.rooms.lock().await;
        let loading = match rooms.get(&room_id) {
            Some(h) if h.is_alive() => return Ok(h.clone()),
            // Released or stopped: it may still be answering what it had queued.
            Some(h) => {
                h.ended().await;
                Loading::Reload
            }
            None => Loading::Fresh,
        };
        let h = self.load(room_id, loading).await?;
        rooms.insert(room_id, h.clone());
        Ok(h)
    }

    /// The room's owning actor here: a follower is replaced by the owner when the lease can
    /// be taken (given back, or lapsed: then as after a server failure); while another
    /// instance holds it, `ServedElsewhere` — with nothing loaded here for it.
    pub(crate) async fn owner(&self, room_id: i64) -> Result<RoomHandle, MatchError> {
        let mut rooms = self.rooms.lock().await;
        let (loading, follower) = match rooms.get(&room_id) {
            Some(h) if h.is_alive() && h.lease.is_some() => return Ok(h.clone()),
            Some(h) if h.is_alive() => (Loading::Reload, Some(h.clone())),
            // Released or stopped: it may still be answering what it had queued.
            Some(h) => {
                h.ended().await;
                (Loading::Reload, None)
            }
            None => (Loading::Fresh, None),
        };
        let (lease, previous) = self.take_lease(room_id).await??;
        self.forget_peer(room_id);
        if let Some(follower) = follower {
            let _ = follower.tx.send(Request::Stop).await;
            follower.ended().await;
        }
        let owner = self.load_as(room_id, Some(lease), restarting(loading, previous)).await?;
        rooms.insert(room_id, owner.clone());
        Ok(owner)
    }

    /// Sends `request` to the room's actor; if that actor was released in the meantime
    /// (idle, see [`MatchService::release_idle`]), to the one loaded in its place.
    pub(crate) async fn deliver(&self, room_id: i64, h: RoomHandle, request: Request) -> Result<(), MatchError> {
        match h.tx.send(request).await {
            Ok(()) => Ok(()),
            Err(tokio::sync::mpsc::error::SendError(request)) => {
                let h = self.handle(room_id).await?;
                h.tx.send(request).await.map_err(|_| MatchError::Internal)
            }
        }
    }

    /// Gives back the actors (and memory) of rooms idle for [`actor::RELEASE_AFTER_MS`]:
    /// nobody watching, nothing due; they are loaded again from their logs when next asked
    /// for, so memory follows the rooms in use, not every room ever opened. Returns how many
    /// were released.
    pub async fn release_idle(&self) -> usize {
        // Asked without the rooms' lock, so no room waits for the sweep.
        let live: Vec<(i64, RoomHandle)> = {
            let mut rooms = self.rooms.lock().await;
            rooms.retain(|_, h| h.is_alive());
            rooms.iter().map(|(id, h)| (*id, h.clone())).collect()
        };
        let mut released = Vec::new();
        for (id, h) in live {
            let (reply, rx) = oneshot::channel();
            // A full inbox is a busy room.
            if h.tx.try_send(Request::Release { reply }).is_ok() && rx.await == Ok(true) {
                released.push((id, h));
            }
        }
        let mut rooms = self.rooms.lock().await;
        for (id, h) in &released {
            // Unless the room was loaded again meanwhile.
            if rooms.get(id).is_some_and(|now| now.same_actor(h)) {
                rooms.remove(id);
                // Given back, so that any instance may load it at once (kept if this fails:
                // it lapses).
                if let Some(lease) = h.lease {
                    if let Err(e) = self.db.release_lease(lease).await {
                        tracing::warn!(room_id = id, error = %e, "lease not given back");
                    }
                }
            }
        }
        released.len()
    }

    /// Stops the actors of the rooms whose lease `lost` says is gone; returns how many.
    pub async fn stop_rooms(&self, lost: impl Fn(&Lease) -> bool) -> usize {
        let gone: Vec<(i64, RoomHandle)> = {
            let mut rooms = self.rooms.lock().await;
            let ids: Vec<i64> = rooms
                .iter()
                .filter(|(_, h)| h.is_alive() && h.lease.as_ref().is_some_and(&lost))
                .map(|(id, _)| *id)
                .collect();
            ids.into_iter().filter_map(|id| rooms.remove(&id).map(|h| (id, h))).collect()
        };
        for (id, h) in &gone {
            tracing::info!(room_id = id, "lease lost; the room's actor stops");
            let _ = h.tx.send(Request::Stop).await;
        }
        gone.len()
    }

    /// Rooms whose actor is in memory now.
    pub async fn rooms_in_memory(&self) -> usize {
        let mut rooms = self.rooms.lock().await;
        rooms.retain(|_, h| h.is_alive());
        rooms.len()
    }

    /// Looks for idle rooms every minute of the service's clock, for as long as the
    /// returned task runs (the server aborts it when it stops serving).
    pub fn start_releasing(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move {
            loop {
                let at = this.clock.now_ms() + RELEASE_SWEEP_MS;
                this.clock.sleep_until(at).await;
                let n = this.release_idle().await;
                if n > 0 {
                    tracing::debug!(released = n, "idle rooms released");
                }
            }
        })
    }
}

/// 003 §6.1–6.3: a room is loaded as after a server failure — games in play held until
/// both are ready — at this instance's start, from an instance that stopped renewing, or
/// from this instance's own name not given back (its earlier run).
fn restarting(loading: Loading, previous: Previous) -> bool {
    match (loading, previous) {
        (Loading::Boot, _) | (_, Previous::Lapsed) | (Loading::Fresh, Previous::Mine) => true,
        (Loading::Reload, Previous::Mine) | (_, Previous::Free) => false,
    }
}

/// Why a room is being loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loading {
    /// At this instance's start.
    Boot,
    /// Asked for, with no actor of it in this process before.
    Fresh,
    /// Its actor here stopped (released, lease lost, or its state lost).
    Reload,
}
