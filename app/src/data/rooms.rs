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
        Ok(rows
            .into_iter()
            .map(|r| RoomSummary {
                id: r.get("id"),
                name: r.get("name"),
                preset: r.get("preset"),
                board: format!(
                    "{}x{}x{}",
                    r.get::<i64, _>("size_x"),
                    r.get::<i64, _>("size_y"),
                    r.get::<i64, _>("size_z")
                ),
                status: r.get("status"),
            })
            .collect())
    }
}
