//! Extractors whose refusals are typed API errors (axum's own answer in plain text).

use axum::{
    extract::{rejection::JsonRejection, FromRequest, FromRequestParts, Path, Query, Request},
    http::{request::Parts, StatusCode},
    Json,
};
use serde::Deserialize;

use super::MAX_BODY_BYTES;
use app::AppError;

/// JSON body extractor whose failures are API errors naming what was wrong.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = AppError;
    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        Json::<T>::from_request(req, state).await.map(|Json(v)| Body(v)).map_err(|rejection| match rejection {
            JsonRejection::JsonDataError(e) => AppError::InvalidJson { why: e.body_text() },
            JsonRejection::JsonSyntaxError(e) => AppError::MalformedJson { why: e.body_text() },
            JsonRejection::MissingJsonContentType(_) => {
                AppError::UnsupportedMediaType { expected: "application/json".into() }
            }
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::BodyTooLarge { limit_bytes: MAX_BODY_BYTES as u64 }
            }
            other => AppError::BadRequest { why: other.body_text() },
        })
    }
}

/// The `{id}` of a room's path: a room number 1..=i64::MAX.
#[derive(utoipa::IntoParams)]
#[into_params(names("id"), parameter_in = Path)]
pub struct RoomId(
    /// The room's number.
    #[param(minimum = 1, example = 1)]
    pub i64,
);

impl<S: Send + Sync> FromRequestParts<S> for RoomId {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| AppError::BadRequest { why: e.body_text() })?;
        match raw.parse::<i64>() {
            Ok(id) if id >= 1 => Ok(RoomId(id)),
            _ => Err(AppError::invalid("id", format!("must be a room number from 1 to {}, got {raw:?}", i64::MAX))),
        }
    }
}

/// The `{id}` of a model's path: a model number 1..=i64::MAX.
#[derive(utoipa::IntoParams)]
#[into_params(names("id"), parameter_in = Path)]
pub struct ModelId(
    /// The model's number.
    #[param(minimum = 1, example = 1)]
    pub i64,
);

impl<S: Send + Sync> FromRequestParts<S> for ModelId {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let RoomId(id) = RoomId::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::invalid("id", format!("must be a model number from 1 to {}", i64::MAX)))?;
        Ok(ModelId(id))
    }
}

/// The `{version}` of a common-rules version's path: 1..=4294967295.
#[derive(utoipa::IntoParams)]
#[into_params(names("version"), parameter_in = Path)]
pub struct RulesVersionId(
    /// The version's number.
    #[param(minimum = 1, maximum = 4294967295_i64, example = 1)]
    pub u32,
);

impl<S: Send + Sync> FromRequestParts<S> for RulesVersionId {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let bad = || AppError::invalid("version", format!("must be a version number from 1 to {}", u32::MAX));
        let RoomId(n) = RoomId::from_request_parts(parts, state).await.map_err(|_| bad())?;
        Ok(RulesVersionId(u32::try_from(n).map_err(|_| bad())?))
    }
}

/// A program match's id in the path.
#[derive(utoipa::IntoParams)]
#[into_params(names("id"), parameter_in = Path)]
pub struct SeriesId(
    /// The program match's number.
    #[param(minimum = 1, example = 1)]
    pub i64,
);

impl<S: Send + Sync> FromRequestParts<S> for SeriesId {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let RoomId(id) = RoomId::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::invalid("id", format!("must be a program match number from 1 to {}", i64::MAX)))?;
        Ok(SeriesId(id))
    }
}

/// `?after=N`: the last event a client has (0, the default, for none).
#[derive(utoipa::IntoParams)]
#[into_params(names("after"), parameter_in = Query)]
pub struct After(
    /// The `seq` of the last event the client has; 0 (the default) for all.
    #[param(value_type = Option<i64>, minimum = 0)]
    pub i64,
);

impl<S: Send + Sync> FromRequestParts<S> for After {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        #[derive(Deserialize)]
        struct AfterQuery {
            after: Option<String>,
        }
        let range = || format!("must be an event number from 0 to {}", i64::MAX);
        let Query(q) = Query::<AfterQuery>::from_request_parts(parts, state)
            .await
            .map_err(|e| AppError::invalid("after", format!("{}; {}", range(), e.body_text())))?;
        match q.after.as_deref().map(str::parse::<i64>) {
            None => Ok(After(0)),
            Some(Ok(n)) if n >= 0 => Ok(After(n)),
            Some(_) => Err(AppError::invalid("after", format!("{}, got {:?}", range(), q.after.unwrap_or_default()))),
        }
    }
}

/// `?batch=`: how the events of a write come (with many viewers this is the cost: per message
/// the server frames and the client wakes, and per socket write the kernel works).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `false`, the default: every event is a message of its own (a client written before
    /// batches).
    PerEvent,
    /// `true`: batch messages, `{"type":"batch","messages":[event message, …]}`.
    Batch,
    /// `packed`: packed messages (`wire::packed`), a few bytes per move.
    Packed,
}

#[derive(utoipa::IntoParams)]
#[into_params(names("batch"), parameter_in = Query)]
pub struct Batch(
    /// `packed` for packed messages (`{"type":"packed",…}`: the browser's), `true` for batch
    /// messages of event messages, `false` (the default) for one message per event.
    #[param(value_type = Option<String>, pattern = "^(packed|true|false)$")]
    pub Framing,
);

impl<S: Send + Sync> FromRequestParts<S> for Batch {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        #[derive(Deserialize)]
        struct BatchQuery {
            batch: Option<String>,
        }
        let allowed = "must be packed, true or false";
        let Query(q) = Query::<BatchQuery>::from_request_parts(parts, state)
            .await
            .map_err(|e| AppError::invalid("batch", format!("{allowed}; {}", e.body_text())))?;
        match q.batch.as_deref() {
            None | Some("false") => Ok(Batch(Framing::PerEvent)),
            Some("true") => Ok(Batch(Framing::Batch)),
            Some("packed") => Ok(Batch(Framing::Packed)),
            Some(other) => Err(AppError::invalid("batch", format!("{allowed}, got {other:?}"))),
        }
    }
}

/// The administrators' log's filter from the query (`actor`, `room`, `action`, `from_ms`,
/// `to_ms`, each optional); what cannot be read is refused naming the field.
pub struct AuditQuery(pub app::audit::AuditFilter);

impl<S: Send + Sync> FromRequestParts<S> for AuditQuery {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        Query::<app::audit::AuditFilter>::from_request_parts(parts, state)
            .await
            .map(|Query(f)| AuditQuery(f))
            .map_err(|e| AppError::invalid("query", e.body_text()))
    }
}
