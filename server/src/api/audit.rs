//! The administrators' log, exported: every entry the filter selects, newest first, as
//! JSON or CSV (administrators only). The dashboard's `/admin/log` shows the same entries
//! a page at a time.

use app::{
    audit::{AuditEntry, AuditFilter},
    AppError, ErrorBody,
};
use axum::{extract::State, response::IntoResponse};
use tower_sessions::Session;

use super::{attachment, caller, extract::AuditQuery, openapi, ApiState};

async fn entries(s: &ApiState, session: &Session, filter: &AuditFilter) -> Result<Vec<AuditEntry>, AppError> {
    let c = caller(&s.db, session).await?;
    if !c.role.is_admin() {
        return Err(wire::commands::MatchError::AdminOnly.into());
    }
    s.db.audit_entries(filter, None).await
}

/// The log as JSON: actor, time, action, target (account or room), reasons, and what changed.
#[utoipa::path(get, path = "/api/v1/admin/audit", tag = "admin", params(AuditFilter), security(("session" = [])),
    responses(
    (status = 200, description = "The entries, newest first", body = Vec<AuditEntry>),
    (status = 400, response = openapi::BadRequest),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn json(
    State(s): State<ApiState>,
    session: Session,
    AuditQuery(filter): AuditQuery,
) -> Result<impl IntoResponse, AppError> {
    let list = entries(&s, &session, &filter).await?;
    let body = serde_json::to_string_pretty(&list).map_err(|_| AppError::Internal)?;
    Ok(attachment("application/json", "space-baduk-audit.json", body))
}

/// The log as CSV (RFC 4180, a header row; `before` and `after` as JSON text).
#[utoipa::path(get, path = "/api/v1/admin/audit.csv", tag = "admin", params(AuditFilter), security(("session" = [])),
    responses(
    (status = 200, description = "The entries, newest first", content_type = "text/csv", body = String),
    (status = 400, response = openapi::BadRequest),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn csv(
    State(s): State<ApiState>,
    session: Session,
    AuditQuery(filter): AuditQuery,
) -> Result<impl IntoResponse, AppError> {
    let list = entries(&s, &session, &filter).await?;
    Ok(attachment("text/csv; charset=utf-8", "space-baduk-audit.csv", to_csv(&list)?))
}

fn to_csv(list: &[AuditEntry]) -> Result<String, AppError> {
    let fault = |e: csv::Error| {
        tracing::error!(error = %e, "writing the audit CSV");
        AppError::Internal
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["id", "at", "at_ms", "actor", "action", "target_user", "room_id", "reasons", "before", "after"])
        .map_err(fault)?;
    for e in list {
        let json = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string()).unwrap_or_default();
        let action: &'static str = e.action.into();
        w.write_record([
            e.id.to_string(),
            app::data::rfc3339(e.at_ms),
            e.at_ms.to_string(),
            e.actor.clone(),
            action.to_string(),
            e.target_user.clone().unwrap_or_default(),
            e.room_id.map(|r| r.to_string()).unwrap_or_default(),
            e.reasons.clone(),
            json(&e.before),
            json(&e.after),
        ])
        .map_err(fault)?;
    }
    let bytes = w.into_inner().map_err(|e| fault(e.into_error().into()))?;
    String::from_utf8(bytes).map_err(|_| AppError::Internal)
}
