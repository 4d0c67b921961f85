//! The administrators' routes (003 §1.4–1.6, §2.7, §3.6, §10.2): the rooms needing them, the
//! queue with its claims and its live stream, and the referee's desk beside a room. Each
//! refuses anyone but an administrator.

use super::*;

/// Rooms held or with an outstanding notice (003 §1.6, §3.6, §6.1): administrators only.
#[utoipa::path(get, path = "/api/v1/admin/attention", tag = "admin", security(("session" = [])), responses(
    (status = 200, description = "Rooms needing the administrator", body = Vec<RoomView>),
    (status = 401, response = openapi::NotSignedIn),
    (status = 403, description = "`admin_only`", body = ErrorBody),
    (status = 500, response = openapi::Fault),
))]
pub(super) async fn attention(State(s): State<ApiState>, session: Session) -> Result<Json<Vec<RoomView>>, AppError> {
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
pub(super) async fn queue(State(s): State<ApiState>, session: Session) -> Result<Json<Vec<QueueEntry>>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.queue(&c).await?))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ClaimBody {
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
pub(super) async fn claim(
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
pub(super) async fn admin_stream(
    State(s): State<ApiState>,
    session: Session,
    headers: axum::http::HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let ws = same_site_upgrade(ws, &headers)?;
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
pub(super) async fn desk(
    State(s): State<ApiState>,
    RoomId(id): RoomId,
    session: Session,
) -> Result<Json<DeskView>, AppError> {
    let c = caller(&s.db, &session).await?;
    Ok(Json(s.matches.desk(&c, id).await?))
}
