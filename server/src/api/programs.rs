//! Program matches (003 §12.4; administrators only): start a series of games between two
//! programs with colours swapped, and read its games, records and tally.

use app::{
    learning::programs::{ProgramMatch, ProgramMatchRequest},
    AppError, ErrorBody,
};
use axum::{extract::State, http::StatusCode, Json};
use tower_sessions::Session;

use super::{caller, extract::SeriesId, openapi, ApiState, Body};

/// Every program match, newest first, with its games and tally.
#[utoipa::path(get, path = "/api/v1/admin/program-matches", tag = "admin", security(("session" = [])), responses(
    (status = 200, description = "The program matches", body = Vec<ProgramMatch>),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn list(State(s): State<ApiState>, session: Session) -> Result<Json<Vec<ProgramMatch>>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.program_matches(&c).await?))
}

/// Starts a program match: `games` (even, 2–100) between `a` and `b` on the same settings,
/// A Black in the odd games. The games run one after another as ordinary rooms.
#[utoipa::path(post, path = "/api/v1/admin/program-matches", tag = "admin", security(("session" = [])),
    request_body = ProgramMatchRequest, responses(
    (status = 201, description = "Started", body = ProgramMatch),
    (status = 400, description = "`invalid_input`: `games` or `settings` (the field and allowed range are named)", body = ErrorBody),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only` or a cross-site request", body = ErrorBody),
    (status = 404, description = "`no_model`", body = ErrorBody),
    (status = 413, response = openapi::TooLarge),
    (status = 415, response = openapi::NotJson),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn start(
    State(s): State<ApiState>,
    session: Session,
    Body(req): Body<ProgramMatchRequest>,
) -> Result<(StatusCode, Json<ProgramMatch>), AppError> {
    let c = caller(&s.db, &session).await?;
    Ok((StatusCode::CREATED, Json(s.matches.start_program_match(&c, req).await?)))
}

/// One program match: its games (room, colours, result, whether the marks were agreed
/// automatically) and the tally.
#[utoipa::path(get, path = "/api/v1/admin/program-matches/{id}", tag = "admin", params(SeriesId),
    security(("session" = [])), responses(
    (status = 200, description = "The program match", body = ProgramMatch),
    (status = 400, response = openapi::BadRequest),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 404, description = "`no_program_match`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn one(
    State(s): State<ApiState>,
    session: Session,
    SeriesId(id): SeriesId,
) -> Result<Json<ProgramMatch>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.program_match(&c, id).await?))
}
