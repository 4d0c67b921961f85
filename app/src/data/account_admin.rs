//! What changes an account after sign-up: its owner's password change; an administrator's
//! role change, disabling and re-enabling, and one-time reset links. Each administrator
//! action is checked, applied and logged (`audit_log`) in one transaction, so the log
//! holds exactly what was done.

use crate::data::{on, Cols, Conn, Neutral};
use serde_json::json;

use super::{
    accounts::{hash_password, validate_password, verify_hash},
    audit::{append, Logged},
    internal,
    logins::end_logins,
    secrets::{random_hex, sha256_hex},
    write_tx, Db,
};
use crate::{
    accounts::{AccountChange, AccountSummary, EndReason, ResetLink, RESET_LINK_VALID_MS},
    audit::AuditAction,
    error::InputProblem,
    AppError, Role,
};

/// Reasons for an administrator's action: 1–2000 characters once trimmed.
pub fn check_reasons(reasons: &str) -> Result<String, AppError> {
    AppError::check_text("reasons", reasons)
}

fn summary(r: &impl Cols) -> Result<AccountSummary, AppError> {
    Ok(AccountSummary {
        id: r.col("id")?,
        username: r.col("username")?,
        role: r.named("role")?,
        created_at_ms: r.col("created_at_ms")?,
        disabled_at_ms: r.col("disabled_at_ms")?,
        logins: r.col("logins")?,
    })
}

const SUMMARY: &str = "SELECT u.id, u.username, u.role, u.created_at_ms, u.disabled_at_ms, \
     (SELECT COUNT(*) FROM logins l WHERE l.user_id = u.id AND l.ended_at_ms IS NULL) AS logins FROM users u";

async fn account(conn: &mut Conn<'_>, id: i64) -> Result<AccountSummary, AppError> {
    let row = on!(&mut *conn, c => sqlx::query(&format!("{SUMMARY} WHERE u.id = $1"))
        .bind(id)
        .fetch_optional(&mut **c)
        .await.map(Neutral::neutral))
    .map_err(internal)?
    .ok_or(AppError::NoAccount { id })?;
    summary(&row)
}

