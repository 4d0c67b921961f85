//! What changes an account after sign-up (issue 12 point 6): its owner's password change;
//! an administrator's role change, disabling and re-enabling, and one-time reset links.
//! Each administrator action is checked, applied and logged (`audit_log`) in one
//! transaction, so the log holds exactly what was done.

use serde_json::json;
use sqlx::Row;

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

fn summary(r: &sqlx::sqlite::SqliteRow) -> Result<AccountSummary, AppError> {
    Ok(AccountSummary {
        id: r.try_get("id").map_err(internal)?,
        username: r.try_get("username").map_err(internal)?,
        role: r.try_get("role").map_err(internal)?,
        created_at_ms: r.try_get("created_at_ms").map_err(internal)?,
        disabled_at_ms: r.try_get("disabled_at_ms").map_err(internal)?,
        logins: r.try_get("logins").map_err(internal)?,
    })
}

const SUMMARY: &str = "SELECT u.id, u.username, u.role, u.created_at_ms, u.disabled_at_ms, \
     (SELECT COUNT(*) FROM logins l WHERE l.user_id = u.id AND l.ended_at_ms IS NULL) AS logins FROM users u";

async fn account(conn: &mut sqlx::SqliteConnection, id: i64) -> Result<AccountSummary, AppError> {
    let row = sqlx::query(&format!("{SUMMARY} WHERE u.id = ?"))
        .bind(id)
        .fetch_optional(conn)
        .await
        .map_err(internal)?
        .ok_or(AppError::NoAccount { id })?;
    summary(&row)
}

/// Unused reset links for `user` stop working (the password changed, or the account was
/// disabled, or a newer link replaces them).
async fn retire_reset_links(conn: &mut sqlx::SqliteConnection, user: i64, now: i64) -> Result<(), AppError> {
    sqlx::query("UPDATE password_resets SET used_at_ms = ? WHERE user_id = ? AND used_at_ms IS NULL")
        .bind(now)
        .bind(user)
        .execute(conn)
        .await
        .map_err(internal)?;
    Ok(())
}

/// A new password hash: unused reset links stop working and every sign-in but `keep` ends
/// (how many is returned).
async fn set_password(
    conn: &mut sqlx::SqliteConnection,
    user: i64,
    hash: &str,
    keep: Option<&str>,
    why: EndReason,
    now: i64,
) -> Result<u64, AppError> {
    sqlx::query("UPDATE users SET password_hash = ? WHERE id = ?")
        .bind(hash)
        .bind(user)
        .execute(&mut *conn)
        .await
        .map_err(internal)?;
    retire_reset_links(conn, user, now).await?;
    end_logins(conn, user, keep, why).await
}

/// Administrators who can still act, besides `except`.
async fn other_active_admins(conn: &mut sqlx::SqliteConnection, except: i64) -> Result<i64, AppError> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE role = ? AND disabled_at_ms IS NULL AND id <> ?")
        .bind(Role::Admin)
        .bind(except)
        .fetch_one(conn)
        .await
        .map_err(internal)
}

impl Db {
    /// Every account, by name.
    pub async fn accounts(&self) -> Result<Vec<AccountSummary>, AppError> {
        let rows = sqlx::query(&format!("{SUMMARY} ORDER BY u.name_key, u.id"))
            .fetch_all(self.pool())
            .await
            .map_err(internal)?;
        rows.iter().map(summary).collect()
    }

