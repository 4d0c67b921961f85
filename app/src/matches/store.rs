//! Rooms and their event logs in the database. An event is acknowledged to anyone only after
//! `append` has committed it (SQLite WAL, synchronous=FULL: it survives a killed process).

use sqlx::Row;

use super::{
    events::{Event, RoomSecrets, StoredEvent},
    settings::{MatchSettings, Preset},
    upgrade,
};
use crate::data::{internal, Db};
use crate::AppError;

impl Db {
    /// Creates the room row and its first event (`RoomCreated`) in one transaction.
    pub async fn insert_room(
        &self,
        name: &str,
        settings: &MatchSettings,
        created_by: i64,
        secrets: &RoomSecrets,
        at_ms: i64,
    ) -> Result<(i64, StoredEvent), AppError> {
        let spec = settings.board;
        let len = |a: engine::Axis| a.end - a.start + 1;
        let preset = match settings.preset {
            Preset::Space => "space",
            Preset::Classic => "classic",
        };
        let mut tx = self.pool().begin().await.map_err(internal)?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO rooms (name, preset, size_x, size_y, size_z, status, created_by, created_at_ms) \
             VALUES (?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id",
        )
        .bind(name)
        .bind(preset)
        .bind(len(spec.x))
        .bind(len(spec.y))
        .bind(len(spec.z))
        .bind(created_by)
        .bind(at_ms)
        .fetch_one(&mut *tx)
        .await
        .map_err(internal)?;
        let event = Event::RoomCreated { name: name.to_string(), settings: settings.clone(), created_by };
        let stored = insert_event(&mut tx, id, 1, at_ms, Some(created_by), event, Some(secrets)).await?;
        tx.commit().await.map_err(internal)?;
        Ok((id, stored))
    }

    /// Appends events after `version` atomically; fails (nothing written) if another writer
    /// got there first.
    pub async fn append_events(
        &self,
        room_id: i64,
        version: i64,
        at_ms: i64,
        actor: Option<i64>,
        events: Vec<Event>,
    ) -> Result<Vec<StoredEvent>, AppError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let status = events.iter().rev().find_map(|e| match e {
            Event::Started { .. } => Some("playing"),
            Event::Ended { .. } => Some("finished"),
            _ => None,
        });
        let mut tx = self.pool().begin().await.map_err(internal)?;
        let mut stored = Vec::with_capacity(events.len());
        for (i, e) in events.into_iter().enumerate() {
            stored.push(insert_event(&mut tx, room_id, version + 1 + i as i64, at_ms, actor, e, None).await?);
        }
        if let Some(status) = status {
            sqlx::query("UPDATE rooms SET status = ? WHERE id = ?")
                .bind(status)
                .bind(room_id)
                .execute(&mut *tx)
                .await
                .map_err(internal)?;
        }
        tx.commit().await.map_err(internal)?;
        Ok(stored)
    }

    /// A room's whole log and its secrets (from the `room_created` row); `None` if no such room.
    pub async fn load_log(&self, room_id: i64) -> Result<Option<(Vec<StoredEvent>, RoomSecrets)>, AppError> {
        let log = self.load_events(room_id, 0).await?;
        if log.is_empty() {
            return Ok(None);
        }
        let body: String = sqlx::query_scalar("SELECT body FROM match_events WHERE room_id = ? AND seq = 1")
            .bind(room_id)
            .fetch_one(self.pool())
            .await
            .map_err(internal)?;
        let secrets = serde_json::from_str(&body).map_err(|e| {
            tracing::error!(room_id, error = %e, "room secrets unreadable");
            AppError::Internal
        })?;
        Ok(Some((log, secrets)))
    }

    /// Events of a room with `seq > after`, in order.
    pub async fn load_events(&self, room_id: i64, after: i64) -> Result<Vec<StoredEvent>, AppError> {
        let rows = sqlx::query(
            "SELECT seq, at_ms, actor_id, body FROM match_events WHERE room_id = ? AND seq > ? ORDER BY seq",
        )
        .bind(room_id)
        .bind(after)
        .fetch_all(self.pool())
        .await
        .map_err(internal)?;
        // A format-1 log (see `upgrade`) needs its room's scoring method: read once, if ever.
        let mut method = None;
        let mut events = Vec::with_capacity(rows.len());
        for r in rows {
            let body: String = r.get("body");
            let seq: i64 = r.get("seq");
            let mut needs_method = false;
            let parsed = upgrade::parse_body(&body, || {
                needs_method = true;
                method
            });
            let event = match parsed {
                Err(_) if needs_method && method.is_none() => {
                    method = Some(self.scoring_method(room_id).await?);
                    upgrade::parse_body(&body, || method)
                }
                other => other,
            }
            .map_err(|e| {
                tracing::error!(room_id, seq, error = %e, "unreadable event in the log");
                AppError::Internal
            })?;
            if let Event::RoomCreated { settings, .. } = &event {
                method = method.or_else(|| upgrade::scoring_method(settings));
            }
            events.push(StoredEvent { seq, at_ms: r.get("at_ms"), actor: r.get("actor_id"), event });
        }
        Ok(events)
    }

    /// The scoring method of a room's settings (for upgrading format-1 events).
    async fn scoring_method(&self, room_id: i64) -> Result<engine::ScoringMethod, AppError> {
        let body: String = sqlx::query_scalar("SELECT body FROM match_events WHERE room_id = ? AND seq = 1")
            .bind(room_id)
            .fetch_one(self.pool())
            .await
            .map_err(internal)?;
        match upgrade::parse_body(&body, || None) {
            Ok(Event::RoomCreated { settings, .. }) => upgrade::scoring_method(&settings).ok_or(AppError::Internal),
            _ => Err(AppError::Internal),
        }
    }

    /// Rooms whose match is not finished (their actors are started at boot).
    pub async fn unfinished_room_ids(&self) -> Result<Vec<i64>, AppError> {
        sqlx::query_scalar("SELECT id FROM rooms WHERE status <> 'finished' ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(internal)
    }
}

async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    room_id: i64,
    seq: i64,
    at_ms: i64,
    actor: Option<i64>,
    event: Event,
    secrets: Option<&RoomSecrets>,
) -> Result<StoredEvent, AppError> {
    let fault = |e: serde_json::Error| {
        tracing::error!(error = %e, "event did not serialise");
        AppError::Internal
    };
    // The secrets share the row of `room_created`, beside (not inside) the public event.
    let mut body = serde_json::to_value(&event).map_err(fault)?;
    if let (Some(obj), Some(secrets)) = (body.as_object_mut(), secrets) {
        if let serde_json::Value::Object(extra) = serde_json::to_value(secrets).map_err(fault)? {
            obj.extend(extra);
        }
    }
    let body = body.to_string();
    sqlx::query("INSERT INTO match_events (room_id, seq, at_ms, actor_id, kind, body) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(room_id)
        .bind(seq)
        .bind(at_ms)
        .bind(actor)
        .bind(event.kind())
        .bind(body)
        .execute(&mut **tx)
        .await
        .map_err(internal)?;
    Ok(StoredEvent { seq, at_ms, actor, event })
}
