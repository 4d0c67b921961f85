use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{AppError, Role};

/// A user as the signed-in person and the participant API see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct UserView {
    pub id: i64,
    pub username: String,
    pub role: Role,
}

#[cfg(feature = "ssr")]
impl From<crate::data::User> for UserView {
    fn from(u: crate::data::User) -> Self {
        UserView { id: u.id, username: u.username, role: u.role }
    }
}

#[cfg(feature = "ssr")]
pub(crate) async fn session() -> Result<tower_sessions::Session, AppError> {
    leptos_axum::extract::<tower_sessions::Session>().await.map_err(|e| {
        tracing::error!(error = %e, "session layer missing");
        AppError::Internal
    })
}

/// The server's time (the match service's clock, so that tests can move it).
#[cfg(feature = "ssr")]
pub(crate) fn now_ms() -> Result<i64, AppError> {
    Ok(super::play::service()?.now_ms())
}

/// Where this request comes from: its User-Agent and client address.
#[cfg(feature = "ssr")]
pub(crate) async fn origin() -> crate::data::logins::Origin {
    let agent = leptos_axum::extract::<axum::http::HeaderMap>()
        .await
        .ok()
        .and_then(|h| h.get(axum::http::header::USER_AGENT).and_then(|v| v.to_str().ok()).map(String::from));
    crate::data::logins::Origin { agent, address: client_ip().await.map(|ip| ip.to_string()) }
}

#[cfg(feature = "ssr")]
async fn sign_session_in(user: crate::data::User) -> Result<UserView, AppError> {
    crate::data::sessions::establish(&super::db()?, &session().await?, &user, &origin().await).await?;
    Ok(user.into())
}

/// Who is signed in on this session, if anyone.
#[server(endpoint = "current_user")]
pub async fn current_user() -> Result<Option<UserView>, AppError> {
    Ok(crate::data::sessions::current(&super::db()?, &session().await?).await?.map(UserView::from))
}

#[cfg(feature = "ssr")]
pub(crate) async fn client_ip() -> Option<std::net::IpAddr> {
    use axum::extract::ConnectInfo;
    leptos_axum::extract::<ConnectInfo<std::net::SocketAddr>>().await.ok().map(|c| c.0.ip())
}

/// Signs in with name and password. Throttled per name and per client address.
#[server(endpoint = "sign_in")]
pub async fn sign_in(username: String, password: String) -> Result<UserView, AppError> {
    use crate::data::SignInThrottle;
    let throttle = leptos::prelude::use_context::<std::sync::Arc<SignInThrottle>>().ok_or(AppError::Internal)?;
    let user =
        crate::data::sessions::authenticate(&super::db()?, &throttle, &username, &password, client_ip().await).await?;
    sign_session_in(user).await
}

/// Creates a player account and signs it in.
#[server(endpoint = "sign_up")]
pub async fn sign_up(username: String, password: String, password_again: String) -> Result<UserView, AppError> {
    if password != password_again {
        return Err(AppError::input("password_again", crate::error::InputProblem::PasswordsDiffer));
    }
    let user = super::db()?.create_player(&username, &password).await?;
    sign_session_in(user).await
}

#[server(endpoint = "sign_out")]
pub async fn sign_out() -> Result<(), AppError> {
    crate::data::sessions::end(&super::db()?, &session().await?).await
}

/// Creates the first administrator from the one-time setup token printed at first start.
#[server(endpoint = "complete_setup")]
pub async fn complete_setup(
    token: String,
    username: String,
    password: String,
    password_again: String,
) -> Result<UserView, AppError> {
    if password != password_again {
        return Err(AppError::input("password_again", crate::error::InputProblem::PasswordsDiffer));
    }
    let user = super::db()?.create_first_admin(&token, &username, &password).await?;
    sign_session_in(user).await
}
