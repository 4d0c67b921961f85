//! Server functions: each is a public HTTP endpoint, so each checks who is asking itself.
//! They are thin adapters: validation and storage live in `crate::data`.

pub mod account;
pub mod archive;
pub mod auth;
pub mod conduct;
pub mod governance;
pub mod learning;
pub mod play;
pub mod profiles;
pub mod referee;
pub mod replay;
pub mod rooms;
pub mod system;

pub use auth::{current_user, CompleteSetup, SignIn, SignOut, SignUp, UserView};
pub use play::{create_match, lobby_command, match_command, match_view, LobbyAction};
pub use rooms::{lobby, my_games, LobbyLists, MyGameLists, RoomSummary};
pub use system::{server_info, VersionInfo};

#[cfg(feature = "ssr")]
pub(crate) fn db() -> Result<crate::data::Db, crate::AppError> {
    leptos::prelude::use_context::<crate::data::Db>().ok_or_else(|| {
        tracing::error!("database handle missing from the server-function context");
        crate::AppError::Internal
    })
}

/// The signed-in user as the one asking: sending match commands, watching a room, reading
/// its record.
#[cfg(feature = "ssr")]
pub fn requester(u: crate::data::User) -> wire::commands::Requester {
    wire::commands::Requester { user_id: u.id, username: u.username, role: u.role }
}
