//! Server functions: each is a public HTTP endpoint, so each checks who is asking itself.
//! They are thin adapters: validation and storage live in `crate::data`.

pub mod auth;
pub mod play;
pub mod rooms;
pub mod system;

pub use auth::{current_user, CompleteSetup, SignIn, SignOut, SignUp, UserView};
pub use play::{create_match, match_command, match_view};
pub use rooms::{list_rooms, my_games, RoomSummary};
pub use system::{server_info, VersionInfo};

#[cfg(feature = "ssr")]
pub(crate) fn db() -> Result<crate::data::Db, crate::AppError> {
    leptos::prelude::use_context::<crate::data::Db>().ok_or_else(|| {
        tracing::error!("database handle missing from the server-function context");
        crate::AppError::Internal
    })
}

/// The signed-in user as the sender of match commands.
#[cfg(feature = "ssr")]
pub fn caller(u: crate::data::User) -> crate::matches::commands::Caller {
    crate::matches::commands::Caller { user_id: u.id, is_admin: u.role.is_admin(), username: u.username }
}

/// The signed-in user as a viewer of a room.
#[cfg(feature = "ssr")]
pub fn viewer(u: crate::data::User) -> crate::matches::actor::Viewer {
    crate::matches::actor::Viewer { user_id: u.id, is_admin: u.role.is_admin(), username: u.username }
}
