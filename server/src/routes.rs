//! The HTTP surface: health check, Leptos pages and server functions, static files.
//!
//! Sessions are read from memory (`session_cache`) and written through to the database's
//! store. `/healthz` answers 200 while the database does and counts the rooms in memory.
//! `/internal/v1/rooms/{id}/commands` runs a command another instance forwarded to this one,
//! the room's owner (only with this instance's peer key). Every request passes the CSRF guard
//! (`csrf`).

use std::sync::Arc;

use app::{
    data::{Db, SignInThrottle},
    matches::service::MatchService,
    shell, App,
};
use axum::{
    body::Bytes,
    http::{HeaderMap, StatusCode},
    middleware,
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use leptos::{config::LeptosOptions, prelude::provide_context};
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::compression::CompressionLayer;
use tower_sessions::{cookie::SameSite, session_store::CachingSessionStore, Expiry, SessionManagerLayer};

use crate::{api::MAX_BODY_BYTES, Config, StartError};

pub async fn router(
    options: LeptosOptions,
    db: Db,
    throttle: Arc<SignInThrottle>,
    matches: MatchService,
    config: &Config,
) -> Result<Router, StartError> {
    let store = crate::session_cache::DbSessionStore::new(db.pool()).await?;
    store.delete_expired_hourly();
    // Sessions are read from memory; every change is written to the store too.
    let cached = CachingSessionStore::new(crate::session_cache::SessionCache::default(), store);
    let sessions = SessionManagerLayer::new(cached)
        .with_name("sb_session")
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(config.secure_cookies)
        // Idle sessions expire with their logins (`app::data::logins`: the same limit).
        .with_expiry(Expiry::OnInactivity(tower_sessions::cookie::time::Duration::milliseconds(
            app::data::logins::IDLE_MS,
        )));

    let routes = generate_route_list(App);
    let context_db = db.clone();
    let health_db = db.clone();
    let health_matches = matches.clone();
    let peer_matches = matches.clone();
    let api = crate::api::router(crate::api::ApiState::new(crate::api::Shared {
        db: db.clone(),
        matches: matches.clone(),
        throttle: throttle.clone(),
        site_root: config.site_root.clone(),
        spectator_pace: crate::api::SpectatorPace::new(
            std::time::Duration::from_millis(config.spectator_pace_ms),
            config.spectator_writes_per_s,
        ),
    }));
    // Pages and server functions; the participant API is merged in below.
    let pages = Router::new()
        .leptos_routes_with_context(
            &options,
            routes,
            {
                let (throttle, matches) = (throttle.clone(), matches.clone());
                move || {
                    provide_context(context_db.clone());
                    provide_context(throttle.clone());
                    provide_context(matches.clone());
                }
            },
            {
                let options = options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(options)
        .layer(middleware::from_fn(crate::middleware::server_fn_status))
        .layer(middleware::from_fn(|req, next| crate::middleware::limit_body(MAX_BODY_BYTES, req, next)));
    let router = Router::new()
        .route("/healthz", get(move || healthz(health_db.clone(), health_matches.clone())))
        .route(
            "/internal/v1/rooms/{id}/commands",
            post(move |id: crate::api::RoomId, headers: HeaderMap, body: Bytes| {
                forwarded_command(peer_matches.clone(), id, headers, body)
            }),
        )
        .route("/i18n/{name}", get(crate::assets::catalogue_file))
        // The bundle's compressed copies (scripts/bundle/precompress.sh); before the pages' fallback.
        .nest_service("/pkg", crate::assets::pkg_service(&config.site_root))
        .merge(pages)
        .merge(api)
        .layer(sessions)
        .layer(middleware::from_fn(crate::csrf::guard))
        .layer(middleware::from_fn(crate::middleware::correlate))
        .layer(CompressionLayer::new());
    Ok(router)
}

/// `GET /healthz`: 200 when the database answers, 503 otherwise.
async fn healthz(db: Db, matches: MatchService) -> impl IntoResponse {
    let ok = db.healthy().await;
    let body = Json(serde_json::json!({
        "status": if ok { "ok" } else { "unavailable" },
        "version": env!("CARGO_PKG_VERSION"),
        "database": ok,
        // Idle rooms give theirs back: the figure to watch for memory.
        "rooms_in_memory": matches.rooms_in_memory().await,
    }));
    (if ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE }, body)
}

/// `POST /internal/v1/rooms/{id}/commands`: a command another instance forwarded to this one,
/// the room's owner. Only an instance that read this one's peer key from the database can send
/// one (anyone else: 403, before the body is read); it runs here and is never forwarded again.
/// The answer is `{"Ok": reply}` (`null` for a presence) or `{"Err": error}`.
async fn forwarded_command(
    matches: MatchService,
    crate::api::RoomId(id): crate::api::RoomId,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let key = headers.get(app::matches::service::PEER_KEY_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !matches.is_peer_key(key) {
        return app::AppError::Forbidden.into_response();
    }
    let forwarded: app::matches::service::Forwarded = match serde_json::from_slice(&body) {
        Ok(f) => f,
        Err(e) if e.is_syntax() || e.is_eof() => {
            return app::AppError::MalformedJson { why: e.to_string() }.into_response()
        }
        Err(e) => return app::AppError::InvalidJson { why: e.to_string() }.into_response(),
    };
    Json(matches.forwarded(id, forwarded).await).into_response()
}
