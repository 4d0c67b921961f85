//! Server functions for the computer's models and training (003 §12.3–12.6): the same
//! domain layer as `/api/v1/models` and `/api/v1/admin/training`; each authorises itself.

use leptos::prelude::*;

use crate::{
    learning::{ModelSummary, TrainingRequest, TrainingStatus},
    AppError,
};

#[cfg(feature = "ssr")]
use super::play::{service, signed_in};

/// Every stored model, newest first (open to all).
#[server(endpoint = "list_models")]
pub async fn list_models() -> Result<Vec<ModelSummary>, AppError> {
    service()?.models().await
}

/// Imports a model file (administrators only); refusals name the field.
#[server(endpoint = "import_model", input = server_fn::codec::Json)]
pub async fn import_model(json: String) -> Result<ModelSummary, AppError> {
    service()?.import_model(&signed_in().await?, &json).await
}

/// The current or last training run (administrators only).
#[server(endpoint = "training_run")]
pub async fn training_run() -> Result<TrainingStatus, AppError> {
    let who = signed_in().await?;
    if !who.is_admin() {
        return Err(AppError::Match(room::MatchError::AdminOnly));
    }
    Ok(service()?.training_status())
}

/// Starts a training run (administrators only).
#[server(endpoint = "start_training", input = server_fn::codec::Json)]
pub async fn start_training(request: TrainingRequest) -> Result<TrainingStatus, AppError> {
    service()?.start_training(&signed_in().await?, request).await
}

/// Every program match with its tally (administrators only; 003 §12.4).
#[server(endpoint = "list_program_matches")]
pub async fn list_program_matches() -> Result<Vec<crate::learning::programs::ProgramMatch>, AppError> {
    service()?.program_matches(&signed_in().await?).await
}

/// Starts a program match (administrators only).
#[server(endpoint = "start_program_match", input = server_fn::codec::Json)]
pub async fn start_program_match(
    request: crate::learning::programs::ProgramMatchRequest,
) -> Result<crate::learning::programs::ProgramMatch, AppError> {
    service()?.start_program_match(&signed_in().await?, request).await
}
