//! The administrators' log (`audit_log`, append-only; `crate::audit`): who did what to
//! which account or room, when, with which reasons, and what it was before and after.
//! Written in the same transaction as the action it records.

use crate::data::{on, Cols, Conn, Neutral};

use super::{accounts::name_key, internal, Db};
use crate::{
    audit::{AuditAction, AuditEntry, AuditFilter},
    AppError,
};

/// An action about to be logged.
pub(super) struct Logged<'a> {
    pub actor: i64,
    pub action: AuditAction,
    pub target_user: Option<i64>,
    pub room_id: Option<i64>,
    pub reasons: &'a str,
}

pub(super) async fn append(
    conn: &mut Conn<'_>,
    now: i64,
    e: &Logged<'_>,
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> Result<(), AppError> {
    on!(&mut *conn, c => sqlx::query(
        "INSERT INTO audit_log (at_ms, actor_id, action, target_user, room_id, reasons, before_json, after_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(now)
    .bind(e.actor)
    .bind(<&str>::from(e.action))
    .bind(e.target_user)
    .bind(e.room_id)
    .bind(e.reasons)
    .bind(before.map(|v| v.to_string()))
    .bind(after.map(|v| v.to_string()))
    .execute(&mut **c)
    .await.map(|r| r.rows_affected()))
    .map_err(internal)?;
    Ok(())
}

/// A room action (`Event::audited`) as logged: the action, its reasons, where the room stood
/// before it (`None`: not known to the caller) and the event as the after.
pub(crate) type RoomAction<'a> = (AuditAction, &'a str, Option<&'a serde_json::Value>, &'a serde_json::Value);

/// A room action, logged beside its event.
pub(crate) async fn append_room_action(
    conn: &mut Conn<'_>,
    now: i64,
    actor: i64,
    room_id: i64,
    (action, reasons, before, after): RoomAction<'_>,
) -> Result<(), AppError> {
    let e = Logged { actor, action, target_user: None, room_id: Some(room_id), reasons };
    append(conn, now, &e, before, Some(after)).await
}

impl Db {
    /// Logs an administrator's action that changes nothing stored but the log (what it
    /// started is in `after`).
    pub async fn log_action(
        &self,
        now: i64,
        actor: i64,
        action: AuditAction,
        reasons: &str,
        after: &serde_json::Value,
    ) -> Result<(), AppError> {
        let mut tx = super::write_tx(self).await?;
        let e = Logged { actor, action, target_user: None, room_id: None, reasons };
        append(&mut tx.conn(), now, &e, None, Some(after)).await?;
        tx.commit().await
    }
}

fn json_column(r: &impl Cols, column: &str) -> Result<Option<serde_json::Value>, AppError> {
    let text: Option<String> = r.col(column)?;
    text.map(|t| serde_json::from_str(&t).map_err(|_| AppError::Internal)).transpose()
}

impl Db {
    /// The entries `filter` selects, newest first; at most `limit` (`None`: all of them).
    pub async fn audit_entries(&self, filter: &AuditFilter, limit: Option<i64>) -> Result<Vec<AuditEntry>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(
            "SELECT a.id, a.at_ms, actor.username AS actor, a.action, target.username AS target, a.room_id, \
                    a.reasons, a.before_json, a.after_json \
             FROM audit_log a JOIN users actor ON actor.id = a.actor_id \
             LEFT JOIN users target ON target.id = a.target_user \
             WHERE ($1 IS NULL OR actor.name_key = $1 OR actor.username = $2) AND ($3 IS NULL OR a.room_id = $3) \
               AND ($4 IS NULL OR a.action = $4) AND ($5 IS NULL OR a.at_ms >= $5) AND ($6 IS NULL OR a.at_ms < $6) \
             ORDER BY a.id DESC LIMIT $7",
        )
        .bind(filter.actor.as_deref().map(|n| name_key(n.trim())))
        .bind(filter.actor.as_deref().map(str::trim))
        .bind(filter.room)
        .bind(filter.action.map(<&str>::from))
        .bind(filter.from_ms)
        .bind(filter.to_ms)
        // No limit: as many as there can be (PostgreSQL refuses SQLite's -1).
        .bind(limit.unwrap_or(i64::MAX))
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter()
            .map(|r| {
                Ok(AuditEntry {
                    id: r.col("id")?,
                    at_ms: r.col("at_ms")?,
                    actor: r.col("actor")?,
                    action: r.named("action")?,
                    target_user: r.col("target")?,
                    room_id: r.col("room_id")?,
                    reasons: r.col("reasons")?,
                    before: json_column(r, "before_json")?,
                    after: json_column(r, "after_json")?,
                })
            })
            .collect()
    }
}
