use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub id: i64,
    pub name: String,
    /// "space" or "classic".
    pub preset: String,
    /// Board size as `XxYxZ`, e.g. `19x19x19` or `19x19x1`.
    pub board: String,
    pub status: String,
}

#[cfg(feature = "ssr")]
impl From<crate::data::RoomRow> for RoomSummary {
    fn from(r: crate::data::RoomRow) -> Self {
        let [x, y, z] = r.size;
        RoomSummary { id: r.id, name: r.name, preset: r.preset, board: format!("{x}x{y}x{z}"), status: r.status }
    }
}

/// Rooms open for play or watching. Public: anonymous visitors may watch (003 §8.1).
#[server(endpoint = "list_rooms")]
pub async fn list_rooms() -> Result<Vec<RoomSummary>, AppError> {
    Ok(super::db()?.list_rooms().await?.into_iter().map(RoomSummary::from).collect())
}

/// The signed-in player's unfinished games (the installed app opens straight into one).
#[server(endpoint = "my_games")]
pub async fn my_games() -> Result<Vec<RoomSummary>, AppError> {
    let db = super::db()?;
    match crate::data::sessions::current(&db, &super::auth::session().await?).await? {
        Some(u) => Ok(db.rooms_of(u.id).await?.into_iter().map(RoomSummary::from).collect()),
        None => Ok(Vec::new()),
    }
}