/// Unused reset links for `user` stop working (the password changed, or the account was
/// disabled, or a newer link replaces them).
async fn retire_reset_links(conn: &mut Conn<'_>, user: i64, now: i64) -> Result<(), AppError> {
    on!(&mut *conn, c => sqlx::query("UPDATE password_resets SET used_at_ms = $1 WHERE user_id = $2 AND used_at_ms IS NULL")
        .bind(now)
        .bind(user)
        .execute(&mut **c)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
    Ok(())
}

/// A new password hash: unused reset links stop working and every sign-in but `keep` ends
/// (how many is returned).
async fn set_password(
    conn: &mut Conn<'_>,
    user: i64,
    hash: &str,
    keep: Option<&str>,
    why: EndReason,
    now: i64,
) -> Result<u64, AppError> {
    on!(&mut *conn, c => sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(user)
        .execute(&mut **c)
        .await.map(|r| r.rows_affected()))
    .map_err(internal)?;
    retire_reset_links(conn, user, now).await?;
    end_logins(conn, user, keep, why).await
}

/// Administrators who can still act, besides `except`.
async fn other_active_admins(conn: &mut Conn<'_>, except: i64) -> Result<i64, AppError> {
    on!(&mut *conn, c => sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE role = $1 AND disabled_at_ms IS NULL AND id <> $2")
        .bind(<&str>::from(Role::Admin))
        .bind(except)
        .fetch_one(&mut **c)
        .await)
        .map_err(internal)
}

impl Db {
    /// Every account, by name.
    pub async fn accounts(&self) -> Result<Vec<AccountSummary>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(&format!("{SUMMARY} ORDER BY u.name_key, u.id"))
            .fetch_all(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter().map(summary).collect()
    }

    /// True when an administrator disabled the account.
    pub async fn is_disabled(&self, user: i64) -> Result<bool, AppError> {
        let at: Option<Option<i64>> =
            on!(self.pool(), p => sqlx::query_scalar("SELECT disabled_at_ms FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(p)
            .await)
            .map_err(internal)?;
        Ok(matches!(at, Some(Some(_))))
    }

    /// The owner changes their password, proving the current one; every other sign-in ends.
    pub async fn change_password(
        &self,
        user: i64,
        current: &str,
        new: &str,
        keep: Option<&str>,
        now: i64,
    ) -> Result<u64, AppError> {
        validate_password(new)?;
        let phc: String = on!(self.pool(), p => sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
            .bind(user)
            .fetch_one(p)
            .await)
        .map_err(internal)?;
        if !verify_hash(current.to_string(), phc).await? {
            return Err(AppError::input("current_password", InputProblem::WrongPassword));
        }
        let hash = hash_password(new.to_string()).await?;
        let mut tx = write_tx(self).await?;
        let ended = set_password(&mut tx.conn(), user, &hash, keep, EndReason::PasswordChanged, now).await?;
        tx.commit().await?;
        self.logins_changed().await;
        Ok(ended)
    }

    /// An administrator's change of role or of disabled state. The last administrator who
    /// can act can neither lose the role nor be disabled; disabling ends every sign-in.
    pub async fn change_account(
        &self,
        actor: i64,
        target: i64,
        change: AccountChange,
        reasons: &str,
        now: i64,
    ) -> Result<AccountSummary, AppError> {
        let reasons = check_reasons(reasons)?;
        let mut tx = write_tx(self).await?;
        let before = account(&mut tx.conn(), target).await?;
        let loses_admin = before.role == Role::Admin
            && before.disabled_at_ms.is_none()
            && matches!(
                change,
                AccountChange::Role { role: Role::Player } | AccountChange::Disabled { disabled: true }
            );
        if loses_admin && other_active_admins(&mut tx.conn(), target).await? == 0 {
            return Err(AppError::LastAdministrator);
        }
        let (action, was, now_is) = match change {
            AccountChange::Role { role } => {
                if role == before.role {
                    return Err(AppError::input("role", InputProblem::Unchanged));
                }
                on!(&mut tx, t => sqlx::query("UPDATE users SET role = $1 WHERE id = $2")
                    .bind(<&str>::from(role))
                    .bind(target)
                    .execute(&mut **t)
                    .await.map(|r| r.rows_affected()))
                .map_err(internal)?;
                (AuditAction::RoleChanged, json!({ "role": before.role }), json!({ "role": role }))
            }
            AccountChange::Disabled { disabled } => {
                if disabled == before.disabled_at_ms.is_some() {
                    return Err(AppError::input("disabled", InputProblem::Unchanged));
                }
                on!(&mut tx, t => sqlx::query("UPDATE users SET disabled_at_ms = $1 WHERE id = $2")
                    .bind(disabled.then_some(now))
                    .bind(target)
                    .execute(&mut **t)
                    .await.map(|r| r.rows_affected()))
                .map_err(internal)?;
                if disabled {
                    end_logins(&mut tx.conn(), target, None, EndReason::Disabled).await?;
                    retire_reset_links(&mut tx.conn(), target, now).await?;
                }
                let action = if disabled { AuditAction::AccountDisabled } else { AuditAction::AccountEnabled };
                (action, json!({ "disabled": !disabled }), json!({ "disabled": disabled }))
            }
        };
        let logged = Logged { actor, action, target_user: Some(target), room_id: None, reasons: &reasons };
        append(&mut tx.conn(), now, &logged, Some(&was), Some(&now_is)).await?;
        let after = account(&mut tx.conn(), target).await?;
        tx.commit().await?;
        self.logins_changed().await;
        Ok(after)
    }

    /// A one-time link to set `target`'s password, valid for [`RESET_LINK_VALID_MS`]. Only
    /// the token's digest is stored; earlier unused links for the account stop working.
    pub async fn issue_reset_link(
        &self,
        actor: i64,
        target: i64,
        reasons: &str,
        now: i64,
    ) -> Result<ResetLink, AppError> {
        let reasons = check_reasons(reasons)?;
        let token = random_hex::<24>()?;
        let expires_at_ms = now + RESET_LINK_VALID_MS;
        let mut tx = write_tx(self).await?;
        account(&mut tx.conn(), target).await?;
        retire_reset_links(&mut tx.conn(), target, now).await?;
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO password_resets (token_sha256, user_id, issued_by, created_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(sha256_hex(&token))
        .bind(target)
        .bind(actor)
        .bind(now)
        .bind(expires_at_ms)
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        let logged = Logged {
            actor,
            action: AuditAction::ResetLinkIssued,
            target_user: Some(target),
            room_id: None,
            reasons: &reasons,
        };
        append(&mut tx.conn(), now, &logged, None, Some(&json!({ "expires_at_ms": expires_at_ms }))).await?;
        tx.commit().await?;
        Ok(ResetLink { path: format!("/reset?token={token}"), expires_at_ms })
    }

    /// Sets a password through a reset link (once, before it expires); every sign-in of the
    /// account ends. Returns the account's name.
    pub async fn reset_password(&self, token: &str, new: &str, now: i64) -> Result<String, AppError> {
        validate_password(new)?;
        let digest = sha256_hex(token.trim());
        let open = "SELECT r.user_id, u.username FROM password_resets r JOIN users u ON u.id = r.user_id \
                    WHERE r.token_sha256 = $1 AND r.used_at_ms IS NULL AND r.expires_at_ms > $2";
        // The link first: no password hashing for a request without a working one.
        on!(self.pool(), p => sqlx::query(open)
            .bind(&digest)
            .bind(now)
            .fetch_optional(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?
        .ok_or(AppError::BadResetLink)?;
        let hash = hash_password(new.to_string()).await?;
        let mut tx = write_tx(self).await?;
        // Again inside the transaction: the link may have been used or retired meanwhile.
        let row = on!(&mut tx, t => sqlx::query(open)
            .bind(&digest)
            .bind(now)
            .fetch_optional(&mut **t)
            .await.map(Neutral::neutral))
        .map_err(internal)?
        .ok_or(AppError::BadResetLink)?;
        let user: i64 = row.col("user_id")?;
        let username: String = row.col("username")?;
        set_password(&mut tx.conn(), user, &hash, None, EndReason::PasswordReset, now).await?;
        tx.commit().await?;
        self.logins_changed().await;
        Ok(username)
    }
}
