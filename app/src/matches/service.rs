//! The match domain layer: the one place the UI's server functions and the participant API
//! both call. Finds (or starts) a room's actor and passes commands to it.

use std::{collections::HashMap, sync::Arc};

use tokio::sync::{broadcast, oneshot, Mutex};

use super::{
    actor::{self, CommandReply, Request, RoomHandle},
    conduct::Target,
    desk::Desk,
    events::{RoomSecrets, StoredEvent},
    referee::{DeskView, Notice, QueueEntry, QueueKind},
    settings::MatchSettings,
    state::{Command, MatchError, MatchState, Requester, SeatHolder},
    view::RoomView,
};
use crate::{
    clock::Clock,
    data::{
        doorbell::Ring,
        leases::{Lease, Peer, Previous, Taking, LEASE_MS, RENEW_EVERY_MS},
        secrets::random_hex,
        sha256_hex, Db,
    },
    AppError,
};

/// Room names: 1–60 characters.
pub const ROOM_NAME_LEN: std::ops::RangeInclusive<usize> = 1..=60;

pub use super::commands::CreatedRoom;

/// How often the service looks for idle rooms to release.
const RELEASE_SWEEP_MS: i64 = 60 * 1000;

/// This server instance among those sharing the database (issue 15 §3): its name, under
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
        Instance { id, address, peer_key: super::super::data::secrets::random_hex::<16>().unwrap_or_default() }
    }

    /// The embedded database's only instance (the data folder's lock keeps it alone).
    pub fn embedded() -> Self {
        Self::new("embedded".into(), None)
    }
}

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
    training: crate::learning::service::Training,
}

