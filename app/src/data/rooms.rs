use super::{internal, on, Cols, Db};
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
            |_| format!(
                "{LISTED} WHERE r.status = 'open' AND r.access = 'open' ORDER BY r.created_at_ms DESC, r.id DESC LIMIT 100"
            ),
            None,
        )
        .await
    }

    /// Games under way, anyone may watch them (003 §8.1), most recently started first.
    pub async fn live_rooms(&self) -> Result<Vec<RoomRow>, AppError> {
        self.listed(|_| format!("{LISTED} WHERE r.status = 'playing' ORDER BY r.id DESC LIMIT 100"), None).await
    }

    /// Unfinished rooms where `user_id` holds a seat, newest first.
    pub async fn rooms_of(&self, user_id: i64) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            |_| {
                format!(
                    "{LISTED} JOIN room_players p ON p.room_id = r.id AND p.user_id = $1 \
                     WHERE r.status IN ('open', 'playing') ORDER BY r.id DESC LIMIT 100"
                )
            },
            Some(user_id),
        )
        .await
    }

    /// Finished games of `user_id` (cancelled rooms are closed too, but no games), the most
    /// recently ended first, at most `limit`.
    pub async fn finished_rooms_of(&self, user_id: i64, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            |phase| {
                format!(
                    "{LISTED} JOIN room_players p ON p.room_id = r.id AND p.user_id = $1 \
                     WHERE r.status = 'finished' AND COALESCE({phase}, '') <> 'cancelled' \
                     ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}"
                )
            },
            Some(user_id),
        )
        .await
    }

    /// The finished games `user_id` played or was approved to read by both players (003
    /// §8.1; the listing's `readers`), newest first, at most `limit`: a player's archive.
    pub async fn finished_rooms_readable_by(&self, user_id: i64, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        on!(self.pool(), p => {
            let sql = format!(
                "{LISTED} WHERE r.status = 'finished' AND COALESCE({phase}, '') <> 'cancelled' \
                 AND (EXISTS (SELECT 1 FROM room_players p WHERE p.room_id = r.id AND p.user_id = $1) \
                   OR {reader}) \
                 ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}",
                phase = dialect::LISTING_PHASE,
                reader = dialect::listing_reader(2),
            );
            let rows = sqlx::query(&sql).bind(user_id).bind(user_id).fetch_all(p).await.map_err(internal)?;
            rows.iter().map(room_row).collect()
        })
    }

    /// Every finished game (not cancelled rooms), newest first, at most `limit`: the
    /// administrator's archive.
    pub async fn finished_rooms(&self, limit: u32) -> Result<Vec<RoomRow>, AppError> {
        self.listed(
            |phase| {
                format!(
                    "{LISTED} WHERE r.status = 'finished' AND COALESCE({phase}, '') <> 'cancelled' \
                     ORDER BY r.ended_at_ms DESC, r.id DESC LIMIT {limit}"
                )
            },
            None,
        )
        .await
    }

    /// Rooms by the query `sql` makes from the dialect's listing phase, with `user` bound.
    async fn listed(&self, sql: impl Fn(&str) -> String, user: Option<i64>) -> Result<Vec<RoomRow>, AppError> {
        on!(self.pool(), p => {
            let sql = sql(dialect::LISTING_PHASE);
            let mut q = sqlx::query(&sql);
            if let Some(u) = user {
                q = q.bind(u);
            }
            let rows = q.fetch_all(p).await.map_err(internal)?;
            rows.iter().map(room_row).collect()
        })
    }

    /// Every room's id and whether it is finished, oldest first (training's scan).
    pub async fn room_ids_with_status(&self) -> Result<Vec<(i64, bool)>, AppError> {
        let rows: Vec<(i64, String)> =
            on!(self.pool(), p => sqlx::query_as("SELECT id, status FROM rooms ORDER BY id").fetch_all(p).await)
                .map_err(internal)?;
        Ok(rows.into_iter().map(|(id, status)| (id, status == "finished")).collect())
    }

    /// Rooms whose game is under way (started, not finished): paused while training runs.
    pub async fn rooms_in_play(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => {
            sqlx::query_scalar("SELECT id FROM rooms WHERE status = 'playing' ORDER BY id").fetch_all(p).await
        })
        .map_err(internal)
    }

    /// Whether room `id` was ever created (finished rooms included).
    pub async fn room_exists(&self, id: i64) -> Result<bool, AppError> {
        on!(self.pool(), p => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM rooms WHERE id = $1").bind(id).fetch_one(p).await
        })
        .map(|n| n > 0)
        .map_err(internal)
    }
}

fn room_row(r: &impl Cols) -> Result<RoomRow, AppError> {
    Ok(RoomRow {
        id: r.col("id")?,
        name: r.col("name")?,
        preset: r.col("preset")?,
        mode: r.col("mode")?,
        size: [r.col("size_x")?, r.col("size_y")?, r.col("size_z")?],
        status: r.col("status")?,
        created_at_ms: r.col("created_at_ms")?,
        ended_at_ms: r.col("ended_at_ms")?,
        creator: r.col("creator")?,
        listing: r.col("listing")?,
    })
}
