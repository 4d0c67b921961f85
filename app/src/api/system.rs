use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionInfo {
    pub product: String,
    pub version: String,
    /// Milliseconds since the Unix epoch on the server, so a client can see its clock offset.
    pub server_time_ms: u64,
}

/// The server's name, version and time: the cheapest full round trip through a server function.
#[server(endpoint = "server_info")]
pub async fn server_info() -> Result<VersionInfo, AppError> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_err(|_| AppError::Internal)?;
    Ok(VersionInfo {
        product: "Space Baduk".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        server_time_ms: now.as_millis() as u64,
    })
}
