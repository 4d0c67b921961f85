//! Server functions for accounts: the signed-in person's password and sign-ins; the
//! administrators' list of accounts, role changes, disabling, reset links and the log of
//! those actions; setting a password through a reset link. Each is a public endpoint that
//! authorises itself on the server.

use leptos::prelude::*;

use crate::{
    accounts::{AccountChange, AccountSummary, LoginView, ResetLink},
    audit::{AuditEntry, AuditFilter},
    AppError,
};

#[cfg(feature = "ssr")]
use super::{auth::now_ms, auth::session, db, play::signed_in};

/// The administrator asking, or the refusal (`admin_only`; not signed in: 401).
#[cfg(feature = "ssr")]
pub(crate) async fn admin() -> Result<wire::commands::Requester, AppError> {
    let r = signed_in().await?;
    if !r.role.is_admin() {
        return Err(wire::commands::MatchError::AdminOnly.into());
    }
    Ok(r)
}

/// Changes the signed-in person's password (the current one required). Every other sign-in
/// of the account ends; returns how many did.
#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    new_password_again: String,
) -> Result<u64, AppError> {
    let me = signed_in().await?;
    if new_password != new_password_again {
        return Err(AppError::input("password_again", crate::error::InputProblem::PasswordsDiffer));
    }
    let keep = crate::data::sessions::login_of(&session().await?).await?;
    // Guessing the current password here is throttled like signing in.
    use crate::data::SignInThrottle;
    let throttle = use_context::<std::sync::Arc<SignInThrottle>>().ok_or(AppError::Internal)?;
    let keys = SignInThrottle::keys(&me.username, super::auth::client_ip().await);
    throttle.check(&keys).await?;
    let changed = db()?.change_password(me.user_id, &current_password, &new_password, keep.as_deref(), now_ms()?).await;
    match &changed {
        Err(AppError::InvalidInput { field, .. }) if field == "current_password" => {
            throttle.record_failure(&keys).await?
        }
        Ok(_) => throttle.record_success(&me.username).await?,
        Err(_) => {}
    }
    changed
}

/// The signed-in person's open sign-ins, this one marked.
#[server(endpoint = "my_logins")]
pub async fn my_logins() -> Result<Vec<LoginView>, AppError> {
    let me = signed_in().await?;
    let current = crate::data::sessions::login_of(&session().await?).await?;
    db()?.open_logins(me.user_id, current.as_deref()).await
}

/// Ends one of the signed-in person's other sign-ins (this one: sign out instead).
#[server(endpoint = "end_login", input = server_fn::codec::Json)]
pub async fn end_login(id: String) -> Result<(), AppError> {
    let me = signed_in().await?;
    let current = crate::data::sessions::login_of(&session().await?).await?;
    if current.as_deref() == Some(id.as_str()) {
        return Err(AppError::invalid("id", "is this sign-in; sign out to end it"));
    }
    let ended = db()?.end_login(me.user_id, &id, crate::accounts::EndReason::EndedByOwner).await?;
    if !ended {
        return Err(AppError::invalid("id", "is none of your open sign-ins"));
    }
    Ok(())
}

/// Ends every sign-in of the signed-in person but this one; returns how many.
#[server(endpoint = "end_other_logins")]
pub async fn end_other_logins() -> Result<u64, AppError> {
    let me = signed_in().await?;
    let current = crate::data::sessions::login_of(&session().await?).await?;
    db()?.end_other_logins(me.user_id, current.as_deref(), crate::accounts::EndReason::EndedByOwner).await
}

/// Every account, by name (administrators only).
#[server(endpoint = "admin_accounts")]
pub async fn admin_accounts() -> Result<Vec<AccountSummary>, AppError> {
    admin().await?;
    db()?.accounts().await
}

/// The administrators' log, newest first, as `filter` narrows it (administrators only; at
/// most [`crate::audit::PAGE_ROWS`] entries: the export has them all).
#[server(endpoint = "admin_log", input = server_fn::codec::Json)]
pub async fn admin_log(filter: AuditFilter) -> Result<Vec<AuditEntry>, AppError> {
    admin().await?;
    db()?.audit_entries(&filter, Some(crate::audit::PAGE_ROWS)).await
}

/// Changes an account's role or disabled state, with reasons (administrators only; the last
/// active administrator stays one).
#[server(endpoint = "admin_change_account", input = server_fn::codec::Json)]
pub async fn admin_change_account(
    user_id: i64,
    change: AccountChange,
    reasons: String,
) -> Result<AccountSummary, AppError> {
    let me = admin().await?;
    db()?.change_account(me.user_id, user_id, change, &reasons, now_ms()?).await
}

/// Issues a one-time password-reset link for an account, with reasons (administrators
/// only). The link is in this answer only.
#[server(endpoint = "admin_reset_link", input = server_fn::codec::Json)]
pub async fn admin_reset_link(user_id: i64, reasons: String) -> Result<ResetLink, AppError> {
    let me = admin().await?;
    db()?.issue_reset_link(me.user_id, user_id, &reasons, now_ms()?).await
}

/// Sets a new password through a reset link; every sign-in of the account ends. Returns the
/// account's name, for the sign-in form.
#[server(endpoint = "reset_password")]
pub async fn reset_password(token: String, password: String, password_again: String) -> Result<String, AppError> {
    if password != password_again {
        return Err(AppError::input("password_again", crate::error::InputProblem::PasswordsDiffer));
    }
    db()?.reset_password(&token, &password, now_ms()?).await
}
