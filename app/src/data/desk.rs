//! The administrator's queue (items derived from the rooms, with their claims) and the
//! per-user notification list (003 §1.6, §3.6, §4.7, §5.7, §6.2, §10.2).

use crate::data::{on, Cols, Neutral};

use super::{internal, Db};
use crate::AppError;
use wire::referee::{Notice, NoticeKind, QueueEntry, QueueKind, RoomItem};

/// A claim refused: someone else already handles the item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    Claimed(QueueEntry),
    NoSuchItem,
    TakenBy(String),
}

impl Db {
    /// Makes the stored items of `room_id` the given ones: items still open keep their
    /// claim, closed ones go, new ones arrive unclaimed. Returns the kinds that are new.
    pub async fn sync_queue(&self, room_id: i64, items: &[RoomItem]) -> Result<Vec<QueueKind>, AppError> {
        let mut tx = super::write_tx(self).await?;
        let existing: Vec<String> =
            on!(&mut tx, t => sqlx::query_scalar("SELECT kind FROM queue_items WHERE room_id = $1")
            .bind(room_id)
            .fetch_all(&mut **t)
            .await)
            .map_err(internal)?;
        for kind in &existing {
            if !items.iter().any(|i| i.kind.as_str() == kind) {
                on!(&mut tx, t => sqlx::query("DELETE FROM queue_items WHERE room_id = $1 AND kind = $2")
                    .bind(room_id)
                    .bind(kind)
                    .execute(&mut **t)
                    .await.map(|r| r.rows_affected()))
                .map_err(internal)?;
            }
        }
        let mut new = Vec::new();
        for item in items {
            if !existing.iter().any(|k| k == item.kind.as_str()) {
                on!(&mut tx, t => sqlx::query("INSERT INTO queue_items (room_id, kind, since_ms) VALUES ($1, $2, $3)")
                    .bind(room_id)
                    .bind(item.kind.as_str())
                    .bind(item.since_ms)
                    .execute(&mut **t)
                    .await.map(|r| r.rows_affected()))
                .map_err(internal)?;
                new.push(item.kind);
            }
        }
        tx.commit().await?;
        Ok(new)
    }

