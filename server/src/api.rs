//! The participant API, version 1: HTTP JSON + a WebSocket event stream, for programs and
//! for the browser alike. A thin adapter over `app::matches::service::MatchService`.
//!
//! Sign-in uses the same server-side session as the web pages (cookie `sb_session`).

use std::{net::SocketAddr, sync::Arc};

use app::{
    data::{sessions, Db, SignInThrottle},
    matches::{
        actor::Viewer,
        events::StoredEvent,
        service::MatchService,
        settings::MatchSettings,
        state::{Caller, Command, MatchError},
    },
    AppError,
};
use axum::{
    extract::{
        rejection::JsonRejection,
        ws::{Message, WebSocket, WebSocketUpgrade},
        ConnectInfo, DefaultBodyLimit, Path, Query, State,
    },
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

/// Requests larger than this are refused before parsing.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// A reconnecting viewer further behind than this gets a full state instead of the gap.
pub const MAX_GAP_EVENTS: usize = 2_000;

#[derive(Clone)]
pub struct ApiState {
    pub db: Db,
    pub matches: MatchService,
    pub throttle: Arc<SignInThrottle>,
}

/// Every route of the participant API with its methods. The OpenAPI document
/// (`/api/openapi.json`) must list exactly these; a test holds the two in step.
pub const ROUTES: &[(&str, &[&str])] = &[
    ("/api/v1/session", &["get", "post", "delete"]),
    ("/api/v1/rooms", &["post"]),
    ("/api/v1/rooms/{id}", &["get"]),
    ("/api/v1/rooms/{id}/commands", &["post"]),
    ("/api/v1/rooms/{id}/events", &["get"]),
    ("/api/v1/rooms/{id}/stream", &["get"]),
    ("/api/v1/rooms/{id}/record", &["get"]),
    ("/api/v1/rooms/{id}/record.sgf", &["get"]),
    ("/api/v1/admin/attention", &["get"]),
];

/// The OpenAPI 3 description of this API, served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("../openapi.json");

pub fn router(state: ApiState) -> Router {
    Router::new()
        .route(
            "/api/openapi.json",
            get(|| async { ([(axum::http::header::CONTENT_TYPE, "application/json")], OPENAPI) }),
        )
        .route("/api/v1/session", post(sign_in).delete(sign_out).get(me))
        .route("/api/v1/rooms", post(create_room))
        .route("/api/v1/rooms/{id}", get(room_view))
        .route("/api/v1/rooms/{id}/commands", post(command))
        .route("/api/v1/rooms/{id}/events", get(events))
        .route("/api/v1/rooms/{id}/stream", get(stream))
        .route("/api/v1/rooms/{id}/record", get(record_json))
        .route("/api/v1/rooms/{id}/record.sgf", get(record_sgf))
        .route("/api/v1/admin/attention", get(attention))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Every API error: a stable machine-readable `error` code and a human `message`.
#[derive(Debug, Serialize)]
pub struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    error: String,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<serde_json::Value>,
}

impl ApiError {
    fn new(status: StatusCode, error: &str, message: impl Into<String>) -> Self {
        ApiError { status, error: error.into(), message: message.into(), detail: None }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(&self)).into_response()
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        let (status, code) = match &e {
            AppError::InvalidInput { .. } => (StatusCode::BAD_REQUEST, "invalid_input"),
            AppError::BadCredentials => (StatusCode::UNAUTHORIZED, "bad_credentials"),
            AppError::Throttled { .. } => (StatusCode::TOO_MANY_REQUESTS, "throttled"),
            AppError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            AppError::Forbidden => (StatusCode::FORBIDDEN, "forbidden"),
            AppError::BadSetupToken => (StatusCode::FORBIDDEN, "bad_setup_token"),
            AppError::Internal | AppError::Transport(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            AppError::Match(m) => return m.clone().into(),
        };
        let mut out = ApiError::new(status, code, e.to_string());
        out.detail = serde_json::to_value(&e).ok();
        out
    }
}

impl From<MatchError> for ApiError {
    fn from(e: MatchError) -> Self {
        use MatchError::*;
        let status = match &e {
            RoomNotFound => StatusCode::NOT_FOUND,
            NotAPlayer | AdminOnly | BadInviteCode | NotYourMark { .. } | RecordNotAllowed => StatusCode::FORBIDDEN,
            SeatTaken
            | AlreadySeated
            | AlreadyDone
            | WrongPhase { .. }
            | NotYourTurn { .. }
            | AwaitingAcknowledgement { .. }
            | NothingToAcknowledge { .. }
            | Suspended { .. }
            | TimeExpired { .. }
            | UndoNotAllowed { .. }
            | DrawOfferNotAllowed { .. }
            | NoPendingRequest { .. }
            | StaleStatement { .. } => StatusCode::CONFLICT,
            OffBoard { .. } | InvalidInput { .. } => StatusCode::BAD_REQUEST,
            Illegal { .. } | BadMark { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let detail = serde_json::to_value(&e).ok();
        let code =
            detail.as_ref().and_then(|d| d.get("error")).and_then(|c| c.as_str()).unwrap_or("internal").to_string();
        ApiError { status, error: code, message: e.to_string(), detail }
    }
}

/// JSON body extractor whose failures are API errors naming what was wrong.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(match rejection {
                JsonRejection::JsonDataError(e) => {
                    ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", e.body_text())
                }
                JsonRejection::JsonSyntaxError(e) => {
                    ApiError::new(StatusCode::BAD_REQUEST, "malformed_json", e.body_text())
                }
                JsonRejection::MissingJsonContentType(_) => ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "content_type",
                    "send Content-Type: application/json",
                ),
                JsonRejection::BytesRejection(e) => ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!("{}; the limit is {MAX_BODY_BYTES} bytes", e.body_text()),
                ),
                other => ApiError::new(StatusCode::BAD_REQUEST, "bad_request", other.body_text()),
            }),
        }
    }
}

