//! Users, password hashes (argon2id) and the one-time administrator setup token.

use argon2::{
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Argon2,
};
use sqlx::Row;

use super::{
    internal, now_ms,
    secrets::{random_bytes, random_hex, sha256_hex},
    Db,
};
use crate::{error::InputProblem, AppError, Role};

pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 3..=32;
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 10..=128;

/// A stored account (without its password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub role: Role,
}

/// A freshly issued setup token; `secret` exists only in memory and in the printed link.
#[derive(Debug, Clone)]
pub struct SetupToken {
    pub secret: String,
}

pub fn validate_username(name: &str) -> Result<(), AppError> {
    let n = name.chars().count();
    if !USERNAME_LEN.contains(&n) {
        let (min, max) = (*USERNAME_LEN.start() as u64, *USERNAME_LEN.end() as u64);
        return Err(AppError::input("username", InputProblem::Length { min, max, got: n as u64 }));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(AppError::input("username", InputProblem::Characters { found: c }));
    }
    Ok(())
}

pub fn validate_password(pw: &str) -> Result<(), AppError> {
    let n = pw.chars().count();
    if !PASSWORD_LEN.contains(&n) {
        let (min, max) = (*PASSWORD_LEN.start() as u64, *PASSWORD_LEN.end() as u64);
        return Err(AppError::input("password", InputProblem::Length { min, max, got: n as u64 }));
    }
    Ok(())
}

/// argon2id with the crate's recommended parameters, off the async runtime.
async fn hash_password(password: String) -> Result<String, AppError> {
    // 16 bytes: the salt length the PHC string format recommends.
    let salt = SaltString::encode_b64(&random_bytes::<16>()?).map_err(|e| {
        tracing::error!(error = %e, "salt encoding failed");
        AppError::Internal
    })?;
    tokio_blocking(move || {
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| {
            tracing::error!(error = %e, "password hashing failed");
            AppError::Internal
        })
    })
    .await
}

async fn verify_hash(password: String, phc: String) -> Result<bool, AppError> {
    tokio_blocking(move || {
        let parsed = PasswordHash::new(&phc).map_err(|_| AppError::Internal)?;
        Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
}

async fn tokio_blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    tokio::task::spawn_blocking(f).await.map_err(|_| AppError::Internal)?
}

/// Inserts a user; a taken name (case-insensitive) is the user's mistake, not a fault.
async fn insert_user(
    conn: &mut sqlx::SqliteConnection,
    username: &str,
    password_hash: &str,
    role: Role,
) -> Result<User, AppError> {
    let row = sqlx::query(
        "INSERT INTO users (username, password_hash, role, created_at_ms) \
         VALUES (?, ?, ?, ?) RETURNING id, username, role",
    )
    .bind(username)
    .bind(password_hash)
    .bind(role)
    .bind(now_ms())
    .fetch_one(conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => AppError::input("username", InputProblem::Taken),
        _ => internal(e),
    })?;
    user_from_row(&row)
}

fn user_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<User, AppError> {
    Ok(User {
        id: r.try_get("id").map_err(internal)?,
        username: r.try_get("username").map_err(internal)?,
        role: r.try_get("role").map_err(internal)?,
    })
}

impl Db {
    pub async fn admin_exists(&self) -> Result<bool, AppError> {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users WHERE role = ?")
            .bind(Role::Admin)
            .fetch_one(self.pool())
            .await
            .map(|n| n > 0)
            .map_err(internal)
    }

    /// Revokes earlier unused tokens and issues a new one. Called at start while no
    /// administrator exists, so only the most recently printed link works.
    pub async fn issue_setup_token(&self) -> Result<SetupToken, AppError> {
        let secret = random_hex::<24>()?;
        let mut tx = self.pool().begin().await.map_err(internal)?;
        sqlx::query("UPDATE setup_tokens SET revoked = 1 WHERE used_at_ms IS NULL")
            .execute(&mut *tx)
            .await
            .map_err(internal)?;
        sqlx::query("INSERT INTO setup_tokens (token_sha256, created_at_ms) VALUES (?, ?)")
            .bind(sha256_hex(&secret))
            .bind(now_ms())
            .execute(&mut *tx)
            .await
            .map_err(internal)?;
        tx.commit().await.map_err(internal)?;
        Ok(SetupToken { secret })
    }

    /// Consumes the setup token and creates the first administrator, atomically.
    pub async fn create_first_admin(&self, token: &str, username: &str, password: &str) -> Result<User, AppError> {
        validate_username(username)?;
        validate_password(password)?;
        let hash = hash_password(password.to_string()).await?;
        let mut tx = self.pool().begin().await.map_err(internal)?;
        let used = sqlx::query(
            "UPDATE setup_tokens SET used_at_ms = ? \
             WHERE token_sha256 = ? AND used_at_ms IS NULL AND revoked = 0",
        )
        .bind(now_ms())
        .bind(sha256_hex(token.trim()))
        .execute(&mut *tx)
        .await
        .map_err(internal)?;
        if used.rows_affected() != 1 {
            return Err(AppError::BadSetupToken);
        }
        let user = insert_user(&mut tx, username, &hash, Role::Admin).await?;
        tx.commit().await.map_err(internal)?;
        Ok(user)
    }

    /// Creates a player account (open sign-up).
    pub async fn create_player(&self, username: &str, password: &str) -> Result<User, AppError> {
        validate_username(username)?;
        validate_password(password)?;
        let hash = hash_password(password.to_string()).await?;
        let mut conn = self.pool().acquire().await.map_err(internal)?;
        insert_user(&mut conn, username, &hash, Role::Player).await
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, AppError> {
        let row = sqlx::query("SELECT id, username, role FROM users WHERE id = ?")
            .bind(id)
            .fetch_optional(self.pool())
            .await
            .map_err(internal)?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Checks a password. Unknown names cost the same hashing time as wrong passwords, so
    /// response times do not reveal which accounts exist.
    pub async fn verify_password(&self, username: &str, password: &str) -> Result<User, AppError> {
        let row = sqlx::query("SELECT id, username, role, password_hash FROM users WHERE username = ?")
            .bind(username)
            .fetch_optional(self.pool())
            .await
            .map_err(internal)?;
        let (user, phc) = match &row {
            Some(r) => (Some(user_from_row(r)?), r.try_get::<String, _>("password_hash").map_err(internal)?),
            None => (None, DUMMY_HASH.to_string()),
        };
        let ok = verify_hash(password.to_string(), phc).await?;
        match user {
            Some(u) if ok => Ok(u),
            _ => Err(AppError::BadCredentials),
        }
    }
}

/// argon2id hash of a random string nobody knows; verified against for unknown user names.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$1n0fVgG0Ns1U3tLZ7tqBzq3w5hIqRrqVZb0Gm6yC0eE";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn username_rules_name_the_allowed_range() {
        assert!(validate_username("kim_01").is_ok());
        assert!(validate_username("김바둑").is_ok());
        let e = validate_username("ab").unwrap_err();
        assert_eq!(e, AppError::input("username", InputProblem::Length { min: 3, max: 32, got: 2 }));
        assert_eq!(e.to_string(), "username: must be 3–32 characters, got 2");
        assert!(matches!(validate_username("a b c"), Err(AppError::InvalidInput { .. })));
    }

    #[test]
    fn password_length_is_checked() {
        assert!(validate_password("short").is_err());
        assert!(validate_password("long enough pw").is_ok());
    }

    #[test]
    fn dummy_hash_parses() {
        assert!(PasswordHash::new(DUMMY_HASH).is_ok());
    }
}
