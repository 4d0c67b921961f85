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

/// Rooms open for play or watching. Public: anonymous visitors may watch (003 §8.1).
#[server(endpoint = "list_rooms")]
pub async fn list_rooms() -> Result<Vec<RoomSummary>, AppError> {
    super::db()?.list_rooms().await
}

/// The signed-in player's unfinished games (the installed app opens straight into one).
#[server(endpoint = "my_games")]
pub async fn my_games() -> Result<Vec<RoomSummary>, AppError> {
    let db = super::db()?;
    match crate::data::sessions::current(&db, &super::auth::session().await?).await? {
        Some(u) => db.rooms_of(u.id).await,
        None => Ok(Vec::new()),
    }
}
