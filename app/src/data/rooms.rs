use sqlx::Row;

use super::{internal, Db};
use crate::AppError;

/// A room as listed: what the lobby and "my games" show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomRow {
    pub id: i64,
    pub name: String,
    /// "space" or "classic".
    pub preset: String,
    /// Lines along x, y and z.
    pub size: [i64; 3],
    pub status: String,
    /// The mode's tag: match, one_device, practice, vs_computer.
    pub mode: String,
}

impl Db {
    pub async fn list_rooms(&self) -> Result<Vec<RoomRow>, AppError> {
        let rows = sqlx::query(
            "SELECT id, name, preset, size_x, size_y, size_z, status, mode FROM rooms \
             WHERE status <> 'finished' ORDER BY created_at_ms DESC, id DESC LIMIT 200",
        )
        .fetch_all(self.pool())
        .await
        .map_err(internal)?;
        rows.iter().map(room_row).collect()
    }

    /// Unfinished rooms where `user_id` holds a seat, newest first.
    pub async fn rooms_of(&self, user_id: i64) -> Result<Vec<RoomRow>, AppError> {
        let rows = sqlx::query(
            "SELECT r.id, r.name, r.preset, r.size_x, r.size_y, r.size_z, r.status, r.mode FROM rooms r \
             WHERE r.status <> 'finished' AND EXISTS (SELECT 1 FROM match_events e WHERE e.room_id = r.id \
             AND e.kind = 'seat_taken' AND json_extract(e.body, '$.user_id') = ?) ORDER BY r.id DESC LIMIT 50",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await
        .map_err(internal)?;
        rows.iter().map(room_row).collect()
    }

    /// Every room's id and whether it is finished, oldest first (training's scan).
    pub async fn room_ids_with_status(&self) -> Result<Vec<(i64, bool)>, AppError> {
        let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, status FROM rooms ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(internal)?;
        Ok(rows.into_iter().map(|(id, status)| (id, status == "finished")).collect())
    }

    /// Rooms whose game is under way (started, not finished): paused while training runs.
    pub async fn rooms_in_play(&self) -> Result<Vec<i64>, AppError> {
        sqlx::query_scalar("SELECT id FROM rooms WHERE status = 'playing' ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(internal)
    }

    /// Whether room `id` was ever created (finished rooms included).
    pub async fn room_exists(&self, id: i64) -> Result<bool, AppError> {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM rooms WHERE id = ?")
            .bind(id)
            .fetch_one(self.pool())
            .await
            .map(|n| n > 0)
            .map_err(internal)
    }
}

fn room_row(r: &sqlx::sqlite::SqliteRow) -> Result<RoomRow, AppError> {
    let size = |axis: &str| r.try_get::<i64, _>(axis).map_err(internal);
    Ok(RoomRow {
        id: r.try_get("id").map_err(internal)?,
        name: r.try_get("name").map_err(internal)?,
        preset: r.try_get("preset").map_err(internal)?,
        mode: r.try_get("mode").map_err(internal)?,
        size: [size("size_x")?, size("size_y")?, size("size_z")?],
        status: r.try_get("status").map_err(internal)?,
    })
}
