//! Storing a decision: the events committed before anyone sees them, then published once
//! and told to the desk.

use super::*;

impl super::Actor {
    /// Stores a handled command's events (already applied) and makes the caller's answer.
    pub(super) async fn decided(
        &mut self,
        caller: i64,
        decision: Decision,
        now: i64,
        before: Option<room::Standing>,
    ) -> Result<CommandReply, MatchError> {
        let version = self.state.version;
        if decision.events.is_empty() {
            return decision.outcome.map(|()| CommandReply { version, events: Vec::new() });
        }
        // Not stored (fenced, or a failed write), so not acknowledged: the commit's error.
        let stored = self.commit_as(decision.events, Some(caller), now, before.as_ref()).await?;
        decision.outcome.map(|()| CommandReply { version: self.state.version, events: stored })
    }

    /// Stores events already applied to the state, then publishes them. On a failed write
    /// the in-memory change is dropped by rebuilding from the log.
    pub(super) async fn commit(
        &mut self,
        events: Vec<Event>,
        actor: Option<i64>,
        now: i64,
    ) -> Result<Vec<StoredEvent>, MatchError> {
        self.commit_as(events, actor, now, None).await
    }

    /// `commit`, with where the room stood before a command (an administrator's action is
    /// logged with it).
    pub(super) async fn commit_as(
        &mut self,
        events: Vec<Event>,
        actor: Option<i64>,
        now: i64,
        before: Option<&room::Standing>,
    ) -> Result<Vec<StoredEvent>, MatchError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let Some(lease) = self.lease else {
            // A follower never handles what makes events; if it did, its state is not the log's.
            self.state.poisoned = true;
            return Err(MatchError::ServedElsewhere { retry_after_s: 1 });
        };
        let version = self.state.version;
        let listing = self.state.listing();
        let update = (self.listed.as_ref() != Some(&listing)).then(|| crate::data::room_log::ListingUpdate {
            listing: &listing,
            players_changed: self.listed.as_ref().is_none_or(|l| l.players != listing.players),
        });
        let before = before.and_then(|b| serde_json::to_value(b).ok());
        let cause = crate::data::room_log::Cause { actor, before: before.as_ref() };
        match self.db.append_events(lease, version, now, cause, events, update).await {
            Ok(stored) => {
                self.listed = Some(listing);
                if let Some(last) = stored.last() {
                    self.state.version = last.seq;
                }
                // The view's changed fields ride with the last event, for browsers to apply.
                self.publish(&stored, now);
                self.tell_desk(&stored, now).await;
                Ok(stored)
            }
            // Fenced: another instance owns the room now; this actor's state is not the
            // log's and it may not write, so it stops (the service asks the new owner).
            Err(crate::AppError::Match(e @ MatchError::ServedElsewhere { .. })) => {
                self.lost = true;
                Err(e)
            }
            Err(e) => {
                if self.reload().await.is_err() {
                    // Neither stored nor rebuilt: the in-memory state is not the log's, so
                    // the run loop stops this actor (the next request starts a fresh one).
                    self.state.poisoned = true;
                    self.shared_view = None;
                }
                Err(crate::matches::from_app(e))
            }
        }
    }

    /// Gives the desk what changed: the queue items when they differ, and the events for
    /// notifications. Rare work (only items and rulings write), after the commit.
    pub(super) async fn tell_desk(&mut self, stored: &[StoredEvent], now: i64) {
        let items = self.state.queue_items();
        // At start a room without items has nothing to tell (no write per room loaded).
        let changed = match &self.items {
            None => !items.is_empty(),
            Some(before) => *before != items,
        };
        let notable = stored.iter().any(|e| {
            matches!(
                e.event,
                Event::Ruling { .. }
                    | Event::RulingConfirmed { .. }
                    | Event::Decided { .. }
                    | Event::StatementConfirmed { .. }
                    | Event::TimeLossDecided { .. }
                    | Event::CorrectionApplied { .. }
                    | Event::CorrectionClosed { .. }
                    | Event::RulingObjected { .. }
                    | Event::CorrectionProposed { .. }
                    | Event::Resumed { .. }
                    | Event::RecordRepaired { .. }
                    | Event::Sanctioned { .. }
                    | Event::AppealExceptionOpened { .. }
                    | Event::AppealDecided { .. }
            )
        });
        let stored_queue = !(changed || notable)
            || self.desk.after_commit(self.room_id, &self.state, &items, changed, stored, now).await;
        if stored_queue {
            self.items = Some(items);
        }
    }
}
