//! The common rules and what a new room agrees under (003 §1.3–1.5, §9.7, §10.1), for
//! programs: open to all, as on `/rules/common` and the new-room form.

use app::{
    governance::{Agreements, CommonRules},
    AppError, ErrorBody,
};
use axum::{extract::State, Json};

use super::{extract::RulesVersionId, openapi, ApiState};

/// The common rules in force for rooms created now, in full, and every version.
#[utoipa::path(get, path = "/api/v1/rules", tag = "rules", responses(
    (status = 200, description = "The version in force and the list of versions", body = CommonRules),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn current(State(s): State<ApiState>) -> Result<Json<CommonRules>, AppError> {
    Ok(Json(s.matches.common_rules(None).await?))
}

/// One version of the common rules in full, and every version.
#[utoipa::path(get, path = "/api/v1/rules/{version}", tag = "rules", params(RulesVersionId), responses(
    (status = 200, description = "That version and the list of versions", body = CommonRules),
    (status = 400, response = openapi::BadRequest),
    (status = 404, description = "`no_rules_version`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn version(
    State(s): State<ApiState>,
    RulesVersionId(v): RulesVersionId,
) -> Result<Json<CommonRules>, AppError> {
    Ok(Json(s.matches.common_rules(Some(v)).await?))
}

/// What a room created now agrees under: the version in force, the special-rule kinds it
/// permits with their bounds, and the site's announced defaults with their date.
#[utoipa::path(get, path = "/api/v1/agreements", tag = "rules", responses(
    (status = 200, description = "The version, its permits and the site's defaults", body = Agreements),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn agreements(State(s): State<ApiState>) -> Result<Json<Agreements>, AppError> {
    Ok(Json(s.matches.agreements().await?))
}
