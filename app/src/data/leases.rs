//! Room leases: each live room is owned by exactly one server instance at a time (why:
//! docs/decisions/0003-several-instances-one-database.md). Taking a lease bumps its epoch;
//! every append carries the epoch its actor was given and is refused inside the writer's
//! transaction when the lease has moved on (fencing: `store::append_in`), so an instance that
//! lost a room — paused, partitioned, or simply slower than the one that took it — cannot
//! write to it.
//!
//! Times are the instances' own clocks (the service's `Clock`, manual in tests): the lease
//! lasts [`LEASE_MS`], ten times the skew NTP keeps between machines, and safety never
//! depends on them — only on the epoch.
//!
//! On PostgreSQL the lease row is the only lock between room writers: an append holds it
//! `FOR KEY SHARE` until its commit, a taking locks it `FOR UPDATE`, and a purge keeps appends
//! out through it (`hold_appends`). The lease lasts [`LEASE_MS`] (15 s) and is renewed every
//! [`RENEW_EVERY_MS`]; a lapsed lease is taken over by another instance, which loads the room
//! as after a server failure.
//!
//! Why row locks: room writers once queued on PostgreSQL's one advisory lock, and a
//! transaction cut off by a network partition held it — and every writer behind it — until
//! TCP gave up, so renewals came late and owners stopped their rooms. The price: a row lock
//! writes its tuple and WAL where the advisory lock wrote nothing (not profiled; figures:
//! docs/performance.md, "Server load on PostgreSQL, one and several instances", "Fault runs").

use super::{internal, on, row_tx, Cols, Db, Neutral};
use crate::AppError;

/// How long a taken or renewed lease lasts.
pub const LEASE_MS: i64 = 15_000;
/// How often an instance renews all its leases (a third of their life: two renewals may fail
/// before any lapses).
pub const RENEW_EVERY_MS: i64 = LEASE_MS / 3;

/// A room owned by this instance under `epoch`: what an append must show to write (made only
/// by taking the lease).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    pub room_id: i64,
    pub epoch: i64,
}

/// What asking for a room's lease gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taking {
    /// This instance owns the room now, under an epoch larger than any before it.
    Taken { lease: Lease, previous: Previous },
    /// Another instance owns the room until `until_ms`.
    HeldBy { owner: String, until_ms: i64 },
    /// There is no such room.
    NoSuchRoom,
}

/// Where another instance takes commands for a room it owns, the key it expects, and until
/// when its lease of that room lasts (as read: it may renew, give up or lose it sooner).
#[derive(Clone, PartialEq, Eq)]
pub struct Peer {
    pub address: String,
    pub key: String,
    pub until_ms: i64,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer").field("address", &self.address).field("until_ms", &self.until_ms).finish_non_exhaustive()
    }
}

/// Whom the lease was taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Previous {
    /// Nobody: the room had no lease, or its holder gave it back.
    Free,
    /// This instance's own name, not given back: this instance, restarted (or reloading a
    /// room whose actor stopped).
    Mine,
    /// Another instance that stopped renewing without giving it back (a crash, a partition):
    /// the room is loaded as after a server failure (003 §6.1–6.3).
    Lapsed,
}

