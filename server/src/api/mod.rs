//! The participant API, version 1: HTTP JSON + a WebSocket event stream, for programs and
//! for the browser alike. A thin adapter over `app::matches::service::MatchService`.
//!
//! Sign-in uses the same server-side session as the web pages (cookie `sb_session`). Each
//! handler's `#[utoipa::path]` is its entry in the OpenAPI document (`/api/openapi.json`),
//! registered together with its route, so the two cannot drift apart.

mod audit;
mod extract;
mod models;
mod openapi;
mod pace;
mod programs;
mod rules;

use std::{net::SocketAddr, sync::Arc};

use app::{
    api::UserView,
    data::{sessions, Db, SignInThrottle},
    matches::{
        commands::{CommandReply, CreatedRoom},
        events::StoredEvent,
        record::RoomRecord,
        referee::{DeskView, Notice, QueueEntry, QueueKind},
        service::MatchService,
        settings::MatchSettings,
        state::{Command, MatchError, Requester},
        view::RoomView,
    },
    AppError, ErrorBody,
};
use axum::{
    extract::{
        ws::{rejection::WebSocketUpgradeRejection, Message, WebSocket, WebSocketUpgrade},
        ConnectInfo, DefaultBodyLimit, State,
    },
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;
use utoipa_axum::{router::OpenApiRouter, routes};

pub use extract::{After, Batch, Body, RoomId};
pub use openapi::openapi;
use pace::Pace;
pub use pace::SpectatorPace;

/// Requests larger than this are refused before parsing.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// A reconnecting viewer further behind than this gets a full state instead of the gap.
pub const MAX_GAP_EVENTS: usize = 2_000;

#[derive(Clone)]
pub struct ApiState {
    pub db: Db,
    pub matches: MatchService,
    pub throttle: Arc<SignInThrottle>,
    /// Where the site is served from (the participant program's WASM sits beside it).
    pub site_root: std::path::PathBuf,
    /// How often unseated viewers' streams write during a burst (`Config::spectator_pace_ms`,
    /// widened by `Config::spectator_writes_per_s`).
    pub spectator_pace: Arc<SpectatorPace>,
}

/// Every route of the participant API with its methods, as the README promises them. The
/// document is derived from the handlers; a test holds it and this list in step.
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
    ("/api/v1/admin/queue", &["get"]),
    ("/api/v1/admin/queue/claim", &["post"]),
    ("/api/v1/admin/stream", &["get"]),
    ("/api/v1/admin/rooms/{id}/desk", &["get"]),
    ("/api/v1/notifications", &["get"]),
    ("/api/v1/notifications/read", &["post"]),
    ("/api/v1/models", &["get", "post"]),
    ("/api/v1/models/{id}", &["get"]),
    ("/api/v1/models/{id}/participant.js", &["get"]),
    ("/api/v1/admin/training", &["get", "post"]),
    ("/api/v1/admin/program-matches", &["get", "post"]),
    ("/api/v1/admin/program-matches/{id}", &["get"]),
    ("/api/v1/admin/audit", &["get"]),
    ("/api/v1/admin/audit.csv", &["get"]),
    ("/api/v1/rules", &["get"]),
    ("/api/v1/rules/{version}", &["get"]),
    ("/api/v1/agreements", &["get"]),
];

/// The API's routes with their documentation, before the state is supplied.
fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(sign_in, sign_out, me))
        .routes(routes!(create_room))
        .routes(routes!(room_view))
        .routes(routes!(command))
        .routes(routes!(events))
        .routes(routes!(stream))
        .routes(routes!(record_json))
        .routes(routes!(record_sgf))
        .routes(routes!(attention))
        .routes(routes!(queue))
        .routes(routes!(claim))
        .routes(routes!(admin_stream))
        .routes(routes!(desk))
        .routes(routes!(notifications))
        .routes(routes!(notifications_read))
        .routes(routes!(models::list, models::import))
        .routes(routes!(models::export))
        .routes(routes!(models::participant_js))
        .routes(routes!(models::training_status, models::start_training))
        .routes(routes!(programs::list, programs::start))
        .routes(routes!(programs::one))
        .routes(routes!(audit::json))
        .routes(routes!(audit::csv))
        .routes(routes!(rules::current))
        .routes(routes!(rules::version))
        .routes(routes!(rules::agreements))
}

pub fn router(state: ApiState) -> Router {
    let (api, doc) = routes().split_for_parts();
    let doc = openapi::finish(doc);
    // Serialised once: the document is a constant of this build.
    let doc = Arc::new(doc.to_json().unwrap_or_else(|e| {
        tracing::error!(error = %e, "the OpenAPI document does not serialise");
        "{}".into()
    }));
    // Wrong methods and unknown paths under /api/v1 get the API's JSON refusal too.
    let api = api
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            AppError::MethodNotAllowed { method: method.to_string() }
        })
        .route(
            "/api/v1/{*rest}",
            axum::routing::any(
                |uri: axum::http::Uri| async move { AppError::NoRoute { path: uri.path().to_string() } },
            ),
        );
    api.route(
        "/api/openapi.json",
        get(move || {
            let doc = doc.clone();
            async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], doc.as_str().to_owned()) }
        }),
    )
    .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
    .with_state(state)
}

