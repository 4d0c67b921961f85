//! Accounts as the pages and their server functions see them: a person's sign-ins, the
//! administrators' list of accounts, what administrators did to accounts. Storage is
//! `crate::data::{logins, account_admin}`; the log of these actions is `crate::audit`.

use serde::{Deserialize, Serialize};

use crate::Role;

/// How long a password-reset link works after it is issued.
pub const RESET_LINK_VALID_MS: i64 = 24 * 60 * 60 * 1000;

/// Why a sign-in ended (`logins.ended_why`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum EndReason {
    SignedOut,
    /// Its owner ended it from another sign-in.
    EndedByOwner,
    /// The password was changed from another sign-in.
    PasswordChanged,
    /// The password was set through a reset link.
    PasswordReset,
    /// An administrator disabled the account.
    Disabled,
}

/// One of the signed-in person's open sign-ins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginView {
    pub id: String,
    pub created_at_ms: i64,
    /// The browser or program, as it named itself (shortened).
    pub agent: Option<String>,
    pub address: Option<String>,
    /// The sign-in this request came from.
    pub current: bool,
}

/// An account as administrators see it in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountSummary {
    pub id: i64,
    pub username: String,
    pub role: Role,
    pub created_at_ms: i64,
    pub disabled_at_ms: Option<i64>,
    /// Open sign-ins.
    pub logins: i64,
}

/// A one-time password-reset link, shown once to the administrator who issued it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResetLink {
    /// `/reset?token=…`, relative to the site.
    pub path: String,
    pub expires_at_ms: i64,
}

/// What an administrator changes about an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AccountChange {
    Role { role: Role },
    Disabled { disabled: bool },
}
