use sqlx::Row;

use super::{internal, Db};
use crate::{api::RoomSummary, AppError};

impl Db {
    pub async fn list_rooms(&self) -> Result<Vec<RoomSummary>, AppError> {
        let rows = sqlx::query(
            "SELECT id, name, preset, size_x, size_y, size_z, status FROM rooms \
             WHERE status <> 'finished' ORDER BY created_at_ms DESC, id DESC LIMIT 200",
        )
        .fetch_all(self.pool())
        .await
        .map_err(internal)?;
        Ok(rows.into_iter().map(summary).collect())
    }

    /// Unfinished rooms where `user_id` holds a seat, newest first.
    pub async fn rooms_of(&self, user_id: i64) -> Result<Vec<RoomSummary>, AppError> {
        let rows = sqlx::query(
            "SELECT r.id, r.name, r.preset, r.size_x, r.size_y, r.size_z, r.status FROM rooms r \
             WHERE r.status <> 'finished' AND EXISTS (SELECT 1 FROM match_events e WHERE e.room_id = r.id \
             AND e.kind = 'seat_taken' AND json_extract(e.body, '$.user_id') = ?) ORDER BY r.id DESC LIMIT 50",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await
        .map_err(internal)?;
        Ok(rows.into_iter().map(summary).collect())
    }
}

fn summary(r: sqlx::sqlite::SqliteRow) -> RoomSummary {
    RoomSummary {
        id: r.get("id"),
        name: r.get("name"),
        preset: r.get("preset"),
        board: format!("{}x{}x{}", r.get::<i64, _>("size_x"), r.get::<i64, _>("size_y"), r.get::<i64, _>("size_z")),
        status: r.get("status"),
    }
}
