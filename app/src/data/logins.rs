//! Sign-ins as rows (`logins`): the session holds a login's id, so a person can see their
//! sign-ins and end one, and a password change, a reset or disabling the account ends them
//! everywhere at once — the session store itself cannot be searched by user.
//!
//! Their times are the system clock's, as the session store's expiry is: a login unseen for
//! [`IDLE_MS`] is over, like its session. `last_seen_ms` is written at most every
//! [`SEEN_EVERY_MS`], so requests stay reads.

use crate::data::{on, Cols, Conn, Neutral};

use super::{accounts::user_from_row, internal, now_ms, secrets::random_hex, Db, User};
use crate::{
    accounts::{EndReason, LoginView},
    AppError,
};

/// Where a sign-in came from, as shown to its owner.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub agent: Option<String>,
    pub address: Option<String>,
}

/// User-Agent strings can be kilobytes; the list needs the first words.
const AGENT_CHARS: usize = 160;

/// A session unused this long expires (the session layer's inactivity expiry), and so does
/// its login.
pub const IDLE_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// How stale `last_seen_ms` may get before a request refreshes it.
const SEEN_EVERY_MS: i64 = 60 * 60 * 1000;

impl Db {
    /// A new open login for `user`; its id goes into the session.
    pub async fn create_login(&self, user: i64, origin: &Origin) -> Result<String, AppError> {
        let id = random_hex::<16>()?;
        let agent = origin.agent.as_deref().map(|a| a.chars().take(AGENT_CHARS).collect::<String>());
        let now = now_ms();
        on!(self.pool(), p => sqlx::query(
            "INSERT INTO logins (id, user_id, created_at_ms, last_seen_ms, agent, address) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(user)
        .bind(now)
        .bind(now)
        .bind(agent)
        .bind(&origin.address)
        .execute(p)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        Ok(id)
    }

    /// The account an open, recently used login belongs to, unless the account is disabled.
    pub async fn user_by_login(&self, login: &str) -> Result<Option<User>, AppError> {
        let now = now_ms();
        // Confirmed within the refresh interval and nothing changed since: no query.
        if let Some(user) = self.logins.get(login, now, SEEN_EVERY_MS) {
            return Ok(Some(user));
        }
        let generation = self.logins.generation();
        let row = on!(self.pool(), p => sqlx::query(
            "SELECT u.id, u.username, u.role, l.last_seen_ms FROM logins l JOIN users u ON u.id = l.user_id \
             WHERE l.id = $1 AND l.ended_at_ms IS NULL AND l.last_seen_ms > $2 AND u.disabled_at_ms IS NULL",
        )
        .bind(login)
        .bind(now - IDLE_MS)
        .fetch_optional(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        let Some(row) = row else { return Ok(None) };
        let mut seen: i64 = row.col("last_seen_ms")?;
        if now - seen > SEEN_EVERY_MS {
            on!(self.pool(), p => sqlx::query("UPDATE logins SET last_seen_ms = $1 WHERE id = $2")
                .bind(now)
                .bind(login)
                .execute(p)
                .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
            seen = now;
        }
        let user = user_from_row(&row)?;
        self.logins.put(login, user.clone(), seen, generation);
        Ok(Some(user))
    }

    /// `user`'s open logins, newest first; `current` marks the asking one.
    pub async fn open_logins(&self, user: i64, current: Option<&str>) -> Result<Vec<LoginView>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(
            "SELECT id, created_at_ms, agent, address FROM logins \
             WHERE user_id = $1 AND ended_at_ms IS NULL AND last_seen_ms > $2 ORDER BY created_at_ms DESC, id",
        )
        .bind(user)
        .bind(now_ms() - IDLE_MS)
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter()
            .map(|r| {
                let id: String = r.col("id")?;
                Ok(LoginView {
                    current: current == Some(id.as_str()),
                    id,
                    created_at_ms: r.col("created_at_ms")?,
                    agent: r.col("agent")?,
                    address: r.col("address")?,
                })
            })
            .collect()
    }

    /// Ends the login a session holds (signing out, or in again on the same session).
    pub async fn end_session_login(&self, login: &str, why: EndReason) -> Result<(), AppError> {
        on!(self.pool(), p => sqlx::query("UPDATE logins SET ended_at_ms = $1, ended_why = $2 WHERE id = $3 AND ended_at_ms IS NULL")
            .bind(now_ms())
            .bind(why)
            .bind(login)
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
        self.logins_changed().await;
        Ok(())
    }

    /// Ends one of `user`'s open logins; false when it is not theirs or already ended.
    pub async fn end_login(&self, user: i64, login: &str, why: EndReason) -> Result<bool, AppError> {
        let done = on!(self.pool(), p => sqlx::query(
            "UPDATE logins SET ended_at_ms = $1, ended_why = $2 WHERE id = $3 AND user_id = $4 AND ended_at_ms IS NULL",
        )
        .bind(now_ms())
        .bind(why)
        .bind(login)
        .bind(user)
        .execute(p)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        self.logins_changed().await;
        Ok(done == 1)
    }

    /// Ends every open login of `user` but `keep`; how many were ended.
    pub async fn end_other_logins(&self, user: i64, keep: Option<&str>, why: EndReason) -> Result<u64, AppError> {
        let mut tx = super::write_tx(self).await?;
        let ended = end_logins(&mut tx.conn(), user, keep, why).await;
        let committed = tx.commit().await;
        self.logins_changed().await;
        committed.and(ended)
    }

    /// After committing anything that can end a login or change an account's standing:
    /// what the login cache holds is asked again.
    pub(super) async fn logins_changed(&self) {
        self.logins.changed();
        self.ring_logins().await;
    }
}

/// [`Db::end_other_logins`] inside a caller's transaction.
pub(super) async fn end_logins(
    conn: &mut Conn<'_>,
    user: i64,
    keep: Option<&str>,
    why: EndReason,
) -> Result<u64, AppError> {
    let done = on!(&mut *conn, c => sqlx::query(
        "UPDATE logins SET ended_at_ms = $1, ended_why = $2 WHERE user_id = $3 AND ended_at_ms IS NULL AND id IS DISTINCT FROM $4",
    )
    .bind(now_ms())
    .bind(why)
    .bind(user)
    .bind(keep)
    .execute(&mut **c)
    .await.map(|r| r.rows_affected()))
    .map_err(internal)?;
    Ok(done)
}
