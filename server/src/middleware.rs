//! Request-wide concerns: a correlation id per request, and server-function answers with the
//! same statuses and bodies as the participant API.

use axum::{
    body::{Body, Bytes},
    extract::Request,
    http::{HeaderValue, Method, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;
use tracing::Instrument;

use app::AppError;

/// The response header naming the request's correlation id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Gives every request an id: its log lines carry it (a tracing span), its answer names it
/// (`x-request-id`), and a 500's body carries it as `detail.correlation_id`.
pub async fn correlate(req: Request, next: Next) -> Response {
    let id = format!("{:016x}", app::data::secrets::random_u64());
    let span = tracing::info_span!("request", id = %id, method = %req.method(), path = %req.uri().path());
    let mut response = app::error::CORRELATION_ID.scope(id.clone(), next.run(req).instrument(span)).await;
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, v);
    }
    response
}

/// Server-function bodies are buffered here up to `limit` bytes, so a larger one is a 413
/// (server_fn would report it as an unreadable argument).
pub async fn limit_body(limit: usize, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Err(e) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.downcast_ref::<http_body_util::LengthLimitError>().is_some());
            if too_large {
                AppError::BodyTooLarge { limit_bytes: limit as u64 }.into_response()
            } else {
                AppError::BadRequest { why: format!("the request body could not be read: {e}") }.into_response()
            }
        }
    }
}

/// server_fn 0.8 answers every error with 500 (0.9 adds `FromServerFnError::status_code`):
/// re-answer its error responses with the status, headers and body `AppError` gives them.
pub async fn server_fn_status(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR
        || !response.headers().contains_key(SERVER_FN_ERROR_HEADER)
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let error = match axum::body::to_bytes(body, 1 << 20).await.map(|b: Bytes| serde_json::from_slice::<AppError>(&b)) {
        Ok(Ok(error)) => error,
        other => {
            tracing::error!(?other, "unreadable server function error");
            AppError::Internal
        }
    };
    let mut answer = error.into_response();
    if let Some(path) = parts.headers.get(SERVER_FN_ERROR_HEADER) {
        answer.headers_mut().insert(SERVER_FN_ERROR_HEADER, path.clone());
    }
    answer
}