    /// Every open item, oldest first.
    pub async fn queue(&self) -> Result<Vec<QueueEntry>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(
            "SELECT q.room_id, r.name AS room_name, q.kind, q.since_ms, u.username AS claimed_by, q.claimed_at_ms \
             FROM queue_items q JOIN rooms r ON r.id = q.room_id LEFT JOIN users u ON u.id = q.claimed_by \
             ORDER BY q.since_ms, q.room_id, q.kind",
        )
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter().filter_map(|r| queue_entry(r).transpose()).collect()
    }

    /// An administrator takes up an item; another one's claim stands.
    pub async fn claim(&self, room_id: i64, kind: QueueKind, admin: i64, now: i64) -> Result<ClaimOutcome, AppError> {
        // Only a claim of an unclaimed item changes anything, and only that one is logged.
        let mut tx = super::write_tx(self).await?;
        let fresh = on!(&mut tx, t => sqlx::query(
            "UPDATE queue_items SET claimed_by = $1, claimed_at_ms = $2 \
             WHERE room_id = $3 AND kind = $4 AND claimed_by IS NULL",
        )
        .bind(admin)
        .bind(now)
        .bind(room_id)
        .bind(kind.as_str())
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        if fresh == 1 {
            let logged = super::audit::Logged {
                actor: admin,
                action: crate::audit::AuditAction::QueueItemClaimed,
                target_user: None,
                room_id: Some(room_id),
                reasons: "",
            };
            super::audit::append(&mut tx.conn(), now, &logged, None, Some(&serde_json::json!({ "kind": kind })))
                .await?;
        }
        tx.commit().await?;
        let entry = self.queue().await?.into_iter().find(|e| e.room_id == room_id && e.kind == kind);
        let me: Option<String> = on!(self.pool(), p => sqlx::query_scalar("SELECT username FROM users WHERE id = $1")
            .bind(admin)
            .fetch_optional(p)
            .await)
        .map_err(internal)?;
        Ok(match entry {
            None => ClaimOutcome::NoSuchItem,
            Some(e) if e.claimed_by.is_some() && e.claimed_by != me => {
                ClaimOutcome::TakenBy(e.claimed_by.unwrap_or_default())
            }
            Some(e) => ClaimOutcome::Claimed(e),
        })
    }

    pub async fn admin_ids(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM users WHERE role = 'admin' ORDER BY id")
            .fetch_all(p)
            .await)
        .map_err(internal)
    }

    /// Stores one notification per recipient.
    pub async fn notify(
        &self,
        users: &[i64],
        room_id: Option<i64>,
        kind: NoticeKind,
        detail: Option<&str>,
        now: i64,
    ) -> Result<(), AppError> {
        if users.is_empty() {
            return Ok(());
        }
        let mut tx = super::write_tx(self).await?;
        for u in users {
            on!(&mut tx, t => sqlx::query("INSERT INTO notifications (user_id, room_id, kind, detail, at_ms) VALUES ($1, $2, $3, $4, $5)")
                .bind(u)
                .bind(room_id)
                .bind(<&str>::from(kind))
                .bind(detail)
                .bind(now)
                .execute(&mut **t)
                .await.map(|r| r.rows_affected()))
                .map_err(internal)?;
        }
        tx.commit().await
    }

    /// A user's latest notifications, newest first.
    pub async fn notices(&self, user_id: i64, limit: i64) -> Result<Vec<Notice>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(
            "SELECT n.id, n.room_id, r.name AS room_name, n.kind, n.detail, n.at_ms, n.read_at_ms \
             FROM notifications n LEFT JOIN rooms r ON r.id = n.room_id \
             WHERE n.user_id = $1 ORDER BY n.id DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter().filter_map(|r| notice(r).transpose()).collect()
    }

    pub async fn unread_notices(&self, user_id: i64) -> Result<i64, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at_ms IS NULL")
            .bind(user_id)
            .fetch_one(p)
            .await)
            .map_err(internal)
    }

    /// Marks the user's notifications up to `up_to` (all, if `None`) read.
    pub async fn mark_read(&self, user_id: i64, up_to: Option<i64>, now: i64) -> Result<(), AppError> {
        on!(self.pool(), p => sqlx::query("UPDATE notifications SET read_at_ms = $1 WHERE user_id = $2 AND read_at_ms IS NULL AND id <= $3")
            .bind(now)
            .bind(user_id)
            .bind(up_to.unwrap_or(i64::MAX))
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .map(|_| ())
            .map_err(internal)
    }
}

/// A row of an unknown kind (written by a newer server) is skipped, not an error.
fn queue_entry(r: &impl Cols) -> Result<Option<QueueEntry>, AppError> {
    let kind: String = r.col("kind")?;
    let Ok(kind) = kind.parse::<QueueKind>() else { return Ok(None) };
    Ok(Some(QueueEntry {
        room_id: r.col("room_id")?,
        room_name: r.col("room_name")?,
        kind,
        since_ms: r.col("since_ms")?,
        claimed_by: r.col("claimed_by")?,
        claimed_at_ms: r.col("claimed_at_ms")?,
    }))
}

fn notice(r: &impl Cols) -> Result<Option<Notice>, AppError> {
    let kind: String = r.col("kind")?;
    let Ok(kind) = kind.parse::<NoticeKind>() else { return Ok(None) };
    let read: Option<i64> = r.col("read_at_ms")?;
    Ok(Some(Notice {
        id: r.col("id")?,
        room_id: r.col("room_id")?,
        room_name: r.col("room_name")?,
        kind,
        detail: r.col("detail")?,
        at_ms: r.col("at_ms")?,
        read: read.is_some(),
    }))
}
