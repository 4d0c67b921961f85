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
        ws::{rejection::WebSocketUpgradeRejection, Message, WebSocket, WebSocketUpgrade},
        ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Path, Query, Request, State,
    },
    http::{request::Parts, StatusCode},
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
pub struct RoomId(pub i64);

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

/// `?after=N`: the last event a client has (0, the default, for none).
pub struct After(pub i64);

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

async fn caller(db: &Db, session: &Session) -> Result<Caller, AppError> {
    Ok(app::api::caller(sessions::current(db, session).await?.ok_or(AppError::NotSignedIn)?))
}

/// The signed-in viewer, if any (anonymous visitors may watch live, 003 §8.1).
async fn viewer(db: &Db, session: &Session) -> Result<Option<Viewer>, AppError> {
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
) -> Result<impl IntoResponse, AppError> {
    let user = sessions::authenticate(&s.db, &s.throttle, &b.username, &b.password, Some(addr.ip())).await?;
    sessions::establish(&session, &user).await?;
    Ok(Json(app::api::UserView::from(user)))
}

async fn sign_out(session: Session) -> Result<StatusCode, AppError> {
    sessions::end(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn me(State(s): State<ApiState>, session: Session) -> Result<impl IntoResponse, AppError> {
    let user = sessions::current(&s.db, &session).await?.ok_or(AppError::NotSignedIn)?;
    Ok(Json(app::api::UserView::from(user)))
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
) -> Result<impl IntoResponse, AppError> {
    let c = caller(&s.db, &session).await?;
    let created = s.matches.create_room(&c, &b.name, b.settings).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Anyone may watch a live room (003 §8.1); the player to move also gets hints (000 §8.3).
async fn room_view(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    session: Session,
) -> Result<impl IntoResponse, AppError> {
    let v = viewer(&s.db, &session).await?;
    Ok(Json(s.matches.view(id, v).await?))
}

async fn record_viewer(s: &ApiState, session: &Session) -> Result<Viewer, AppError> {
    viewer(&s.db, session).await?.ok_or_else(|| AppError::NotSignedIn.into())
}

/// The stored record (003 §8.1–8.2): players, the administrator and approved viewers.
async fn record_json(State(s): State<ApiState>, RoomId(id): RoomId, session: Session) -> Result<Response, AppError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let disposition = format!("attachment; filename=\"space-baduk-room-{id}.json\"");
    Ok(([(axum::http::header::CONTENT_DISPOSITION, disposition)], Json(record)).into_response())
}

/// SGF FF[4] of a flat-board record; 3D boxes have no SGF form.
async fn record_sgf(State(s): State<ApiState>, RoomId(id): RoomId, session: Session) -> Result<Response, AppError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let sgf = record.sgf.ok_or(AppError::NoSgf)?;
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
async fn attention(State(s): State<ApiState>, session: Session) -> Result<impl IntoResponse, AppError> {
    let c = caller(&s.db, &session).await?;
    if !c.is_admin {
        return Err(MatchError::AdminOnly.into());
    }
    Ok(Json(s.matches.needing_attention().await?))
}

async fn command(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    session: Session,
    Body(cmd): Body<Command>,
) -> Result<impl IntoResponse, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.command(id, c, cmd).await?))
}

async fn events(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    After(after): After,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(s.matches.events_after(id, after).await?))
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
    RoomId(id): RoomId,
    After(after): After,
    session: Session,
    headers: axum::http::HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let ws =
        ws.map_err(|e| AppError::BadRequest { why: format!("expected a WebSocket handshake: {}", e.body_text()) })?;
    // WebSockets are not bound by CORS: refuse handshakes that other sites' pages start.
    crate::csrf::verdict(&headers).map_err(|why| AppError::CrossSiteRequest { why: why.into() })?;
    let who = viewer(&s.db, &session).await?;
    // Resolve the room before upgrading, so a missing room is a plain 404.
    let (gap, live) = s.matches.follow(id, after).await?;
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
