use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::matches::{commands::RoomPhase, settings::Preset};
use crate::AppError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub id: i64,
    pub name: String,
    pub preset: Preset,
    /// Board size as `XxYxZ`, e.g. `19x19x19` or `19x19x1`.
    pub board: String,
    /// `Open`, `Playing` or `Finished` (the rooms table keeps no finer phase).
    pub status: RoomPhase,
    /// Marked in lists: one device, practice, against the computer (003 §11.1).
    pub mode: crate::matches::mode::ModeTag,
}

#[cfg(feature = "ssr")]
impl TryFrom<crate::data::RoomRow> for RoomSummary {
    type Error = AppError;

    /// The table's words are the enums' own spellings; anything else is a damaged row.
    fn try_from(r: crate::data::RoomRow) -> Result<Self, AppError> {
        let damaged = |what: &str, value: &str| {
            tracing::error!(room_id = r.id, what, value, "unreadable room row");
            AppError::Internal
        };
        let preset = r.preset.parse().map_err(|_| damaged("preset", &r.preset))?;
        let status = r.status.parse().map_err(|_| damaged("status", &r.status))?;
        let mode = r.mode.parse().map_err(|_| damaged("mode", &r.mode))?;
        let [x, y, z] = r.size;
        Ok(RoomSummary { id: r.id, name: r.name, preset, board: format!("{x}x{y}x{z}"), status, mode })
    }
}

/// Rooms open for play or watching. Public: anonymous visitors may watch (003 §8.1).
#[server(endpoint = "list_rooms")]
pub async fn list_rooms() -> Result<Vec<RoomSummary>, AppError> {
    super::db()?.list_rooms().await?.into_iter().map(RoomSummary::try_from).collect()
}

/// The signed-in player's unfinished games (the installed app opens straight into one).
#[server(endpoint = "my_games")]
pub async fn my_games() -> Result<Vec<RoomSummary>, AppError> {
    let db = super::db()?;
    match crate::data::sessions::current(&db, &super::auth::session().await?).await? {
        Some(u) => db.rooms_of(u.id).await?.into_iter().map(RoomSummary::try_from).collect(),
        None => Ok(Vec::new()),
    }
}