async fn caller(db: &Db, session: &Session) -> Result<Caller, ApiError> {
    Ok(app::api::caller(sessions::current(db, session).await?.ok_or(AppError::NotSignedIn)?))
}

/// The signed-in viewer, if any (anonymous visitors may watch live, 003 §8.1).
async fn viewer(db: &Db, session: &Session) -> Result<Option<Viewer>, ApiError> {
    Ok(sessions::current(db, session).await?.map(app::api::viewer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignInBody {
    username: String,
    password: String,
}

async fn sign_in(
    State(s): State<ApiState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    session: Session,
    Body(b): Body<SignInBody>,
) -> Result<impl IntoResponse, ApiError> {
    let user = sessions::authenticate(&s.db, &s.throttle, &b.username, &b.password, Some(addr.ip())).await?;
    sessions::establish(&session, &user).await?;
    Ok(Json(app::api::UserView::from(user)))
}

async fn sign_out(session: Session) -> Result<StatusCode, ApiError> {
    sessions::end(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn me(State(s): State<ApiState>, session: Session) -> Result<impl IntoResponse, ApiError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(serde_json::json!({ "id": c.user_id, "username": c.username })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRoomBody {
    name: String,
    settings: MatchSettings,
}

async fn create_room(
    State(s): State<ApiState>,
    session: Session,
    Body(b): Body<CreateRoomBody>,
) -> Result<impl IntoResponse, ApiError> {
    let c = caller(&s.db, &session).await?;
    let created = s.matches.create_room(&c, &b.name, b.settings).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Anyone may watch a live room (003 §8.1); the player to move also gets hints (000 §8.3).
async fn room_view(
    State(s): State<ApiState>,
    Path(id): Path<i64>,
    session: Session,
) -> Result<impl IntoResponse, ApiError> {
    let v = viewer(&s.db, &session).await?;
    Ok(Json(s.matches.view(id, v).await?))
}

async fn record_viewer(s: &ApiState, session: &Session) -> Result<Viewer, ApiError> {
    viewer(&s.db, session).await?.ok_or_else(|| AppError::NotSignedIn.into())
}

/// The stored record (003 §8.1–8.2): players, the administrator and approved viewers.
async fn record_json(State(s): State<ApiState>, Path(id): Path<i64>, session: Session) -> Result<Response, ApiError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let disposition = format!("attachment; filename=\"space-baduk-room-{id}.json\"");
    Ok(([(axum::http::header::CONTENT_DISPOSITION, disposition)], Json(record)).into_response())
}

/// SGF FF[4] of a flat-board record; 3D boxes have no SGF form.
async fn record_sgf(State(s): State<ApiState>, Path(id): Path<i64>, session: Session) -> Result<Response, ApiError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let sgf = record.sgf.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_sgf",
            "SGF exists only for flat boards (depth 1); use the JSON record",
        )
    })?;
    let disposition = format!("attachment; filename=\"space-baduk-room-{id}.sgf\"");
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8".to_string()),
            (axum::http::header::CONTENT_DISPOSITION, disposition),
        ],
        sgf,
    )
        .into_response())
}

