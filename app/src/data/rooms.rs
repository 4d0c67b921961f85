use sqlx::Row;

use super::{internal, Db};
use crate::AppError;

/// A room as listed: what the lobby and "your games" show.
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
    pub created_at_ms: i64,
    /// When the game ended (`None` while it has not).
    pub ended_at_ms: Option<i64>,
    pub creator: String,
    /// The listing as JSON (`None`: never written, a room not loaded since lists existed).
    pub listing: Option<String>,
}

/// The columns `room_row` reads, for every list.
const LISTED: &str = "SELECT r.id, r.name, r.preset, r.size_x, r.size_y, r.size_z, r.status, r.mode, \
     r.created_at_ms, r.ended_at_ms, u.username AS creator, r.listing FROM rooms r JOIN users u ON u.id = r.created_by";

impl Db {
    /// Open challenges: open rooms not started, newest first (the caller keeps those with a
    /// free seat).
    pub async fn open_rooms(&self) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            &format!(
            "{LISTED} WHERE r.status = 'open' AND r.access = 'open' ORDER BY r.created_at_ms DESC, r.id DESC LIMIT 100"
        ),
            None,
        )
        .await
    }

    /// Games under way, anyone may watch them (003 §8.1), most recently started first.
    pub async fn live_rooms(&self) -> Result<Vec<RoomRow>, AppError> {
        self.listed(&format!("{LISTED} WHERE r.status = 'playing' ORDER BY r.id DESC LIMIT 100"), None).await
    }

    /// Unfinished rooms where `user_id` holds a seat, newest first.
    pub async fn rooms_of(&self, user_id: i64) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            &format!(
                "{LISTED} JOIN room_players p ON p.room_id = r.id AND p.user_id = ? \
                 WHERE r.status IN ('open', 'playing') ORDER BY r.id DESC LIMIT 100"
            ),
            Some(user_id),
        )
        .await
    }

    /// Finished games of `user_id` (cancelled rooms are closed too, but no games), the most
    /// recently ended first, at most `limit`.
    pub async fn finished_rooms_of(&self, user_id: i64, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            &format!(
                "{LISTED} JOIN room_players p ON p.room_id = r.id AND p.user_id = ? \
                 WHERE r.status = 'finished' AND COALESCE(json_extract(r.listing, '$.phase'), '') <> 'cancelled' \
                 ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}"
            ),
            Some(user_id),
        )
        .await
    }

    /// The finished games `user_id` played or was approved to read by both players (003
    /// §8.1; the listing's `readers`), newest first, at most `limit`: a player's archive.
    pub async fn finished_rooms_readable_by(&self, user_id: i64, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        let sql = format!(
            "{LISTED} WHERE r.status = 'finished' AND COALESCE(json_extract(r.listing, '$.phase'), '') <> 'cancelled' \
             AND (EXISTS (SELECT 1 FROM room_players p WHERE p.room_id = r.id AND p.user_id = ?) \
               OR EXISTS (SELECT 1 FROM json_each(r.listing, '$.readers') j WHERE j.value = ?)) \
             ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}"
        );
        let rows = sqlx::query(&sql).bind(user_id).bind(user_id).fetch_all(self.pool()).await.map_err(internal)?;
        rows.iter().map(room_row).collect()
    }

    /// Every finished game (not cancelled rooms), newest first, at most `limit`: the
    /// administrator's archive.
    pub async fn finished_rooms(&self, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            &format!(
                "{LISTED} WHERE r.status = 'finished' AND COALESCE(json_extract(r.listing, '$.phase'), '') <> 'cancelled' \
                 ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}"
            ),
            None,
        )
        .await
    }

    async fn listed(&self, sql: &str, user: Option<i64>) -> Result<Vec<RoomRow>, AppError> {
        let mut q = sqlx::query(sql);
        if let Some(u) = user {
            q = q.bind(u);
        }
        let rows = q.fetch_all(self.pool()).await.map_err(internal)?;
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
        created_at_ms: r.try_get("created_at_ms").map_err(internal)?,
        ended_at_ms: r.try_get("ended_at_ms").map_err(internal)?,
        creator: r.try_get("creator").map_err(internal)?,
        listing: r.try_get("listing").map_err(internal)?,
    })
}