/// Storage failures are logged where they happen; callers learn only whether to ask again
/// (the database did not answer: 503) or that it was internal.
pub(super) fn from_app(e: AppError) -> MatchError {
    match e {
        AppError::DatabaseUnavailable { retry_after_s } => {
            MatchError::DatabaseUnavailable { retry_after_s: u32::try_from(retry_after_s).unwrap_or(u32::MAX) }
        }
        _ => MatchError::Internal,
    }
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

    pub(crate) fn training(&self) -> crate::learning::service::Training {
        self.training.clone()
    }

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
    async fn load(&self, room_id: i64, loading: Loading) -> Result<RoomHandle, MatchError> {
        match self.take_lease(room_id).await? {
            Ok((lease, previous)) => self.load_as(room_id, Some(lease), restarting(loading, previous)).await,
            Err(elsewhere) if loading == Loading::Boot => Err(elsewhere),
            Err(_) => self.load_as(room_id, None, false).await,
        }
    }

    /// The room's lease for this instance (with whom it was taken from), or
    /// `ServedElsewhere` with how long until the holder's lease lapses unless renewed.
    async fn take_lease(&self, room_id: i64) -> Result<Result<(Lease, Previous), MatchError>, MatchError> {
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
    async fn load_as(&self, room_id: i64, lease: Option<Lease>, restarting: bool) -> Result<RoomHandle, MatchError> {
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
        if let Some(crate::matches::events::HoldReason::DamagedRecord { seq, why }) = state.hold() {
            tracing::error!(room_id, seq, why, "event log does not replay; room held as damaged");
        }
        if let Some(lease) = lease.filter(|_| {
            restarting
                && state.hold().is_none_or(|h| !matches!(h, crate::matches::events::HoldReason::DamagedRecord { .. }))
        }) {
            let held = state.on_restart(self.clock.now_ms());
            if !held.is_empty() {
                let stored = self
                    .db
                    .append_events(lease, state.version, self.clock.now_ms(), super::store::Cause::by(None), held, None)
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
    /// for (issue 15 §1). Returns how many were released.
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
    async fn close_streams_of_gone(
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
    async fn renew(&self) -> Result<Vec<(i64, i64)>, AppError> {
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
    async fn stop_lost(&self, renewed: Vec<(i64, i64)>) {
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

    pub async fn create_room(
        &self,
        creator: &Requester,
        name: &str,
        settings: MatchSettings,
    ) -> Result<CreatedRoom, AppError> {
        let name = name.trim();
        let n = name.chars().count();
        if !ROOM_NAME_LEN.contains(&n) {
            let (min, max) = (*ROOM_NAME_LEN.start() as u64, *ROOM_NAME_LEN.end() as u64);
            return Err(AppError::input("name", crate::error::InputProblem::Length { min, max, got: n as u64 }));
        }
        // 003 §12.4: a program game belongs to its program match.
        if settings.mode.is_program_game() {
            return Err(AppError::invalid("settings.mode", "program games are made by starting a program match"));
        }
        self.create_room_unchecked(creator, name, settings).await
    }

    /// Creates a room of any mode, program games included (their series makes them).
    pub(crate) async fn create_room_unchecked(
        &self,
        creator: &Requester,
        name: &str,
        settings: MatchSettings,
    ) -> Result<CreatedRoom, AppError> {
        let name = name.trim();
        let mut settings = settings;
        // The version, its permits and the site's retention are pinned before the one check.
        self.pin_agreements(&mut settings).await?;
        settings.validate().map_err(|e| AppError::invalid("settings", e.to_string()))?;
        self.prepare_mode(creator, &mut settings).await?;
        // Invitation codes: 10 random bytes as hex.
        let codes = [random_hex::<10>()?, random_hex::<10>()?];
        let secrets = RoomSecrets {
            invite_sha256: [sha256_hex(&codes[0]), sha256_hex(&codes[1])],
            nigiri_seed: Some(actor::random_seed()),
        };
        let (room_id, first) =
            self.db.insert_room(name, &settings, creator.user_id, &secrets, self.clock.now_ms()).await?;
        let lease = match self.db.take_lease(room_id, &self.instance.id, self.clock.now_ms()).await? {
            Taking::Taken { lease, .. } => lease,
            taking => {
                tracing::error!(room_id, ?taking, "a new room's lease was not taken");
                return Err(AppError::Internal);
            }
        };
        let mut state = MatchState::replay(&[first], secrets).map_err(|e| {
            tracing::error!(error = %e, "new room does not replay");
            AppError::Internal
        })?;
        // Modes other than a match seat their players now (003 §1.2, §11.2).
        let now = self.clock.now_ms();
        let creator_seat = SeatHolder { user_id: creator.user_id, username: creator.username.clone() };
        let seated = state.seat_at_creation(&creator_seat, now).map_err(|e| {
            tracing::error!(error = ?e, "new room's seats refused");
            AppError::Internal
        })?;
        let listing = state.listing();
        if seated.is_empty() {
            self.db.set_listing(room_id, &listing).await?;
        } else {
            let update = super::store::ListingUpdate { listing: &listing, players_changed: true };
            let stored = self
                .db
                .append_events(
                    lease,
                    state.version,
                    now,
                    super::store::Cause::by(Some(creator.user_id)),
                    seated,
                    Some(update),
                )
                .await?;
            if let Some(last) = stored.last() {
                state.version = last.seq;
            }
        }
        let handle = actor::spawn(
            room_id,
            Some(lease),
            state,
            self.db.clone(),
            self.clock.clone(),
            self.desk.clone(),
            Some(listing),
        );
        self.rooms.lock().await.insert(room_id, handle);
        Ok(CreatedRoom { room_id, invite_codes: codes })
    }

    /// Checks who may create the mode and pins the computer's model and seed (003 §11.2,
    /// §12.5): practice is the administrator's; a computer seat plays the chosen stored
    /// model (by default the built-in one), fixed for the room's life.
    async fn prepare_mode(&self, creator: &Requester, settings: &mut MatchSettings) -> Result<(), AppError> {
        use super::mode::{ModelPin, RoomMode};
        use super::settings::ColourAssignment;
        if settings.mode.is_practice() && !creator.is_admin() {
            return Err(AppError::Match(MatchError::AdminOnly));
        }
        let invited = matches!(settings.mode, RoomMode::VsComputer { opponent: super::mode::Opponent::Invited, .. });
        let program_game = settings.mode.is_program_game();
        let now = self.clock.now_ms();
        let mut first_is_black = None;
        for c in settings.mode.computers_mut() {
            let model = match c.model_id {
                None => self.db.builtin_model(now).await?,
                Some(id) => self.db.model(id).await?.ok_or(AppError::NoModel { id })?,
            };
            c.model_id = Some(model.id);
            c.model = Some(ModelPin { id: model.id, version: model.version, fingerprint: model.fingerprint });
            c.seed = actor::random_seed();
            // The colours follow from the computer's: its seat is the second (the first
            // when the other seat is by invitation, or in a program game for its first).
            let computer_first = invited || program_game;
            first_is_black.get_or_insert((c.colour == engine::Color::Black) == computer_first);
        }
        if let Some(black) = first_is_black {
            settings.colours = if black { ColourAssignment::HostBlack } else { ColourAssignment::HostWhite };
        }
        if let RoomMode::OneDevice { second_player } = &mut settings.mode {
            *second_player = second_player.trim().to_string();
        }
        Ok(())
    }

    /// Runs a command in the room's actor, wherever it is: here, or forwarded to the instance
    /// that owns the room (issue 15 §3).
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

    /// The instance known to own `room_id`, while the lease last read lasts.
    fn known_peer(&self, room_id: i64) -> Option<Peer> {
        let now = self.clock.now_ms();
        let known = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
        known.get(&room_id).filter(|p| p.until_ms > now).cloned()
    }

    /// The instance owning `room_id` now, as the database says (remembered while its lease
    /// lasts); `None` when none holds a live lease.
    async fn peer_of(&self, room_id: i64) -> Option<Peer> {
        let found = self.db.lease_peer(room_id, &self.instance.id, self.clock.now_ms()).await.ok().flatten();
        let mut known = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
        match &found {
            Some(peer) => known.insert(room_id, peer.clone()),
            None => known.remove(&room_id),
        };
        found
    }

    fn forget_peer(&self, room_id: i64) {
        self.elsewhere.lock().unwrap_or_else(|e| e.into_inner()).remove(&room_id);
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

    /// Sends a command to the instance that owns its room.
    async fn forward(&self, peer: &Peer, room_id: i64, caller: &Requester, cmd: &Command) -> Forwarding {
        match self.send_to(peer, room_id, &Forwarded::Command { caller: caller.clone(), cmd: cmd.clone() }).await {
            Sent::Answered(Ok(Some(reply))) => Forwarding::Answered(Ok(reply)),
            Sent::Answered(Ok(None)) => Forwarding::Answered(Err(MatchError::Internal)),
            Sent::Answered(Err(MatchError::ServedElsewhere { .. })) | Sent::NotDelivered => Forwarding::NotRun,
            Sent::Answered(Err(refused)) => Forwarding::Answered(Err(refused)),
            Sent::Unknown => Forwarding::Unknown,
        }
    }

    /// Sends `what` to the instance that owns the room (failures logged).
    async fn send_to(&self, peer: &Peer, room_id: i64, what: &Forwarded) -> Sent {
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
                let account = if super::commands::APPROVED_NAME_LEN.contains(&username.trim().chars().count()) {
                    let user = self.db.user_by_name(&username).await.map_err(from_app)?;
                    user.map(|u| SeatHolder { user_id: u.id, username: u.username })
                } else {
                    None // the room refuses the length first
                };
                Request::ApproveViewer { caller, username, account, reply }
            }
            // 003 §6.5: a spectator is named by account; the room records the account's id.
            Command::AdminSanction { target: Target::Spectator { ref username }, .. } => {
                let spectator = if super::commands::APPROVED_NAME_LEN.contains(&username.trim().chars().count()) {
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
    ) -> Result<(Box<super::state::MatchState>, Vec<super::events::StoredEvent>), MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Record { viewer, reply }).await?;
        let state = rx.await.map_err(|_| MatchError::Internal)??;
        let log = self.db.load_events(room_id, 0).await.map_err(from_app)?;
        Ok((state, log))
    }

    /// The stored record of a room, for those allowed to read it (003 §8.1, §9.7).
    pub async fn record(&self, room_id: i64, viewer: Requester) -> Result<super::record::RoomRecord, MatchError> {
        let (state, log) = self.record_log(room_id, viewer).await?;
        let filter = crate::audit::AuditFilter { room: Some(room_id), ..Default::default() };
        let mut audit = self.db.audit_entries(&filter, None).await.map_err(from_app)?;
        audit.retain(|e| e.action.in_room_record());
        audit.reverse();
        Ok(super::record::RoomRecord::build(room_id, &state, &log, audit))
    }

    /// Rooms with an outstanding notice for the administrator.
    pub async fn needing_attention(&self) -> Result<Vec<RoomView>, MatchError> {
        let ids: Vec<i64> = self.rooms.lock().await.keys().copied().collect();
        let mut out = Vec::new();
        for id in ids {
            if let Ok(v) = self.view(id, None).await {
                if v.attention.is_some() || v.phase == super::commands::RoomPhase::Held {
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

    /// The administrator's queue, oldest first (administrators only).
    pub async fn queue(&self, who: &Requester) -> Result<Vec<QueueEntry>, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        self.db.queue().await
    }

    /// Woken when the queue may have changed (the administrator's live stream).
    pub fn queue_changes(&self) -> broadcast::Receiver<()> {
        self.desk.subscribe()
    }

    /// An administrator takes up an item; the room's players are told who (003 §1.5).
    pub async fn claim(&self, who: &Requester, room_id: i64, kind: QueueKind) -> Result<QueueEntry, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        match self.db.claim(room_id, kind, who.user_id, self.clock.now_ms()).await? {
            crate::data::desk::ClaimOutcome::Claimed(entry) => {
                if super::desk::raised_by_players(kind) {
                    // The room knows its players by id: no view to build, no names to look up.
                    let ids = self.players(room_id).await?;
                    self.desk.claimed(room_id, &ids, &who.username, self.clock.now_ms()).await;
                } else {
                    self.desk.wake().await;
                }
                Ok(entry)
            }
            crate::data::desk::ClaimOutcome::NoSuchItem => Err(AppError::NoQueueItem { room_id, kind }),
            crate::data::desk::ClaimOutcome::TakenBy(by) => Err(AppError::ClaimedByOther { by }),
        }
    }

    /// What the administrator sees beside a room's board (administrators only): the room,
    /// its chains in detail, the server's timeline and its open items.
    pub async fn desk(&self, who: &Requester, room_id: i64) -> Result<DeskView, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Desk { reply }).await?;
        let (chains, room) = rx.await.map_err(|_| MatchError::Internal)?;
        let timeline = match self.db.load_log_checked(room_id).await? {
            Some(log) => super::desk::timeline(&log.events, log.secrets),
            None => Vec::new(),
        };
        let items = self.db.queue().await?.into_iter().filter(|e| e.room_id == room_id).collect();
        Ok(DeskView { room, chains, timeline, items })
    }

    /// The signed-in user's latest notifications and how many are unread.
    pub async fn notices(&self, who: &Requester) -> Result<(Vec<Notice>, i64), AppError> {
        Ok((self.db.notices(who.user_id, 50).await?, self.unread_notices(who).await?))
    }

    /// How many of `who`'s notifications are unread (the header's bell).
    pub async fn unread_notices(&self, who: &Requester) -> Result<i64, AppError> {
        self.db.unread_notices(who.user_id).await
    }

    pub async fn mark_read(&self, who: &Requester, up_to: Option<i64>) -> Result<(), AppError> {
        self.db.mark_read(who.user_id, up_to, self.clock.now_ms()).await
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
enum Sent {
    /// The owner's answer.
    Answered(Result<Option<CommandReply>, MatchError>),
    /// Not delivered: no connection, or refused before the body was read.
    NotDelivered,
    /// Sent, but no answer came back: it may or may not have run (never sent twice).
    Unknown,
}

/// What came of forwarding a command.
enum Forwarding {
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
enum Loading {
    /// At this instance's start.
    Boot,
    /// Asked for, with no actor of it in this process before.
    Fresh,
    /// Its actor here stopped (released, lease lost, or its state lost).
    Reload,
}

/// A viewer following a room ([`MatchService::follow`]).
pub struct Follow {
    /// The stored events after the viewer's `after`: only for those who may read the stored
    /// record (003 §8.1); `None` for everyone else.
    pub gap: Option<Vec<StoredEvent>>,
    /// The room as the viewer saw it when they joined; `view.version` is the join version.
    pub view: RoomView,
    /// The live events; those up to `view.version` are already in the view (or the gap).
    pub live: broadcast::Receiver<std::sync::Arc<super::published::Published>>,
    /// The viewer holds a seat in the room (by account) as of the view.
    pub seated: bool,
}
