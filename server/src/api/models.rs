//! The computer's models and training (003 §12.5–12.6): list, export as JSON, import
//! (administrators), the participant program, and training runs (administrators).

use app::{
    learning::{participant, ModelSummary, TrainingRequest, TrainingStatus},
    AppError, ErrorBody,
};
use axum::{
    extract::{RawQuery, State},
    http::StatusCode,
    response::IntoResponse,
    Json,
};
use tower_sessions::Session;

use super::{attachment, caller, extract::ModelId, openapi, ApiState, Body};

/// Every stored model, newest first (the built-in one included). Open to all: a model holds
/// weights and provenance only.
#[utoipa::path(get, path = "/api/v1/models", tag = "models", responses(
    (status = 200, description = "The models", body = Vec<ModelSummary>),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn list(State(s): State<ApiState>) -> Result<Json<Vec<ModelSummary>>, AppError> {
    Ok(Json(s.matches.models().await?))
}

/// A model as its JSON file: format version, the eight weights by name, the fingerprint
/// (a consistency check, not a signature) and provenance (003 §12.6–12.7).
#[utoipa::path(get, path = "/api/v1/models/{id}", tag = "models", params(ModelId), responses(
    (status = 200, description = "The model file", content_type = "application/json", body = Object),
    (status = 400, response = openapi::BadRequest),
    (status = 404, description = "`no_model`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn export(State(s): State<ApiState>, ModelId(id): ModelId) -> Result<impl IntoResponse, AppError> {
    let json = s.matches.export_model(id).await?;
    Ok(attachment("application/json", &format!("space-baduk-model-{id}.json"), json))
}

/// Imports a model file as a new model (administrators only): every field is checked and a
/// refusal names the field (`bad_model_file`, `detail.field`).
#[utoipa::path(post, path = "/api/v1/models", tag = "models", security(("session" = [])),
    request_body(content = Object, description = "A model file as exported"), responses(
    (status = 201, description = "Stored as a new model", body = ModelSummary),
    (status = 400, response = openapi::BadRequest),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only` or a cross-site request", body = ErrorBody),
    (status = 413, response = openapi::TooLarge),
    (status = 415, response = openapi::NotJson),
    (status = 422, description = "`bad_model_file`: `detail.field` names what is wrong", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn import(
    State(s): State<ApiState>,
    session: Session,
    Body(file): Body<serde_json::Value>,
) -> Result<(StatusCode, Json<ModelSummary>), AppError> {
    let c = caller(&s.db, &session).await?;
    let model = s.matches.import_model(&c, &file.to_string()).await?;
    Ok((StatusCode::CREATED, Json(model)))
}

#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // documents the query; `level_of` reads it (typed refusals, repeats too)
pub(super) struct LevelQuery {
    /// 1: the evaluator alone; 2 (the default): the search.
    #[param(value_type = Option<u8>, minimum = 1, maximum = 2)]
    level: Option<String>,
}

/// The participant program for a model: one JavaScript file (Node.js 20 or a browser page)
/// with the engine as WASM and the weights inlined, which joins a room by invitation and
/// plays it (003 §12.6).
#[utoipa::path(get, path = "/api/v1/models/{id}/participant.js", tag = "models", params(ModelId, LevelQuery),
    responses(
    (status = 200, description = "The program", content_type = "text/javascript", body = String),
    (status = 400, response = openapi::BadRequest),
    (status = 404, description = "`no_model`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
    (status = 503, description = "`participant_unavailable`: this installation lacks the program's engine", body = ErrorBody),
))]
pub(super) async fn participant_js(
    State(s): State<ApiState>,
    ModelId(id): ModelId,
    RawQuery(query): RawQuery,
) -> Result<impl IntoResponse, AppError> {
    let level = level_of(query.as_deref())?;
    let model = s.db.model(id).await?.ok_or(AppError::NoModel { id })?;
    let path = participant::wasm_path(&s.site_root);
    let wasm = participant::load_wasm(&path).map_err(|e| {
        tracing::warn!(error = %e, "the participant engine is missing");
        AppError::ParticipantUnavailable { path: path.display().to_string() }
    })?;
    let m = participant::ParticipantModel {
        id: model.id,
        version: model.version,
        fingerprint: model.fingerprint,
        weights: model.weights.0,
        level,
    };
    let js = participant::script(&wasm, &m).map_err(|e| {
        tracing::error!(error = %e, "the participant program was not made");
        AppError::Internal
    })?;
    Ok(attachment("text/javascript", &format!("participant-model-{id}.js"), js))
}

/// The current or last training run: its epochs' held-out metrics so far (administrators).
#[utoipa::path(get, path = "/api/v1/admin/training", tag = "admin", security(("session" = [])), responses(
    (status = 200, description = "The run", body = TrainingStatus),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn training_status(
    State(s): State<ApiState>,
    session: Session,
) -> Result<Json<TrainingStatus>, AppError> {
    let c = caller(&s.db, &session).await?;
    if !c.is_admin() {
        return Err(AppError::Match(wire::commands::MatchError::AdminOnly));
    }
    Ok(Json(s.matches.training_status()))
}

/// Starts a training run (administrators; 003 §12.3): games in play are held first, once
/// `confirm_pause` says so, and resumed after.
#[utoipa::path(post, path = "/api/v1/admin/training", tag = "admin", security(("session" = [])),
    request_body = TrainingRequest, responses(
    (status = 202, description = "Started", body = TrainingStatus),
    (status = 400, response = openapi::BadRequest),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only` or a cross-site request", body = ErrorBody),
    (status = 404, description = "`no_model` (the start model)", body = ErrorBody),
    (status = 409, description = "`training_refused`: too few games, a run under way, pause not confirmed", body = ErrorBody),
    (status = 413, response = openapi::TooLarge),
    (status = 415, response = openapi::NotJson),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn start_training(
    State(s): State<ApiState>,
    session: Session,
    Body(req): Body<TrainingRequest>,
) -> Result<(StatusCode, Json<TrainingStatus>), AppError> {
    let c = caller(&s.db, &session).await?;
    Ok((StatusCode::ACCEPTED, Json(s.matches.start_training(&c, req).await?)))
}

/// `?level=1|2` (default 2), given at most once.
fn level_of(query: Option<&str>) -> Result<u8, AppError> {
    let bad = |got: &str| AppError::invalid("level", format!("must be 1 or 2, given once; got {got:?}"));
    let mut level = None;
    for pair in query.unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key != "level" {
            continue;
        }
        if level.is_some() {
            return Err(bad(query.unwrap_or_default()));
        }
        level = Some(match value {
            "1" => 1,
            "2" => 2,
            other => return Err(bad(other)),
        });
    }
    Ok(level.unwrap_or(2))
}
