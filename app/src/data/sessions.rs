//! Who is signed in, and signing in: one implementation for the UI's server functions and
//! the participant API, so throttling and session handling cannot drift apart.

use std::net::IpAddr;

use tower_sessions::Session;

use super::{Db, SignInThrottle, User};
use crate::AppError;

/// The session key holding the signed-in user's id.
const USER_KEY: &str = "user_id";

/// Checks name and password, throttled per name and per client address.
pub async fn authenticate(
    db: &Db,
    throttle: &SignInThrottle,
    username: &str,
    password: &str,
    client: Option<IpAddr>,
) -> Result<User, AppError> {
    let keys = SignInThrottle::keys(username, client);
    throttle.check(&keys)?;
    match db.verify_password(username, password).await {
        Ok(user) => {
            throttle.record_success(username);
            Ok(user)
        }
        Err(AppError::BadCredentials) => {
            throttle.record_failure(&keys);
            Err(AppError::BadCredentials)
        }
        Err(e) => Err(e),
    }
}

/// Binds the session to `user`. A new id on every sign-in, so a planted session id is
/// worthless (session fixation).
pub async fn establish(session: &Session, user: &User) -> Result<(), AppError> {
    session.cycle_id().await.map_err(|_| AppError::Internal)?;
    session.insert(USER_KEY, user.id).await.map_err(|_| AppError::Internal)
}

pub async fn end(session: &Session) -> Result<(), AppError> {
    session.flush().await.map_err(|_| AppError::Internal)
}

/// The signed-in user, if any (a deleted user counts as signed out).
pub async fn current(db: &Db, session: &Session) -> Result<Option<User>, AppError> {
    let id: Option<i64> = session.get(USER_KEY).await.map_err(|_| AppError::Internal)?;
    match id {
        Some(id) => db.user_by_id(id).await,
        None => Ok(None),
    }
}
