//! Server functions for the referee's console and everyone's notifications: the same
//! domain layer (`MatchService`) as the participant API's `/api/v1/admin/*` and
//! `/api/v1/notifications`. Each is a public endpoint that authorises itself on the server.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;

use wire::{
    referee::{Notice, QueueEntry, QueueKind},
    view::DeskView,
};

#[cfg(feature = "ssr")]
use super::play::{service, signed_in, viewer};

/// The administrator's queue, oldest first (administrators only).
#[server(endpoint = "admin_queue")]
pub async fn admin_queue() -> Result<Vec<QueueEntry>, AppError> {
    service()?.queue(&signed_in().await?).await
}

/// Take up an item of the queue (administrators only).
#[server(endpoint = "claim_item", input = server_fn::codec::Json)]
pub async fn claim_item(room_id: i64, kind: QueueKind) -> Result<QueueEntry, AppError> {
    service()?.claim(&signed_in().await?, room_id, kind).await
}

/// What the administrator sees beside a room's board (administrators only).
#[server(endpoint = "admin_desk", input = server_fn::codec::Json)]
pub async fn admin_desk(room_id: i64) -> Result<DeskView, AppError> {
    service()?.desk(&signed_in().await?, room_id).await
}

/// The signed-in user's notifications and unread count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notices {
    pub items: Vec<Notice>,
    pub unread: i64,
}

/// The signed-in user's latest notifications; nobody signed in: none.
#[server(endpoint = "my_notices")]
pub async fn my_notices() -> Result<Notices, AppError> {
    let Some(me) = viewer().await? else {
        return Ok(Notices { items: Vec::new(), unread: 0 });
    };
    let (items, unread) = service()?.notices(&me).await?;
    Ok(Notices { items, unread })
}

/// What the header's badges show: the unread count, and for administrators the queue's
/// length; nobody signed in: `None`. Two numbers in one answer, so the header on every
/// page neither fetches the lists nor carries the code that decodes them (that code loads
/// with the notifications and referee pages instead).
#[server(endpoint = "header_badges")]
pub async fn header_badges() -> Result<Option<BadgeCounts>, AppError> {
    let Some(me) = viewer().await? else {
        return Ok(None);
    };
    // The count alone (one COUNT query), not the latest notices as well.
    let unread = service()?.unread_notices(&me).await?;
    let queue = if me.is_admin() { Some(service()?.queue(&me).await?.len()) } else { None };
    Ok(Some(BadgeCounts { unread, queue }))
}

/// The header's two numbers (`header_badges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadgeCounts {
    pub unread: i64,
    /// The queue's length, for administrators only.
    pub queue: Option<usize>,
}

/// Marks the signed-in user's notifications read up to `up_to` (all when `None`).
#[server(endpoint = "mark_notices_read", input = server_fn::codec::Json)]
pub async fn mark_notices_read(up_to: Option<i64>) -> Result<(), AppError> {
    service()?.mark_read(&signed_in().await?, up_to).await
}