impl Db {
    /// Takes the lease of `room_id` for `owner` unless another instance holds a live one.
    /// The same owner name (this instance restarted) takes it back at once.
    pub async fn take_lease(&self, room_id: i64, owner: &str, now_ms: i64) -> Result<Taking, AppError> {
        // Row locks only (no turn among all writers): the lease row is locked as it is read,
        // so two instances taking it at once take turns and the second sees the first's
        // epoch; an append holding the row (`FOR KEY SHARE`) is waited for.
        let mut tx = row_tx(self).await?;
        let mut row = Self::locked_lease(&mut tx, room_id).await?;
        if row.is_none() {
            // The first taking of the room inserts its row; two at once conflict, and the one
            // that loses reads the winner's row (locked) instead.
            let inserted = on!(&mut tx, t => sqlx::query(
                "INSERT INTO room_leases (room_id, owner, epoch, expires_at_ms) \
                 SELECT id, $2, 1, $3 FROM rooms WHERE id = $1 ON CONFLICT (room_id) DO NOTHING",
            )
            .bind(room_id)
            .bind(owner)
            .bind(now_ms + LEASE_MS)
            .execute(&mut **t)
            .await
            .map(|r| r.rows_affected()))
            .map_err(internal)?;
            if inserted == 1 {
                tx.commit().await?;
                return Ok(Taking::Taken { lease: Lease { room_id, epoch: 1 }, previous: Previous::Free });
            }
            row = Self::locked_lease(&mut tx, room_id).await?;
        }
        let taking = match row {
            None => Taking::NoSuchRoom,
            Some(r) => {
                let held_by: String = r.col("owner")?;
                let epoch: i64 = r.col("epoch")?;
                let until_ms: i64 = r.col("expires_at_ms")?;
                if held_by != owner && until_ms > now_ms {
                    // Ended here, not left to a dropped transaction: the row's lock goes now.
                    tx.commit().await?;
                    return Ok(Taking::HeldBy { owner: held_by, until_ms });
                }
                on!(&mut tx, t => sqlx::query(
                    "UPDATE room_leases SET owner = $1, epoch = $2, expires_at_ms = $3 WHERE room_id = $4",
                )
                .bind(owner)
                .bind(epoch + 1)
                .bind(now_ms + LEASE_MS)
                .bind(room_id)
                .execute(&mut **t)
                .await
                .map(|r| r.rows_affected()))
                .map_err(internal)?;
                let previous = match () {
                    () if until_ms == RELEASED => Previous::Free,
                    () if held_by == owner => Previous::Mine,
                    () => Previous::Lapsed,
                };
                Taking::Taken { lease: Lease { room_id, epoch: epoch + 1 }, previous }
            }
        };
        tx.commit().await?;
        Ok(taking)
    }

    /// The lease row of `room_id`, locked until `tx` ends.
    async fn locked_lease(tx: &mut super::Tx, room_id: i64) -> Result<Option<super::backend::Row>, AppError> {
        on!(tx, t => sqlx::query(&format!(
            "SELECT owner, epoch, expires_at_ms FROM room_leases WHERE room_id = $1{}",
            dialect::LOCK_FOR_UPDATE
        ))
        .bind(room_id)
        .fetch_optional(&mut **t)
        .await
        .map(Neutral::neutral))
        .map_err(internal)
    }

    /// The instance holding a live lease of `room_id` other than `me`, where it takes
    /// commands (`None`: no such holder, or it gave no address).
    pub async fn lease_peer(&self, room_id: i64, me: &str, now_ms: i64) -> Result<Option<Peer>, AppError> {
        let row = on!(self.pool(), p => sqlx::query(
            "SELECT i.address, i.peer_key, l.expires_at_ms FROM room_leases l JOIN server_instances i ON i.id = l.owner \
             WHERE l.room_id = $1 AND l.owner <> $2 AND l.expires_at_ms > $3 AND i.address IS NOT NULL",
        )
        .bind(room_id)
        .bind(me)
        .bind(now_ms)
        .fetch_optional(p)
        .await
        .map(Neutral::neutral))
        .map_err(internal)?;
        row.map(|r| Ok(Peer { address: r.col("address")?, key: r.col("peer_key")?, until_ms: r.col("expires_at_ms")? }))
            .transpose()
    }

