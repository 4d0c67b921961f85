//! Server functions for playing a match from the browser: the same domain layer
//! (`MatchService`) as the participant API, so the two cannot disagree. Each is a public
//! endpoint: the session decides who is asking, the room's actor decides what they may do.

use leptos::prelude::*;

use crate::AppError;

use wire::{
    commands::{Command, CommandReply, CreatedRoom},
    settings::MatchSettings,
    view::RoomView,
};

#[cfg(feature = "ssr")]
pub(super) fn service() -> Result<crate::matches::service::MatchService, AppError> {
    use_context::<crate::matches::service::MatchService>().ok_or_else(|| {
        tracing::error!("match service missing from the server-function context");
        AppError::Internal
    })
}

/// Who is asking: the signed-in user, or `None` for a visitor.
#[cfg(feature = "ssr")]
pub(super) async fn viewer() -> Result<Option<wire::commands::Requester>, AppError> {
    let user = crate::data::sessions::current(&super::db()?, &super::auth::session().await?).await?;
    Ok(user.map(super::requester))
}

#[cfg(feature = "ssr")]
pub(super) async fn signed_in() -> Result<wire::commands::Requester, AppError> {
    viewer().await?.ok_or(AppError::NotSignedIn)
}

/// Creates a room with agreed settings; the creator receives both invitation codes.
#[server(endpoint = "create_match", input = server_fn::codec::Json)]
pub async fn create_match(name: String, settings: MatchSettings) -> Result<CreatedRoom, AppError> {
    service()?.create_room(&signed_in().await?, &name, settings).await
}

/// What the lobby on the home page can do to a room: take its free seat, or cancel it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbyAction {
    TakeSeat,
    CancelRoom,
}

impl From<LobbyAction> for Command {
    fn from(a: LobbyAction) -> Command {
        match a {
            LobbyAction::TakeSeat => Command::TakeSeat,
            LobbyAction::CancelRoom => Command::CancelRoom,
        }
    }
}

/// The lobby's command, as the signed-in user, answered with nothing but success: the same
/// command as `match_command`, without the events, so that the home page (the first
/// download) carries neither the command's nor the events' decoding.
#[server(endpoint = "lobby_command", input = server_fn::codec::Json)]
pub async fn lobby_command(room_id: i64, action: LobbyAction) -> Result<(), AppError> {
    service()?.command(room_id, signed_in().await?, action.into()).await?;
    Ok(())
}

/// Sends one command to a room as the signed-in user.
#[server(endpoint = "match_command", input = server_fn::codec::Json)]
pub async fn match_command(room_id: i64, command: Command) -> Result<CommandReply, AppError> {
    Ok(service()?.command(room_id, signed_in().await?, command).await?)
}

/// The room as the asking viewer may see it (anonymous visitors watch; 003 §8.1).
#[server(endpoint = "match_view", input = server_fn::codec::Json)]
pub async fn match_view(room_id: i64) -> Result<RoomView, AppError> {
    Ok(service()?.view(room_id, viewer().await?).await?)
}
