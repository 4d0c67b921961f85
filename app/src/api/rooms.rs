//! The room lists: the lobby (open challenges with a free seat, games anyone may watch) and a
//! player's games (waiting for them first), read from the rooms' stored listings in one query
//! each, no room loaded. A list is sent without account ids (`RoomSummary::redacted`).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;
use wire::{commands::RoomPhase, listing::Listing, settings::Preset};

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
    pub mode: wire::mode::ModeTag,
    pub created_at_ms: i64,
    /// When the game ended, once it has.
    #[serde(default)]
    pub ended_at_ms: Option<i64>,
    /// Who created the room (in an open challenge: who is waiting).
    pub creator: String,
    /// Seats, players, move number, time and rules, for the room lists; `None` for a room not
    /// loaded since lists existed.
    pub listing: Option<Listing>,
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
        let status: RoomPhase = r.status.parse().map_err(|_| damaged("status", &r.status))?;
        let mode = r.mode.parse().map_err(|_| damaged("mode", &r.mode))?;
        let [x, y, z] = r.size;
        // A listing this version cannot read is shown without its details, not as an error.
        let listing: Option<Listing> = r.listing.as_deref().and_then(|t| serde_json::from_str(t).ok());
        // The table's status is coarse: a cancelled room is stored as closed ("finished").
        let status = match &listing {
            Some(l) if l.phase == RoomPhase::Cancelled => RoomPhase::Cancelled,
            _ => status,
        };
        Ok(RoomSummary {
            id: r.id,
            name: r.name,
            preset,
            board: format!("{x}x{y}x{z}"),
            status,
            mode,
            created_at_ms: r.created_at_ms,
            ended_at_ms: r.ended_at_ms,
            creator: r.creator,
            listing,
        })
    }
}

impl RoomSummary {
    /// What a list sends: the listing without account ids (whom the room waits for and who
    /// sits there are the server's to sort by; the names are in the seats).
    pub fn redacted(mut self) -> RoomSummary {
        if let Some(l) = &mut self.listing {
            l.players.clear();
            l.waiting_on.clear();
            l.readers.clear();
        }
        self
    }
}

/// The lobby: open challenges with a free seat, and the games anyone may watch (003 §8.1).
/// Public: anonymous visitors see both (taking a seat needs signing in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LobbyLists {
    pub open: Vec<RoomSummary>,
    pub live: Vec<RoomSummary>,
}

#[server(endpoint = "lobby")]
pub async fn lobby() -> Result<LobbyLists, AppError> {
    let db = super::db()?;
    let summaries =
        |rows: Vec<crate::data::RoomRow>| rows.into_iter().map(RoomSummary::try_from).collect::<Result<Vec<_>, _>>();
    let open = summaries(db.open_rooms().await?)?
        .into_iter()
        .filter(|r| r.listing.as_ref().is_some_and(|l| l.free_seat().is_some()))
        .map(RoomSummary::redacted)
        .collect();
    let live = summaries(db.live_rooms().await?)?.into_iter().map(RoomSummary::redacted).collect();
    Ok(LobbyLists { open, live })
}

/// A signed-in player's games: those waiting for them first (their move, an answer, their
/// Ready or confirmation), then the rest under way, then the finished ones.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MyGameLists {
    pub waiting_for_you: Vec<RoomSummary>,
    pub in_play: Vec<RoomSummary>,
    pub finished: Vec<RoomSummary>,
}

/// Empty for an anonymous visitor (the home page asks either way).
#[server(endpoint = "my_games")]
pub async fn my_games() -> Result<MyGameLists, AppError> {
    let db = super::db()?;
    let Some(u) = crate::data::sessions::current(&db, &super::auth::session().await?).await? else {
        return Ok(MyGameLists::default());
    };
    let mut games = MyGameLists::default();
    for r in db.rooms_of(u.id).await? {
        let r = RoomSummary::try_from(r)?;
        if r.listing.as_ref().is_some_and(|l| l.waiting_on.contains(&u.id)) {
            games.waiting_for_you.push(r.redacted());
        } else {
            games.in_play.push(r.redacted());
        }
    }
    games.finished = finished_games(&db, u.id, 50).await?;
    Ok(games)
}

/// `user_id`'s finished games, newest first, at most `limit` (cancelled rooms are not games).
#[cfg(feature = "ssr")]
pub(crate) async fn finished_games(
    db: &crate::data::Db,
    user_id: i64,
    limit: u32,
) -> Result<Vec<RoomSummary>, AppError> {
    let rows = db.finished_rooms_of(user_id, limit).await?;
    summaries_of_games(rows)
}

/// The finished games `user_id` may read (003 §8.1): their own and those both players
/// approved them to read, newest first, at most `limit` (the archive).
#[cfg(feature = "ssr")]
pub(crate) async fn readable_games(
    db: &crate::data::Db,
    user_id: i64,
    limit: u32,
) -> Result<Vec<RoomSummary>, AppError> {
    summaries_of_games(db.finished_rooms_readable_by(user_id, limit).await?)
}

#[cfg(feature = "ssr")]
fn summaries_of_games(rows: Vec<crate::data::RoomRow>) -> Result<Vec<RoomSummary>, AppError> {
    let all = rows.into_iter().map(RoomSummary::try_from).collect::<Result<Vec<_>, _>>()?;
    Ok(all.into_iter().filter(|r| r.status != RoomPhase::Cancelled).map(RoomSummary::redacted).collect())
}