/// A file to save: its type and the name the browser offers.
pub(super) fn attachment(content_type: &'static str, filename: &str, body: String) -> impl IntoResponse {
    let disposition = format!("attachment; filename=\"{filename}\"");
    (
        [
            (axum::http::header::CONTENT_TYPE, content_type.to_string()),
            (axum::http::header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
}

async fn caller(db: &Db, session: &Session) -> Result<Requester, AppError> {
    Ok(app::api::requester(sessions::current(db, session).await?.ok_or(AppError::NotSignedIn)?))
}

/// The signed-in viewer, if any (anonymous visitors may watch live, 003 §8.1).
async fn viewer(db: &Db, session: &Session) -> Result<Option<Requester>, AppError> {
    Ok(sessions::current(db, session).await?.map(app::api::requester))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct SignInBody {
    username: String,
    password: String,
}

/// Sign in (throttled per name and per address); sets the session cookie `sb_session`.
#[utoipa::path(post, path = "/api/v1/session", tag = "session", request_body = SignInBody, responses(
    (status = 200, description = "Signed in", body = UserView),
    (status = 400, response = openapi::BadRequest),
    (status = 401, description = "`bad_credentials`", body = ErrorBody),
    (status = 403, description = "`account_disabled` (an administrator disabled it) or a cross-site request", body = ErrorBody),
    (status = 413, response = openapi::TooLarge),
    (status = 415, response = openapi::NotJson),
    (status = 429, response = openapi::Throttled),
    (status = 500, response = openapi::Fault),
    (status = 503, response = openapi::Busy),
))]
async fn sign_in(
    State(s): State<ApiState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    session: Session,
    Body(b): Body<SignInBody>,
) -> Result<Json<UserView>, AppError> {
    let user = sessions::authenticate(&s.db, &s.throttle, &b.username, &b.password, Some(addr.ip())).await?;
    let agent = headers.get(axum::http::header::USER_AGENT).and_then(|v| v.to_str().ok()).map(String::from);
    let origin = app::data::logins::Origin { agent, address: Some(addr.ip().to_string()) };
    sessions::establish(&s.db, &session, &user, &origin).await?;
    Ok(Json(UserView::from(user)))
}

/// Sign out (ends the session; fine without one).
#[utoipa::path(delete, path = "/api/v1/session", tag = "session", responses(
    (status = 204, description = "Signed out"),
    (status = 403, response = openapi::CrossSite),
    (status = 500, response = openapi::Fault),
))]
async fn sign_out(State(s): State<ApiState>, session: Session) -> Result<StatusCode, AppError> {
    sessions::end(&s.db, &session).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Who is signed in on this session.
#[utoipa::path(get, path = "/api/v1/session", tag = "session", security(("session" = [])), responses(
    (status = 200, description = "The signed-in user", body = UserView),
    (status = 401, response = openapi::NotSignedIn),
    (status = 500, response = openapi::Fault),
))]
async fn me(State(s): State<ApiState>, session: Session) -> Result<Json<UserView>, AppError> {
    let user = sessions::current(&s.db, &session).await?.ok_or(AppError::NotSignedIn)?;
    Ok(Json(UserView::from(user)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = create_room_example)]
struct CreateRoomBody {
    /// 1–60 characters once trimmed.
    #[schema(min_length = 1, max_length = 60, pattern = r"\S")]
    name: String,
    /// The agreement (003 §1.3; 000 §2), validated per preset: a 400 names every problem.
    settings: MatchSettings,
}

/// A valid room: Classic 9×9 with its defaults, host Black (the fuzzer's first room).
fn create_room_example() -> serde_json::Value {
    let mut settings = MatchSettings::classic_default(9);
    settings.colours = app::matches::settings::ColourAssignment::HostBlack;
    serde_json::json!({ "name": "Classic 9×9", "settings": settings })
}

/// Create a room with the settings agreed before play (003 §1.3); the creator gets one
/// invitation code per seat, shown only now.
#[utoipa::path(post, path = "/api/v1/rooms", tag = "rooms", security(("session" = [])), request_body = CreateRoomBody,
    responses(
        (status = 201, description = "Created", body = CreatedRoom),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, response = openapi::CrossSite),
        (status = 413, response = openapi::TooLarge),
        (status = 404, description = "`no_model`: the computer's chosen model", body = ErrorBody),
        (status = 415, response = openapi::NotJson),
        (status = 500, response = openapi::Fault),
))]
async fn create_room(
    State(s): State<ApiState>,
    session: Session,
    Body(b): Body<CreateRoomBody>,
) -> Result<(StatusCode, Json<CreatedRoom>), AppError> {
    let c = caller(&s.db, &session).await?;
    let created = s.matches.create_room(&c, &b.name, b.settings).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// The room as this viewer may see it. Anyone may watch a live room (003 §8.1); the player
/// to move also gets hints (000 §8.3).
#[utoipa::path(get, path = "/api/v1/rooms/{id}", tag = "rooms", params(RoomId), responses(
    (status = 200, description = "The room's current state", body = RoomView),
    (status = 400, response = openapi::BadRequest),
    (status = 404, response = openapi::NoRoom),
    (status = 503, response = openapi::Elsewhere),
    (status = 500, response = openapi::Fault),
))]
async fn room_view(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    session: Session,
) -> Result<Json<RoomView>, AppError> {
    let v = viewer(&s.db, &session).await?;
    Ok(Json(s.matches.view(id, v).await?))
}

