//! The one error type every server function returns, so the UI can tell a user's mistake
//! (bad input, wrong password) from an internal fault or a lost connection.

use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    /// A field was missing or out of range; `message` names the allowed range.
    #[error("{field}: {message}")]
    InvalidInput { field: String, message: String },
    #[error("wrong user name or password")]
    BadCredentials,
    #[error("too many sign-in attempts; try again in {retry_after_s} s")]
    Throttled { retry_after_s: u64 },
    #[error("the setup link is invalid or has already been used")]
    BadSetupToken,
    #[error("you must be signed in to do this")]
    NotSignedIn,
    #[error("you are not allowed to do this")]
    Forbidden,
    /// A match command refused by the rules of the match procedure.
    #[error(transparent)]
    Match(#[from] crate::matches::commands::MatchError),
    /// Something failed on the server; details are in the server log, never sent out.
    #[error("internal server error")]
    Internal,
    /// The request never got a proper answer (network, encoding).
    #[error("request failed: {0}")]
    Transport(String),
}

impl AppError {
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        AppError::InvalidInput { field: field.to_string(), message: message.into() }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::Transport(value.to_string())
    }
}