    /// True when an administrator disabled the account.
    pub async fn is_disabled(&self, user: i64) -> Result<bool, AppError> {
        let at: Option<Option<i64>> = sqlx::query_scalar("SELECT disabled_at_ms FROM users WHERE id = ?")
            .bind(user)
            .fetch_optional(self.pool())
            .await
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
        let phc: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE id = ?")
            .bind(user)
            .fetch_one(self.pool())
            .await
            .map_err(internal)?;
        if !verify_hash(current.to_string(), phc).await? {
            return Err(AppError::input("current_password", InputProblem::WrongPassword));
        }
        let hash = hash_password(new.to_string()).await?;
        let mut tx = write_tx(self).await?;
        let ended = set_password(&mut tx, user, &hash, keep, EndReason::PasswordChanged, now).await?;
        tx.commit().await.map_err(internal)?;
        self.logins_changed();
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
        let before = account(&mut tx, target).await?;
        let loses_admin = before.role == Role::Admin
            && before.disabled_at_ms.is_none()
            && matches!(
                change,
                AccountChange::Role { role: Role::Player } | AccountChange::Disabled { disabled: true }
            );
        if loses_admin && other_active_admins(&mut tx, target).await? == 0 {
            return Err(AppError::LastAdministrator);
        }
        let (action, was, now_is) = match change {
            AccountChange::Role { role } => {
                if role == before.role {
                    return Err(AppError::input("role", InputProblem::Unchanged));
                }
                sqlx::query("UPDATE users SET role = ? WHERE id = ?")
                    .bind(role)
                    .bind(target)
                    .execute(&mut *tx)
                    .await
                    .map_err(internal)?;
                (AuditAction::RoleChanged, json!({ "role": before.role }), json!({ "role": role }))
            }
            AccountChange::Disabled { disabled } => {
                if disabled == before.disabled_at_ms.is_some() {
                    return Err(AppError::input("disabled", InputProblem::Unchanged));
                }
                sqlx::query("UPDATE users SET disabled_at_ms = ? WHERE id = ?")
                    .bind(disabled.then_some(now))
                    .bind(target)
                    .execute(&mut *tx)
                    .await
                    .map_err(internal)?;
                if disabled {
                    end_logins(&mut tx, target, None, EndReason::Disabled).await?;
                    retire_reset_links(&mut tx, target, now).await?;
                }
                let action = if disabled { AuditAction::AccountDisabled } else { AuditAction::AccountEnabled };
                (action, json!({ "disabled": !disabled }), json!({ "disabled": disabled }))
            }
        };
        let logged = Logged { actor, action, target_user: Some(target), room_id: None, reasons: &reasons };
        append(&mut tx, now, &logged, Some(&was), Some(&now_is)).await?;
        let after = account(&mut tx, target).await?;
        tx.commit().await.map_err(internal)?;
        self.logins_changed();
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
        account(&mut tx, target).await?;
        retire_reset_links(&mut tx, target, now).await?;
        sqlx::query(
            "INSERT INTO password_resets (token_sha256, user_id, issued_by, created_at_ms, expires_at_ms) \
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind(sha256_hex(&token))
        .bind(target)
        .bind(actor)
        .bind(now)
        .bind(expires_at_ms)
        .execute(&mut *tx)
        .await
        .map_err(internal)?;
        let logged = Logged {
            actor,
            action: AuditAction::ResetLinkIssued,
            target_user: Some(target),
            room_id: None,
            reasons: &reasons,
        };
        append(&mut tx, now, &logged, None, Some(&json!({ "expires_at_ms": expires_at_ms }))).await?;
        tx.commit().await.map_err(internal)?;
        Ok(ResetLink { path: format!("/reset?token={token}"), expires_at_ms })
    }

    /// Sets a password through a reset link (once, before it expires); every sign-in of the
    /// account ends. Returns the account's name.
    pub async fn reset_password(&self, token: &str, new: &str, now: i64) -> Result<String, AppError> {
        validate_password(new)?;
        let digest = sha256_hex(token.trim());
        let open = "SELECT r.user_id, u.username FROM password_resets r JOIN users u ON u.id = r.user_id \
                    WHERE r.token_sha256 = ? AND r.used_at_ms IS NULL AND r.expires_at_ms > ?";
        // The link first: no password hashing for a request without a working one.
        sqlx::query(open)
            .bind(&digest)
            .bind(now)
            .fetch_optional(self.pool())
            .await
            .map_err(internal)?
            .ok_or(AppError::BadResetLink)?;
        let hash = hash_password(new.to_string()).await?;
        let mut tx = write_tx(self).await?;
        // Again inside the transaction: the link may have been used or retired meanwhile.
        let row = sqlx::query(open)
            .bind(&digest)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(internal)?
            .ok_or(AppError::BadResetLink)?;
        let user: i64 = row.try_get("user_id").map_err(internal)?;
        let username: String = row.try_get("username").map_err(internal)?;
        set_password(&mut tx, user, &hash, None, EndReason::PasswordReset, now).await?;
        tx.commit().await.map_err(internal)?;
        self.logins_changed();
        Ok(username)
    }
}
