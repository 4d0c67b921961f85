//! The administrators' queue and desk and everyone's notices, as the service offers them
//! (each refuses a caller who is not an administrator where it must).

use tokio::sync::{broadcast, oneshot};

use super::MatchService;
use crate::{matches::actor::Request, AppError};
use room::{MatchError, Requester};
use wire::{
    referee::{Notice, QueueEntry, QueueKind},
    view::DeskView,
};

impl MatchService {
    /// The administrator's queue, oldest first (administrators only).
    pub async fn queue(&self, who: &Requester) -> Result<Vec<QueueEntry>, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        self.db.queue().await
    }

    /// Woken when the queue may have changed (the administrator's live stream).
    pub fn queue_changes(&self) -> broadcast::Receiver<()> {
        self.desk.subscribe()
    }

    /// An administrator takes up an item; the room's players are told who (003 §1.5).
    pub async fn claim(&self, who: &Requester, room_id: i64, kind: QueueKind) -> Result<QueueEntry, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        match self.db.claim(room_id, kind, who.user_id, self.clock.now_ms()).await? {
            crate::data::desk::ClaimOutcome::Claimed(entry) => {
                if crate::matches::desk::raised_by_players(kind) {
                    // The room knows its players by id: no view to build, no names to look up.
                    let ids = self.players(room_id).await?;
                    self.desk.claimed(room_id, &ids, &who.username, self.clock.now_ms()).await;
                } else {
                    self.desk.wake().await;
                }
                Ok(entry)
            }
            crate::data::desk::ClaimOutcome::NoSuchItem => Err(AppError::NoQueueItem { room_id, kind }),
            crate::data::desk::ClaimOutcome::TakenBy(by) => Err(AppError::ClaimedByOther { by }),
        }
    }

    /// What the administrator sees beside a room's board (administrators only): the room,
    /// its chains in detail, the server's timeline and its open items.
    pub async fn desk(&self, who: &Requester, room_id: i64) -> Result<DeskView, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Desk { reply }).await?;
        let (chains, room) = rx.await.map_err(|_| MatchError::Internal)?;
        let timeline = match self.db.load_log_checked(room_id).await? {
            Some(log) => crate::matches::desk::timeline(&log.events, log.secrets),
            None => Vec::new(),
        };
        let items = self.db.queue().await?.into_iter().filter(|e| e.room_id == room_id).collect();
        Ok(DeskView { room, chains, timeline, items })
    }

    /// The signed-in user's latest notifications and how many are unread.
    pub async fn notices(&self, who: &Requester) -> Result<(Vec<Notice>, i64), AppError> {
        Ok((self.db.notices(who.user_id, 50).await?, self.unread_notices(who).await?))
    }

    /// How many of `who`'s notifications are unread (the header's bell).
    pub async fn unread_notices(&self, who: &Requester) -> Result<i64, AppError> {
        self.db.unread_notices(who.user_id).await
    }

    pub async fn mark_read(&self, who: &Requester, up_to: Option<i64>) -> Result<(), AppError> {
        self.db.mark_read(who.user_id, up_to, self.clock.now_ms()).await
    }
}
