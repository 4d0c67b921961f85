//! The participant API, version 1: HTTP JSON + a WebSocket event stream, for programs and
//! for the browser alike. A thin adapter over `app::matches::service::MatchService`.
//!
//! Sign-in uses the same server-side session as the web pages (cookie `sb_session`). Each
//! handler's `#[utoipa::path]` is its entry in the OpenAPI document (`/api/openapi.json`),
//! registered together with its route, so the two cannot drift apart.
//!
//! Per request and per socket, little: the handlers' state is one reference-counted value
//! (`ApiState`; axum clones it for every request), and a room stream (`stream`, then `pump`),
//! of which thousands may be open, gets a 1 KiB read buffer (viewers send only control
//! frames), a write buffer of `CHUNK`, and the futures that tell the room a viewer came and
//! went boxed, not part of the socket's task for its whole life (figures:
//! docs/performance.md, "Server memory").

mod admin;
mod audit;
mod extract;
mod models;
mod openapi;
mod pace;
mod programs;
mod pump;
mod rules;

use std::{net::SocketAddr, sync::Arc};

use app::{
    api::UserView,
    data::{sessions, Db, SignInThrottle},
    matches::{record::RoomRecord, service::MatchService},
    AppError, ErrorBody,
};
use axum::{
    extract::{
        ws::{rejection::WebSocketUpgradeRejection, Message, WebSocketUpgrade},
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
use wire::{
    commands::{Command, CommandReply, CreatedRoom, MatchError, Requester},
    events::StoredEvent,
    referee::{Notice, QueueEntry, QueueKind},
    settings::MatchSettings,
    view::{DeskView, RoomView},
};

pub use extract::{After, Batch, Body, RoomId};
pub use openapi::openapi;
use pace::Pace;
pub use pace::SpectatorPace;
use pump::{pump, Restrictions, Start, CHUNK};

/// Requests larger than this are refused before parsing.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// A reconnecting viewer further behind than this gets a full state instead of the gap.
pub const MAX_GAP_EVENTS: usize = 2_000;

/// What every API handler shares, behind one reference count: axum clones the state for
/// each request, more than once, and cloning the fields one by one was a dozen atomic
/// counts and an allocation each time, CPU spent on every command.
#[derive(Clone)]
pub struct ApiState(Arc<Shared>);

impl ApiState {
    pub fn new(shared: Shared) -> ApiState {
        ApiState(Arc::new(shared))
    }
}

impl std::ops::Deref for ApiState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The handlers' shared state (see [`ApiState`]).
pub struct Shared {
    pub db: Db,
    pub matches: MatchService,
    pub throttle: Arc<SignInThrottle>,
    /// Where the site is served from (the participant program's WASM sits beside it).
    pub site_root: std::path::PathBuf,
    /// How often unseated viewers' streams write during a burst (`Config::spectator_pace_ms`,
    /// widened by `Config::spectator_writes_per_s`).
    pub spectator_pace: Arc<SpectatorPace>,
}

/// Every route of the participant API with its methods, as docs/api.md lists them. The
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
        .routes(routes!(admin::attention))
        .routes(routes!(admin::queue))
        .routes(routes!(admin::claim))
        .routes(routes!(admin::admin_stream))
        .routes(routes!(admin::desk))
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

/// A WebSocket handshake, refused when it is not one (400) or when another site's page started
/// it (403): WebSockets are not bound by CORS.
fn same_site_upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    headers: &axum::http::HeaderMap,
) -> Result<WebSocketUpgrade, AppError> {
    let ws =
        ws.map_err(|e| AppError::BadRequest { why: format!("expected a WebSocket handshake: {}", e.body_text()) })?;
    crate::csrf::verdict(headers).map_err(|why| AppError::CrossSiteRequest { why: why.into() })?;
    Ok(ws)
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
    settings.colours = wire::settings::ColourAssignment::HostBlack;
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

/// The room's live events (WebSocket), each a JSON text message
/// `{"type":"event","event":StoredEvent,"live"?:LiveFields}` | `{"type":"snapshot","room":RoomView}` |
/// `{"type":"lagged"}` (reconnect with the last `seq`) | `{"type":"refused","error":ErrorBody}`;
/// with `?batch=true`, the events of a write come in messages
/// `{"type":"batch","messages":[event message, …]}` of up to about 4 KiB each (in order; a
/// lone event as itself); with `?batch=packed`, in packed messages of up to about 4 KiB,
/// `{"type":"packed","seq":S,"n":N,"at_ms":T,"events":[[dt,actor,kind,…],…],"live_seq"?:K,
/// "live"?:LiveFields}` — events S to S+N−1, the first at T (its own `dt` is to be ignored)
/// and each later one `dt` ms after the one before; kind 0 `[dt,actor,0,Event]`, 1 a move
/// `[dt,actor,1,colour,x,y,z,move_number,captured x,y,z…]`, 2 an acknowledgement and 3 a
/// pass `[dt,actor,k,colour,move_number]`, colour 0 Black, 1 White; the view's fields as of
/// event K, once per message (the latest it holds, for a player too). Live viewing is open
/// to all, the stored record is not (003 §8.1): the players, administrators and viewers both players
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
    Batch(framing): Batch,
    session: Session,
    headers: axum::http::HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let ws = same_site_upgrade(ws, &headers)?;
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
            Start::Gap { events, fields: Box::new(wire::live_view::LiveFields::from_view(&follow.view)) }
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
        // A player's open stream is their connection to the match (003 §6.1). Boxed: telling
        // the room (and perhaps another instance) takes a future of several KiB, which would
        // otherwise be part of this task's memory for as long as the socket is open.
        Box::pin(matches.presence(id, user_id, true)).await;
        pump(socket, start, live, restrictions, pace, framing).await;
        Box::pin(matches.presence(id, user_id, false)).await;
    }))
}