/// Rooms held or with an outstanding notice (003 §1.6, §3.6, §6.1): administrators only.
async fn attention(State(s): State<ApiState>, session: Session) -> Result<impl IntoResponse, ApiError> {
    let c = caller(&s.db, &session).await?;
    if !c.is_admin {
        return Err(MatchError::AdminOnly.into());
    }
    Ok(Json(s.matches.needing_attention().await?))
}

async fn command(
    State(s): State<ApiState>,
    Path(id): Path<i64>,
    session: Session,
    Body(cmd): Body<Command>,
) -> Result<impl IntoResponse, ApiError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.command(id, c, cmd).await?))
}

#[derive(Deserialize)]
struct AfterQuery {
    #[serde(default)]
    after: i64,
}

async fn events(
    State(s): State<ApiState>,
    Path(id): Path<i64>,
    Query(q): Query<AfterQuery>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(s.matches.events_after(id, q.after).await?))
}

/// Messages on the stream, server → client.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamMessage<'a> {
    /// The full state: sent when the client is too far behind for a gap.
    Snapshot {
        room: &'a app::matches::view::RoomView,
    },
    Event {
        event: &'a StoredEvent,
    },
    /// The client fell too far behind the live stream; it should reconnect with its last seq.
    Lagged,
}

/// `GET /api/v1/rooms/{id}/stream?after=N` (WebSocket). Sends exactly the events after N,
/// or a snapshot when N is too far behind, then every new event. Viewers cannot send
/// anything into the room over it: incoming messages are ignored (003 §6.4).
async fn stream(
    State(s): State<ApiState>,
    Path(id): Path<i64>,
    Query(q): Query<AfterQuery>,
    session: Session,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // WebSockets are not bound by CORS: refuse handshakes that other sites' pages start.
    crate::csrf::verdict(&headers).map_err(|why| ApiError::new(StatusCode::FORBIDDEN, "cross_site_request", why))?;
    let who = viewer(&s.db, &session).await?;
    // Resolve the room before upgrading, so a missing room is a plain 404.
    let (gap, live) = s.matches.follow(id, q.after).await?;
    let snapshot = if gap.len() > MAX_GAP_EVENTS { Some(s.matches.view(id, who.clone()).await?) } else { None };
    let matches = s.matches.clone();
    let user_id = who.map(|v| v.user_id);
    // A small read buffer: viewers send (almost) nothing, and tungstenite zero-fills the
    // whole buffer on every read (128 KiB by default: a quarter of the server's CPU with
    // many spectators, measured with the load benchmark).
    let ws = ws.read_buffer_size(4 * 1024);
    Ok(ws.on_upgrade(move |socket| async move {
        // A player's open stream is their connection to the match (003 §6.1).
        matches.presence(id, user_id, true).await;
        pump(socket, gap, snapshot, live).await;
        matches.presence(id, user_id, false).await;
    }))
}

async fn pump(
    mut socket: WebSocket,
    gap: Vec<StoredEvent>,
    snapshot: Option<app::matches::view::RoomView>,
    mut live: tokio::sync::broadcast::Receiver<StoredEvent>,
) {
    let mut last = 0i64;
    let send = |m: &StreamMessage| serde_json::to_string(m).map(|t| Message::Text(t.into()));
    if let Some(room) = &snapshot {
        last = room.version;
        if let Ok(m) = send(&StreamMessage::Snapshot { room }) {
            if socket.send(m).await.is_err() {
                return;
            }
        }
    } else {
        for e in &gap {
            let e = e.public_view();
            if let Ok(m) = send(&StreamMessage::Event { event: &e }) {
                if socket.send(m).await.is_err() {
                    return;
                }
            }
            last = e.seq;
        }
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {} // read-only stream
            },
            ev = live.recv() => match ev {
                Ok(e) if e.seq <= last => {}
                Ok(e) => {
                    let e = e.public_view();
                    last = e.seq;
                    match send(&StreamMessage::Event { event: &e }) {
                        Ok(m) => if socket.send(m).await.is_err() { return },
                        Err(_) => return,
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    if let Ok(m) = send(&StreamMessage::Lagged) { let _ = socket.send(m).await; }
                    return;
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            }
        }
    }
}
