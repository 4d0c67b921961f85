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
