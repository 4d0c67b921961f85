//! Who is signed in, and signing in: one implementation for the UI's server functions and
//! the participant API, so throttling and session handling cannot drift apart.

use std::net::IpAddr;

use tower_sessions::Session;

use super::{logins::Origin, Db, SignInThrottle, User};
use crate::{accounts::EndReason, AppError};

/// The session key holding the id of its open login (`logins`).
const LOGIN_KEY: &str = "login";

/// Checks name and password, throttled per name and per client address.
pub async fn authenticate(
    db: &Db,
    throttle: &SignInThrottle,
    username: &str,
    password: &str,
    client: Option<IpAddr>,
) -> Result<User, AppError> {
    let keys = SignInThrottle::keys(username, client);
    throttle.check(&keys).await?;
    match db.verify_password(username, password).await {
        Ok(user) => {
            throttle.record_success(username).await?;
            // The password was right, so saying why costs nothing to the account's secrecy.
            if db.is_disabled(user.id).await? {
                return Err(AppError::AccountDisabled);
            }
            Ok(user)
        }
        Err(AppError::BadCredentials) => {
            throttle.record_failure(&keys).await?;
            Err(AppError::BadCredentials)
        }
        Err(e) => Err(e),
    }
}

/// Binds the session to a new login of `user`. A new session id on every sign-in, so a
/// planted session id is worthless (session fixation).
pub async fn establish(db: &Db, session: &Session, user: &User, origin: &Origin) -> Result<(), AppError> {
    // Signing in again on the same session ends the login it held.
    end_held_login(db, session).await?;
    let login = db.create_login(user.id, origin).await?;
    session.cycle_id().await.map_err(|_| AppError::Internal)?;
    session.insert(LOGIN_KEY, login).await.map_err(|_| AppError::Internal)
}

/// Signs out: the login ends and the session is emptied.
pub async fn end(db: &Db, session: &Session) -> Result<(), AppError> {
    end_held_login(db, session).await?;
    session.flush().await.map_err(|_| AppError::Internal)
}

/// Ends the login this session holds, if any (its own: no owner to check).
async fn end_held_login(db: &Db, session: &Session) -> Result<(), AppError> {
    if let Some(login) = login_of(session).await? {
        db.end_session_login(&login, EndReason::SignedOut).await?;
    }
    Ok(())
}

/// The id of the session's login, if it holds one.
pub async fn login_of(session: &Session) -> Result<Option<String>, AppError> {
    session.get(LOGIN_KEY).await.map_err(|_| AppError::Internal)
}

/// The signed-in user, if any: the session's login is open and its account enabled.
pub async fn current(db: &Db, session: &Session) -> Result<Option<User>, AppError> {
    match login_of(session).await? {
        Some(login) => db.user_by_login(&login).await,
        None => Ok(None),
    }
}