    /// Renews every lease `owner` still holds, and says the instance is alive (reachable at
    /// `address` with `peer_key`); returns the leases as (room, epoch). A lease another
    /// instance took is not among them: its actor here must stop. Without a turn among the
    /// writers (`row_tx`): a renewal racing a takeover of the same row waits for its row
    /// lock and then no longer matches it; a takeover that read the lease lapsed just before
    /// a late renewal wins (the epoch fences the old owner either way).
    pub async fn renew_leases(
        &self,
        owner: &str,
        address: Option<&str>,
        peer_key: &str,
        now_ms: i64,
    ) -> Result<Vec<(i64, i64)>, AppError> {
        let mut tx = row_tx(self).await?;
        let held = on!(&mut tx, t => sqlx::query(
            "UPDATE room_leases SET expires_at_ms = $1 WHERE owner = $2 AND expires_at_ms <> $3 \
             RETURNING room_id, epoch",
        )
        .bind(now_ms + LEASE_MS)
        .bind(owner)
        .bind(RELEASED)
        .fetch_all(&mut **t)
        .await
        .map(Neutral::neutral))
        .map_err(internal)?;
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO server_instances (id, address, peer_key, seen_at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO UPDATE SET address = excluded.address, peer_key = excluded.peer_key, \
             seen_at_ms = excluded.seen_at_ms",
        )
        .bind(owner)
        .bind(address)
        .bind(peer_key)
        .bind(now_ms)
        .execute(&mut **t)
        .await
        .map(|r| r.rows_affected()))
        .map_err(internal)?;
        tx.commit().await?;
        held.iter().map(|r| Ok((r.col("room_id")?, r.col("epoch")?))).collect()
    }

    /// The instances that have not renewed for a whole lease (stopped, or cut off).
    pub async fn gone_instances(&self, now_ms: i64) -> Result<Vec<String>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM server_instances WHERE seen_at_ms <= $1")
            .bind(now_ms - LEASE_MS)
            .fetch_all(p)
            .await)
        .map_err(internal)
    }

    /// True while `owner` holds `lease` (nobody took the room since).
    pub async fn holds(&self, lease: Lease, owner: &str) -> Result<bool, AppError> {
        let found: Option<i64> = on!(self.pool(), p => sqlx::query_scalar(
            "SELECT epoch FROM room_leases WHERE room_id = $1 AND epoch = $2 AND owner = $3",
        )
        .bind(lease.room_id)
        .bind(lease.epoch)
        .bind(owner)
        .fetch_optional(p)
        .await)
        .map_err(internal)?;
        Ok(found.is_some())
    }

    /// Unfinished rooms whose owner stopped renewing without giving the lease back (at most
    /// `limit`, longest lapsed first): someone must take them over, since their clocks run.
    pub async fn lapsed_leases(&self, now_ms: i64, limit: i64) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar(
            "SELECT l.room_id FROM room_leases l JOIN rooms r ON r.id = l.room_id \
             WHERE l.expires_at_ms <> $1 AND l.expires_at_ms <= $2 AND r.status <> 'finished' \
             ORDER BY l.expires_at_ms LIMIT $3",
        )
        .bind(RELEASED)
        .bind(now_ms)
        .bind(limit)
        .fetch_all(p)
        .await)
        .map_err(internal)
    }

    /// Gives a lease back (the room's actor was released): another instance may take it at
    /// once. Only the holder of `epoch` can; the epoch is kept, so it never repeats.
    pub async fn release_lease(&self, Lease { room_id, epoch }: Lease) -> Result<(), AppError> {
        let mut tx = row_tx(self).await?;
        on!(&mut tx, t => sqlx::query("UPDATE room_leases SET expires_at_ms = $1 WHERE room_id = $2 AND epoch = $3")
            .bind(RELEASED)
            .bind(room_id)
            .bind(epoch)
            .execute(&mut **t)
            .await
            .map(|r| r.rows_affected()))
        .map_err(internal)?;
        tx.commit().await
    }
}

/// Keeps the appends of `room_id` out until `tx` ends, having waited for any in flight: its
/// lease row is locked (`FOR UPDATE`), made given-back first if the room has none. Every
/// append holds that row (`FOR KEY SHARE`, the fenced insert) until its commit, so a writer
/// that must see the room's whole log — a purge — reads it after the last append, and an
/// append that waited reads what that writer committed (a purged room refuses it).
pub(super) async fn hold_appends(tx: &mut super::Tx, room_id: i64) -> Result<(), AppError> {
    on!(&mut *tx, t => sqlx::query(
        "INSERT INTO room_leases (room_id, owner, epoch, expires_at_ms) VALUES ($1, '', 1, $2) \
         ON CONFLICT (room_id) DO NOTHING",
    )
    .bind(room_id)
    .bind(RELEASED)
    .execute(&mut **t)
    .await
    .map(|r| r.rows_affected()))
    .map_err(internal)?;
    Db::locked_lease(tx, room_id).await.map(|_| ())
}

/// The expiry a given-up lease is set to (no clock reads 0 as the future).
const RELEASED: i64 = 0;