async fn record_viewer(s: &ApiState, session: &Session) -> Result<Requester, AppError> {
    viewer(&s.db, session).await?.ok_or(AppError::NotSignedIn)
}

/// The stored record (003 §8.1–8.2): for the players, the administrator and viewers both
/// players approved.
#[utoipa::path(get, path = "/api/v1/rooms/{id}/record", tag = "records", params(RoomId),
    security(("session" = [])), responses(
        (status = 200, description = "The record, as a download", body = RoomRecord),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, response = openapi::NotAllowed),
        (status = 404, response = openapi::NoRoom),
        (status = 503, response = openapi::Elsewhere),
        (status = 500, response = openapi::Fault),
))]
async fn record_json(State(s): State<ApiState>, RoomId(id): RoomId, session: Session) -> Result<Response, AppError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let json = serde_json::to_string(&record).map_err(|e| {
        tracing::error!(error = %e, "a record does not serialise");
        AppError::Internal
    })?;
    Ok(attachment("application/json", &format!("space-baduk-room-{id}.json"), json).into_response())
}

/// The record as SGF FF[4]: flat boards only (3D boxes have no SGF form).
#[utoipa::path(get, path = "/api/v1/rooms/{id}/record.sgf", tag = "records", params(RoomId),
    security(("session" = [])), responses(
        (status = 200, description = "SGF, as a download", content_type = "application/x-go-sgf", body = String),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, response = openapi::NotAllowed),
        (status = 404, response = openapi::NoRoom),
        (status = 422, description = "`no_sgf`: the board is a 3D box", body = ErrorBody),
        (status = 503, response = openapi::Elsewhere),
        (status = 500, response = openapi::Fault),
))]
async fn record_sgf(State(s): State<ApiState>, RoomId(id): RoomId, session: Session) -> Result<Response, AppError> {
    let v = record_viewer(&s, &session).await?;
    let record = s.matches.record(id, v).await?;
    let sgf = record.sgf.ok_or(AppError::NoSgf)?;
    Ok(attachment("application/x-go-sgf; charset=utf-8", &format!("space-baduk-room-{id}.sgf"), sgf).into_response())
}

/// Rooms held or with an outstanding notice (003 §1.6, §3.6, §6.1): administrators only.
#[utoipa::path(get, path = "/api/v1/admin/attention", tag = "admin", security(("session" = [])), responses(
    (status = 200, description = "Rooms needing the administrator", body = Vec<RoomView>),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
async fn attention(State(s): State<ApiState>, session: Session) -> Result<Json<Vec<RoomView>>, AppError> {
    let c = caller(&s.db, &session).await?;
    if !c.is_admin() {
        return Err(MatchError::AdminOnly.into());
    }
    Ok(Json(s.matches.needing_attention().await?))
}

/// Everything waiting for an administrator's decision, oldest first, with who handles it
/// (003 §1.4–1.6, §2.7, §3.6, §4.7, §5.7, §6.2, §10.2): administrators only.
#[utoipa::path(get, path = "/api/v1/admin/queue", tag = "admin", security(("session" = [])), responses(
    (status = 200, description = "The queue", body = Vec<QueueEntry>),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
async fn queue(State(s): State<ApiState>, session: Session) -> Result<Json<Vec<QueueEntry>>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.queue(&c).await?))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    room_id: i64,
    kind: QueueKind,
}

/// Take up an item of the queue; other administrators see the claim.
#[utoipa::path(post, path = "/api/v1/admin/queue/claim", tag = "admin", security(("session" = [])),
    request_body = ClaimBody, responses(
        (status = 200, description = "Claimed", body = QueueEntry),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, description = "`admin_only` or a cross-site request", body = ErrorBody),
        (status = 404, description = "`no_queue_item`", body = ErrorBody),
        (status = 409, description = "`claimed_by_other`", body = ErrorBody),
        (status = 413, response = openapi::TooLarge),
        (status = 415, response = openapi::NotJson),
        (status = 500, response = openapi::Fault),
))]
async fn claim(
    State(s): State<ApiState>,
    session: Session,
    Body(b): Body<ClaimBody>,
) -> Result<Json<QueueEntry>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.claim(&c, b.room_id, b.kind).await?))
}

/// The administrator's live queue (WebSocket): `{"type":"queue","items":[QueueEntry]}` at
/// once and after every change. Administrators only (refused before the upgrade).
#[utoipa::path(get, path = "/api/v1/admin/stream", tag = "admin", security(("session" = [])), responses(
    (status = 101, description = "Switching to the WebSocket protocol"),
    (status = 400, description = "`bad_request`: not a WebSocket handshake", body = ErrorBody),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only` or a cross-site handshake", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
async fn admin_stream(
    State(s): State<ApiState>,
    session: Session,
    headers: axum::http::HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let ws =
        ws.map_err(|e| AppError::BadRequest { why: format!("expected a WebSocket handshake: {}", e.body_text()) })?;
    crate::csrf::verdict(&headers).map_err(|why| AppError::CrossSiteRequest { why: why.into() })?;
    let c = caller(&s.db, &session).await?;
    let first = s.matches.queue(&c).await?;
    let mut changes = s.matches.queue_changes();
    let matches = s.matches.clone();
    // Asked again before every push: a sign-in ended, an account disabled or an
    // administrator made a player since the socket opened gets nothing more.
    let login = sessions::login_of(&session).await?.ok_or(AppError::NotSignedIn)?;
    let db = s.db.clone();
    Ok(ws.on_upgrade(move |mut socket| async move {
        let message = |items: &[QueueEntry]| {
            serde_json::to_string(&serde_json::json!({ "type": "queue", "items": items }))
                .map(|t| Message::Text(t.into()))
        };
        let mut items = first;
        loop {
            let Ok(m) = message(&items) else { return };
            if socket.send(m).await.is_err() {
                return;
            }
            loop {
                tokio::select! {
                    incoming = socket.recv() => match incoming {
                        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                        Some(Ok(_)) => {}
                    },
                    changed = changes.recv() => match changed {
                        Ok(()) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    }
                }
            }
            match db.user_by_login(&login).await {
                Ok(Some(u)) if u.role.is_admin() => {}
                _ => return,
            }
            match matches.queue(&c).await {
                Ok(now) => items = now,
                Err(_) => return,
            }
        }
    }))
}

/// What the administrator sees beside a room's board: every chain with its coordinates,
/// surface/interior stones and life-space candidates, the server's timeline (receipt times,
/// acknowledgements, both clocks), the room's open items. Administrators only.
#[utoipa::path(get, path = "/api/v1/admin/rooms/{id}/desk", tag = "admin", params(RoomId),
    security(("session" = [])), responses(
        (status = 200, description = "The referee's desk for this room", body = DeskView),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, description = "`admin_only`", body = ErrorBody),
        (status = 404, response = openapi::NoRoom),
        (status = 500, response = openapi::Fault),
))]
async fn desk(State(s): State<ApiState>, RoomId(id): RoomId, session: Session) -> Result<Json<DeskView>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.desk(&c, id).await?))
}

#[derive(Serialize, utoipa::ToSchema)]
struct NoticesView {
    items: Vec<Notice>,
    unread: i64,
}

/// The signed-in user's latest notifications (rulings and decisions in their games,
/// objections and corrections awaiting them, resume notices, claims; new queue items for
/// administrators), newest first, with the unread count.
#[utoipa::path(get, path = "/api/v1/notifications", tag = "session", security(("session" = [])), responses(
    (status = 200, description = "Notifications", body = NoticesView),
    (status = 401, response = openapi::NotSignedIn),
    (status = 500, response = openapi::Fault),
))]
async fn notifications(State(s): State<ApiState>, session: Session) -> Result<Json<NoticesView>, AppError> {
    let c = caller(&s.db, &session).await?;
    let (items, unread) = s.matches.notices(&c).await?;
    Ok(Json(NoticesView { items, unread }))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ReadBody {
    /// Mark read up to this notification's id (all when absent).
    #[serde(default)]
    up_to: Option<i64>,
}

/// Mark the signed-in user's notifications read.
#[utoipa::path(post, path = "/api/v1/notifications/read", tag = "session", security(("session" = [])),
    request_body = ReadBody, responses(
        (status = 204, description = "Marked read"),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, response = openapi::CrossSite),
        (status = 413, response = openapi::TooLarge),
        (status = 415, response = openapi::NotJson),
        (status = 500, response = openapi::Fault),
))]
async fn notifications_read(
    State(s): State<ApiState>,
    session: Session,
    Body(b): Body<ReadBody>,
) -> Result<StatusCode, AppError> {
    let c = caller(&s.db, &session).await?;
    s.matches.mark_read(&c, b.up_to).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Send one command to the room as the signed-in user; the answer lists the events it
/// caused. The room's actor decides what the caller may do.
#[utoipa::path(post, path = "/api/v1/rooms/{id}/commands", tag = "rooms", params(RoomId), request_body = Command,
    security(("session" = [])), responses(
        (status = 200, description = "Accepted", body = CommandReply),
        (status = 400, response = openapi::BadRequest),
        (status = 401, response = openapi::NotSignedIn),
        (status = 403, response = openapi::NotAllowed),
        (status = 404, response = openapi::NoRoom),
        (status = 409, response = openapi::NotNow),
        (status = 413, response = openapi::TooLarge),
        (status = 415, response = openapi::NotJson),
        (status = 422, response = openapi::AgainstTheRules),
        (status = 503, response = openapi::Elsewhere),
        (status = 500, response = openapi::Fault),
))]
async fn command(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    session: Session,
    Body(cmd): Body<Command>,
) -> Result<Json<CommandReply>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.command(id, c, cmd).await?))
}

/// The room's stored events after `after` (no secrets): part of the stored record, so only
/// for the players, administrators and viewers both players approved (003 §8.1); anyone
/// else, signed in or not, is refused with `record_not_allowed`. Live viewing is the stream.
#[utoipa::path(get, path = "/api/v1/rooms/{id}/events", tag = "rooms", params(RoomId, After),
    security((), ("session" = [])), responses(
        (status = 200, description = "The events after `after`, oldest first", body = Vec<StoredEvent>),
        (status = 400, response = openapi::BadRequest),
        (status = 403, response = openapi::NotAllowed),
        (status = 404, response = openapi::NoRoom),
        (status = 503, response = openapi::Elsewhere),
        (status = 500, response = openapi::Fault),
))]
async fn events(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    After(after): After,
    session: Session,
) -> Result<Json<Vec<StoredEvent>>, AppError> {
    let v = viewer(&s.db, &session).await?;
    Ok(Json(s.matches.events_after(id, v, after).await?))
}

/// Messages on the stream, server → client.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamMessage<'a> {
    /// The full state: sent when the client is too far behind for a gap.
    Snapshot { room: &'a app::matches::view::RoomView },
    Event {
        event: &'a StoredEvent,
        /// With the last event of a commit while anyone watches: the view's fields after it
        /// (a browser applies moves, acknowledgements, passes and illegal attempts itself).
        /// A spectator's stream, paced, sends them only with the last event of each write.
        #[serde(skip_serializing_if = "Option::is_none")]
        live: Option<&'a app::matches::live_view::LiveFields>,
    },
    /// The client fell too far behind the live stream; it should reconnect with its last seq.
    Lagged,
    /// The viewer may watch no longer (their viewing of this match was restricted, 003
    /// §6.5); the stream closes after this.
    Refused { error: app::error::ErrorBody },
}

/// The room's live events (WebSocket), each a JSON text message
/// `{"type":"event","event":StoredEvent,"live"?:LiveFields}` | `{"type":"snapshot","room":RoomView}` |
/// `{"type":"lagged"}` (reconnect with the last `seq`) | `{"type":"refused","error":ErrorBody}`;
/// with `?batch=true`, the events of a write come in messages
/// `{"type":"batch","messages":[event message, …]}` of up to about 4 KiB each (in order; a
/// lone event as itself). Live viewing is open to all, the
/// stored record is not (003 §8.1): the players, administrators and viewers both players
/// approved get exactly the stored events after `after` (a snapshot when that is too far
/// behind); anyone else gets a snapshot of the room as it is (after the end: the final board
/// and result), never earlier events, whatever `after` says. Then everyone gets every new
/// event: a player at once; a viewer who holds no seat the first event after a quiet spell at
/// once and, during a burst, everything committed meanwhile at most once per interval (the
/// server's `--spectator-pace-ms`, 250 ms by default, widened up to one second when many
/// watch), the view's fields (`live`) only with the last event of each write that has them.
/// Read-only: what viewers send is ignored (003 §6.4). A player's open stream is
/// their connection to the match (003 §6.1).
#[utoipa::path(get, path = "/api/v1/rooms/{id}/stream", tag = "rooms", params(RoomId, After, Batch),
    security((), ("session" = [])), responses(
    (status = 101, description = "Switching to the WebSocket protocol"),
    (status = 400, description = "`invalid_input` (`id`, `after`, `batch`) or `bad_request`: not a WebSocket handshake", body = ErrorBody),
    (status = 403, response = openapi::CrossSite),
    (status = 404, response = openapi::NoRoom),
    (status = 503, response = openapi::Elsewhere),
    (status = 500, response = openapi::Fault),
))]
async fn stream(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    After(after): After,
    Batch(batch): Batch,
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
    let follow = s.matches.follow(id, who.clone(), after).await?;
    let user_id = who.map(|v| v.user_id);
    let restrictions = Restrictions::of(&follow.view, user_id);
    // A player's events are never held.
    let pace = Pace::new(&s.spectator_pace, user_id, follow.seated);
    let live = follow.live;
    let start = match follow.gap {
        // The gap ends at the view, whose fields go with its last event (the page's turn and
        // clocks are then current). What was stored after the view comes from the live
        // stream, subscribed before the view was made, each commit with its own fields.
        Some(mut events) if events.len() <= MAX_GAP_EVENTS => {
            events.retain(|e| e.seq <= follow.view.version);
            Start::Gap { events, fields: Box::new(app::matches::live_view::LiveFields::from_view(&follow.view)) }
        }
        // Too far behind, or no access to the stored events (003 §8.1): the room as it is.
        _ => Start::Snapshot(Box::new(follow.view)),
    };
    let matches = s.matches.clone();
    // A small read buffer: viewers send nothing but control frames (at most 131 bytes), and
    // tungstenite allocates the buffer for every socket and zero-fills it on every read
    // (128 KiB by default: a quarter of the server's CPU with many spectators; 4 KiB → 1 KiB
    // is 3 KiB less per socket, measured with the load benchmark). It grows for more.
    let ws = ws.read_buffer_size(1024).write_buffer_size(CHUNK);
    Ok(ws.on_upgrade(move |socket| async move {
        // A player's open stream is their connection to the match (003 §6.1).
        matches.presence(id, user_id, true).await;
        pump(socket, start, live, restrictions, pace, batch).await;
        matches.presence(id, user_id, false).await;
    }))
}

/// What a stream sends before the live events: either brings the client to the view's version.
enum Start {
    /// The room as it is.
    Snapshot(Box<app::matches::view::RoomView>),
    /// The stored events the client lacks, up to the view's version, and the view's fields
    /// (their `version` is the view's).
    Gap { events: Vec<StoredEvent>, fields: Box<app::matches::live_view::LiveFields> },
}

/// The viewing restrictions of one viewer in one room (003 §6.5), followed event by event
/// so an open stream closes the moment one applies: when it is imposed, and when an appeal
/// that suspended it is decided against the viewer (003 §6.6).
struct Restrictions {
    viewer: Option<i64>,
    /// Every restriction naming the viewer, whatever its status, as of event `since`.
    numbers: Vec<u32>,
    since: i64,
}

impl Restrictions {
    fn of(view: &app::matches::view::RoomView, viewer: Option<i64>) -> Restrictions {
        let numbers = view
            .referee
            .sanctions
            .iter()
            .filter(|s| Self::names(&s.subject, s.penalty, viewer))
            .map(|s| s.number)
            .collect();
        Restrictions { viewer, numbers, since: view.version }
    }

    fn names(
        subject: &app::matches::conduct::Subject,
        penalty: app::matches::conduct::Penalty,
        viewer: Option<i64>,
    ) -> bool {
        use app::matches::conduct::{Penalty, Subject};
        matches!(subject, Subject::Spectator { user_id, .. } if Some(*user_id) == viewer)
            && penalty == Penalty::ViewingRestricted
    }

    /// The sanction number when `e` (after `since`) makes a restriction of the viewer apply.
    fn applied_by(&mut self, e: &StoredEvent) -> Option<u32> {
        use app::matches::events::Event;
        if e.seq <= self.since {
            return None;
        }
        match &e.event {
            Event::Sanctioned { number, subject, penalty, .. } if Self::names(subject, *penalty, self.viewer) => {
                self.numbers.push(*number);
                Some(*number)
            }
            Event::AppealDecided { number, upheld: true, .. } if self.numbers.contains(number) => Some(*number),
            _ => None,
        }
    }
}

/// Tells a viewer why their stream ends: a restriction of their viewing applies (003 §6.5).
async fn refuse(mut socket: WebSocket, sanction: u32) {
    let error = AppError::from(MatchError::ViewingRestricted { sanction }).body();
    if let Ok(t) = serde_json::to_string(&StreamMessage::Refused { error }) {
        let _ = socket.send(Message::Text(t.into())).await;
    }
}

/// Events a stream takes in one go: a burst waiting for a socket goes out together (in socket
/// writes of up to `CHUNK`) rather than one write per event, bounded so one busy room cannot
/// hold a socket's task for long (issue 15 §1).
const BURST: usize = 256;

/// How a stream goes on after a write.
enum Then {
    Follow,
    /// A restriction of this viewer's viewing applies (003 §6.5).
    Refuse(u32),
    /// The viewer fell too far behind: they reconnect with their last seq.
    Lagged,
    /// The room's broadcast ended.
    End,
}

type Published = std::sync::Arc<app::matches::published::Published>;
type Received = Result<Published, tokio::sync::broadcast::error::RecvError>;

/// One viewer's stream: where it is in the room's events, and what applies to the viewer.
struct Follower {
    live: tokio::sync::broadcast::Receiver<Published>,
    last: i64,
    restrictions: Restrictions,
    pace: Pace,
    /// The events of the write being made (kept to reuse its allocation).
    batch: Vec<Published>,
    /// The client reads a write of several events as one batch message (`?batch=true`).
    batched: bool,
}

impl Follower {
    /// The event to send (`None`: already sent, in the gap), or why the stream stops.
    fn step(&mut self, ev: Received) -> Result<Option<Published>, Then> {
        use tokio::sync::broadcast::error::RecvError;
        match ev {
            Ok(e) if e.seq <= self.last => Ok(None),
            Ok(e) => {
                self.last = e.seq;
                if let Some(sanction) = self.restrictions.applied_by(&e.stored) {
                    return Err(Then::Refuse(sanction));
                }
                self.pace.note(&e.stored);
                Ok(Some(e))
            }
            Err(RecvError::Lagged(_)) => Err(Then::Lagged),
            Err(RecvError::Closed) => Err(Then::End),
        }
    }

    /// Gathers `first` and the events already waiting (at most `BURST`) into `batch`.
    fn gather(&mut self, first: Received) -> Then {
        self.batch.clear();
        let mut ev = Some(first);
        while let Some(e) = ev {
            match self.step(e) {
                Ok(Some(e)) => self.batch.push(e),
                Ok(None) => {}
                Err(then) => return then,
            }
            if self.batch.len() >= BURST {
                break;
            }
            ev = self.waiting();
        }
        Then::Follow
    }

    /// The next event if one is already waiting, without waiting for one.
    fn waiting(&mut self) -> Option<Received> {
        use tokio::sync::broadcast::error::{RecvError, TryRecvError};
        match self.live.try_recv() {
            Ok(e) => Some(Ok(e)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Lagged(n)) => Some(Err(RecvError::Lagged(n))),
            Err(TryRecvError::Closed) => Some(Err(RecvError::Closed)),
        }
    }

    /// `e`'s wire text, made once for every socket of the room (issue 15 §1); without the
    /// view's fields when a later event in the same write brings them.
    fn text(e: &Published, with_live: bool) -> Option<axum::extract::ws::Utf8Bytes> {
        e.frame(with_live, |event, live| serde_json::to_string(&StreamMessage::Event { event, live }).ok())
    }

    /// The WebSocket messages of the write in `batch`: one per event, or, when the client
    /// reads batches, batch messages of up to `CHUNK` bytes holding them all. On a paced
    /// stream only the last event carries the view's fields: the browser applies the events
    /// in order and takes the last fields, and the fields are most of an event's text.
    fn messages(&self) -> Option<Vec<Message>> {
        // The last event that has them: a write may end inside a commit, before the event
        // that brings that commit's fields.
        let last = self.batch.iter().rposition(|e| e.live.is_some());
        let with_live = |i: usize| !self.pace.is_paced() || Some(i) == last;
        let texts = self.batch.iter().enumerate().map(|(i, e)| Follower::text(e, with_live(i)));
        if !self.batched || self.batch.len() < 2 {
            return texts.map(|t| t.map(Message::Text)).collect();
        }
        // The events' shared texts joined as they are: no event is serialised again.
        let texts = texts.collect::<Option<Vec<_>>>()?;
        let mut messages = Vec::new();
        let mut group: Vec<&str> = Vec::new();
        let mut size = BATCH_OPEN.len() + 2;
        for t in &texts {
            if !group.is_empty() && size + t.len() + 1 > CHUNK {
                messages.push(batch_message(&group, size));
                group.clear();
                size = BATCH_OPEN.len() + 2;
            }
            group.push(t.as_str());
            size += t.len() + 1;
        }
        messages.push(batch_message(&group, size));
        Some(messages)
    }
}

/// One message of a write: a lone event as itself, several as a batch.
fn batch_message(texts: &[&str], size: usize) -> Message {
    if let [one] = texts {
        return Message::Text((*one).into());
    }
    let mut joined = String::with_capacity(size);
    joined.push_str(BATCH_OPEN);
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            joined.push(',');
        }
        joined.push_str(t);
    }
    joined.push_str("]}");
    Message::Text(joined.into())
}

/// The most a stream puts in one socket write, as far as events allow: tungstenite keeps each
/// socket's write buffer at the size of the largest write it held, so a spectator's write of
/// a busy second of play would otherwise stay allocated for every socket (issue 15 §1's
/// memory). A batch message is cut to this size, and the stream writes out before a message
/// that would take what it holds past it; tungstenite writes out past it by itself (a gap).
/// Not bounded: a single larger message — the opening snapshot of a large board, or one
/// large event.
const CHUNK: usize = 4 * 1024 - 16;

/// Whether what the viewer sent ends the stream; anything else is ignored (read-only).
fn closed(incoming: Option<Result<Message, axum::Error>>) -> bool {
    matches!(incoming, None | Some(Err(_)) | Some(Ok(Message::Close(_))))
}

/// The opening of a batch message, `{"type":"batch","messages":[…]}`.
const BATCH_OPEN: &str = r#"{"type":"batch","messages":["#;

async fn pump(
    mut socket: WebSocket,
    start: Start,
    live: tokio::sync::broadcast::Receiver<Published>,
    restrictions: Restrictions,
    mut pace: Pace,
    batched: bool,
) {
    use futures_util::SinkExt;
    let send = |m: &StreamMessage| serde_json::to_string(m).map(|t| Message::Text(t.into()));
    // The client has everything up to the view's version after the snapshot or the gap
    // (before it, when it asked from later): the live stream goes on from there.
    let last = match &start {
        Start::Snapshot(room) => room.version,
        Start::Gap { fields, .. } => fields.version,
    };
    match &start {
        Start::Snapshot(room) => {
            if let Ok(m) = send(&StreamMessage::Snapshot { room }) {
                if socket.send(m).await.is_err() {
                    return;
                }
            }
        }
        // No restriction can apply in the gap: it ends at the view, which the restrictions
        // were read from (`Restrictions::since`).
        Start::Gap { events, fields } => {
            for e in events {
                pace.note(e);
                let live = Some(&**fields).filter(|f| f.version == e.seq);
                if let Ok(m) = send(&StreamMessage::Event { event: e, live }) {
                    if socket.feed(m).await.is_err() {
                        return;
                    }
                }
            }
            if socket.flush().await.is_err() {
                return;
            }
        }
    }
    // Sent: not held for the rest of the stream (a room's view per socket).
    drop(start);
    let mut f = Follower { live, last, restrictions, pace, batch: Vec::new(), batched };
    loop {
        // A paced viewer sleeps out its pace before it looks for events: what is committed
        // meanwhile waits in the room's broadcast and goes in one write. Its task is woken
        // once per write, by its timer, rather than by the next event and then its timer
        // (issue 15 §1: with thousands of spectators the wake-ups are much of the cost).
        if let Some(next) = f.pace.held_until(tokio::time::Instant::now()) {
            tokio::select! {
                incoming = socket.recv() => if closed(incoming) { return } else { continue },
                () = tokio::time::sleep_until(next) => {}
            }
        }
        let ev = match f.waiting() {
            Some(ev) => ev,
            None => {
                // Nothing waiting after the interval: no longer among the writing streams.
                f.pace.quiet();
                tokio::select! {
                    incoming = socket.recv() => if closed(incoming) { return } else { continue },
                    ev = f.live.recv() => ev,
                }
            }
        };
        let then = f.gather(ev);
        // The write, in socket writes of up to `CHUNK`.
        let Some(messages) = f.messages() else { return };
        let mut held = 0;
        for m in messages {
            let len = m.to_text().map_or(0, str::len);
            if held > 0 && held + len > CHUNK {
                if socket.flush().await.is_err() {
                    return;
                }
                held = 0;
            }
            held += len;
            if socket.feed(m).await.is_err() {
                return;
            }
        }
        match then {
            // Only already-sent events (the gap's): nothing written, nothing paced.
            Then::Follow if f.batch.is_empty() => {}
            Then::Follow => {
                if socket.flush().await.is_err() {
                    return;
                }
                f.pace.wrote(tokio::time::Instant::now(), f.batch.len() < BURST);
            }
            Then::Refuse(sanction) => {
                let _ = socket.flush().await;
                return refuse(socket, sanction).await;
            }
            Then::Lagged => {
                if let Ok(m) = send(&StreamMessage::Lagged) {
                    let _ = socket.send(m).await;
                }
                return;
            }
            Then::End => {
                let _ = socket.flush().await;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::matches::events::{Colour, Event, StoredEvent, Xyz};
    use app::matches::live_view::LiveFields;
    use app::matches::published::Published;

    /// The view's fields as the stream sends them (with the view's version `version`).
    fn fields(version: i64) -> LiveFields {
        let mut v: serde_json::Value = serde_json::from_str(
            r#"{"version":0,"server_time_ms":0,"phase":"playing","to_move":"white","move_number":1,
            "last_move":{"x":1,"y":1,"z":1},"captures":[0,0],"clocks":{"control":{"kind":"space_hours",
            "black":1,"white":1},"main_ms":[3599867,3599879],"periods_left":[0,0],"running":null,
            "turn_left_ms":null,"at_ms":0},"awaiting_ack":["white",1],"undos_used":[0,0],
            "scoring_requests":[null,null],"faults":[null,null],"illegal_attempts":0}"#,
        )
        .unwrap();
        v["version"] = version.into();
        serde_json::from_value(v).unwrap()
    }

    /// A paced spectator's write of `events` moves; `with_fields(seq)`: that event ends a commit.
    fn follower(batched: bool, events: usize, with_fields: impl Fn(i64) -> bool) -> Follower {
        let (_, live) = tokio::sync::broadcast::channel(4);
        let pace = Pace::new(&SpectatorPace::new(std::time::Duration::from_millis(250), 10_000), None, false);
        let restrictions = Restrictions { viewer: None, numbers: Vec::new(), since: 0 };
        let batch = (1..=events as i64)
            .map(|seq| {
                let at = Xyz { x: 3, y: 4, z: 5 };
                let event = Event::MovePlayed { colour: Colour::Black, at, move_number: seq as u32, captured: vec![] };
                let stored = StoredEvent { seq, at_ms: 1_764_900_000_000, actor: Some(7), event };
                Published::new(stored, with_fields(seq).then(|| fields(seq)))
            })
            .collect();
        Follower { live, last: 0, restrictions, pace, batch, batched }
    }

    /// Each message's events, in order.
    fn events(messages: Vec<Message>) -> Vec<Vec<serde_json::Value>> {
        messages
            .into_iter()
            .map(|m| {
                let text = m.into_text().unwrap();
                assert!(text.len() <= CHUNK, "a message of {} bytes, more than {CHUNK}", text.len());
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                match v["type"].as_str() {
                    Some("batch") => v["messages"].as_array().unwrap().clone(),
                    _ => vec![v],
                }
            })
            .collect()
    }

    #[test]
    fn a_large_write_comes_in_batch_messages_of_at_most_a_chunk_with_the_fields_once_at_its_end() {
        let messages = events(follower(true, 200, |_| true).messages().unwrap());
        assert!(messages.len() > 1, "200 events do not fit one chunk");
        assert!(messages[..messages.len() - 1].iter().all(|m| m.len() > 1), "batch messages but the last");
        let all: Vec<_> = messages.into_iter().flatten().collect();
        let seqs: Vec<i64> = all.iter().map(|e| e["event"]["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=200).collect::<Vec<_>>());
        let with: Vec<i64> =
            all.iter().filter(|e| !e["live"].is_null()).map(|e| e["live"]["version"].as_i64().unwrap()).collect();
        assert_eq!(with, vec![200], "only the write's last event carries the view's fields");
    }

    #[test]
    fn a_write_that_ends_inside_a_commit_keeps_the_fields_of_the_last_commit_it_holds() {
        // Commits end at even numbers; the write stops after event 7, before 8 brings its fields.
        let all: Vec<_> =
            events(follower(true, 7, |seq| seq % 2 == 0).messages().unwrap()).into_iter().flatten().collect();
        let with: Vec<i64> =
            all.iter().filter(|e| !e["live"].is_null()).map(|e| e["event"]["seq"].as_i64().unwrap()).collect();
        assert_eq!(with, vec![6]);
    }

    #[test]
    fn a_client_that_reads_no_batches_gets_one_message_per_event_and_a_lone_leftover_is_itself() {
        let messages = events(follower(false, 30, |_| true).messages().unwrap());
        assert_eq!(messages.len(), 30);
        assert_eq!(
            (messages[29][0]["type"].as_str(), messages[29][0]["event"]["seq"].as_i64()),
            (Some("event"), Some(30))
        );
        // As many events as one chunk holds, and one more: a batch, then that event as itself.
        let full = events(follower(true, 200, |_| false).messages().unwrap())[0].len();
        let f = follower(true, full + 1, |_| false);
        let messages =
            f.messages().unwrap().into_iter().map(|m| m.into_text().unwrap().to_string()).collect::<Vec<_>>();
        assert_eq!(messages.len(), 2);
        assert!(messages[0].starts_with(BATCH_OPEN));
        assert!(messages[1].starts_with(r#"{"type":"event""#), "{}", messages[1]);
    }
}
