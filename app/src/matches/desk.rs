//! The referee's desk on the server: after every stored change a room's actor tells the
//! desk, which keeps the administrator's queue in step with the room (the items are the
//! room's own, `MatchState::queue_items`), writes the notifications the change calls for,
//! and wakes every administrator's live stream. Also builds what an administrator sees
//! beside a room's board: its chains in detail and the server's timeline.

use tokio::sync::broadcast;

use wire::{
    events::{Colour, Event, StoredEvent},
    referee::{ChainDetail, NoticeKind, QueueKind, RoomItem, SpaceDetail, TimelineEntry},
};

use crate::data::Db;
use room::MatchState;

#[derive(Clone)]
pub struct Desk {
    db: Db,
    changed: broadcast::Sender<()>,
}

impl Desk {
    pub fn new(db: Db) -> Desk {
        let (changed, _) = broadcast::channel(64);
        Desk { db, changed }
    }

    /// Woken whenever the queue may have changed (administrators' live streams).
    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.changed.subscribe()
    }

    /// The queue may have changed: the administrators' streams on every instance read it
    /// again (here at once; elsewhere when the doorbell rings, PostgreSQL only).
    pub async fn wake(&self) {
        self.wake_here();
        self.db.ring_queue().await;
    }

    /// Wakes this instance's administrators' streams only (the doorbell rang).
    pub fn wake_here(&self) {
        let _ = self.changed.send(());
    }

    /// Brings the queue of `room_id` to `items` and notifies who the `events` concern.
    /// Failures are logged: the room's own log is already stored and is the truth. Returns
    /// whether the queue now holds `items`; when not, the actor offers them again at its next
    /// change (and every room offers its items at start).
    pub(crate) async fn after_commit(
        &self,
        room_id: i64,
        state: &MatchState,
        items: &[RoomItem],
        items_changed: bool,
        events: &[StoredEvent],
        now: i64,
    ) -> bool {
        let mut queue_stored = true;
        if items_changed {
            match self.db.sync_queue(room_id, items).await {
                Ok(new) => {
                    if !new.is_empty() {
                        if let Ok(admins) = self.db.admin_ids().await {
                            for kind in new {
                                let _ = self
                                    .db
                                    .notify(&admins, Some(room_id), NoticeKind::NewQueueItem, Some(kind.as_str()), now)
                                    .await;
                            }
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(room_id, error = %e, "queue not updated");
                    queue_stored = false;
                }
            }
            self.wake().await;
        }
        let mut players: Vec<i64> =
            [Colour::Black, Colour::White].into_iter().filter_map(|c| state.account_of(c)).collect();
        // One device: one account for both colours, told once.
        players.dedup();
        let mut sent: Vec<(NoticeKind, Vec<i64>)> = Vec::new();
        for e in events {
            // The sanctioned person (a spectator too) hears of it, and of their appeal.
            let subject = |number: u32| {
                let s = state.referee.sanctions.iter().find(|s| s.number == number)?;
                state.sanction_subject_account(s)
            };
            // The notice carries the reasons itself (003 §6.6: notified with the reasons).
            let conduct = match &e.event {
                Event::Sanctioned { number, reasons, .. } => {
                    Some((NoticeKind::Sanctioned, subject(*number), Some(reasons)))
                }
                Event::AppealFiled { number, .. } => Some((NoticeKind::AppealReceived, subject(*number), None)),
                Event::AppealExceptionOpened { number, reasons } => {
                    Some((NoticeKind::AppealOpened, subject(*number), Some(reasons)))
                }
                Event::AppealDecided { number, reasons, .. } => {
                    Some((NoticeKind::AppealDecided, subject(*number), Some(reasons)))
                }
                _ => None,
            };
            if let Some((kind, to, reasons)) = conduct {
                let to: Vec<i64> = to.into_iter().collect();
                if let Err(err) = self.db.notify(&to, Some(room_id), kind, reasons.map(String::as_str), now).await {
                    tracing::error!(room_id, error = %err, "notification not stored");
                }
                continue;
            }
            let (kind, to) = match &e.event {
                Event::Ruling { .. } => (NoticeKind::Ruling, players.clone()),
                Event::RulingConfirmed { .. }
                | Event::Decided { .. }
                | Event::StatementConfirmed { .. }
                | Event::TimeLossDecided { cancelled: false, .. }
                | Event::CorrectionApplied { .. }
                | Event::CorrectionClosed { .. } => (NoticeKind::Decision, players.clone()),
                Event::RulingObjected { colour, .. } => {
                    let other = state.account_of(room::opponent(*colour));
                    (NoticeKind::Objection, other.into_iter().collect())
                }
                Event::CorrectionProposed { .. } => (NoticeKind::CorrectionAwaitsConsent, players.clone()),
                // Play waits for both players' Ready (003 §1.6, §6.3).
                Event::Resumed { .. }
                | Event::TimeLossDecided { cancelled: true, .. }
                | Event::RecordRepaired { .. } => (NoticeKind::ResumeNotice, players.clone()),
                _ => continue,
            };
            if sent.iter().any(|(k, _)| *k == kind) {
                continue;
            }
            if let Err(err) = self.db.notify(&to, Some(room_id), kind, None, now).await {
                tracing::error!(room_id, error = %err, "notification not stored");
            }
            sent.push((kind, to));
        }
        queue_stored
    }

    /// The players of a room are told that `admin` took up its item.
    pub(crate) async fn claimed(&self, room_id: i64, players: &[i64], admin: &str, now: i64) {
        if let Err(e) = self.db.notify(players, Some(room_id), NoticeKind::ItemClaimed, Some(admin), now).await {
            tracing::error!(room_id, error = %e, "notification not stored");
        }
        self.wake().await;
    }
}

/// The chains of the board, marked ones and those with an opinion first (at most 200).
pub(crate) fn chains(state: &MatchState) -> Vec<ChainDetail> {
    let game = &state.game;
    let g = game.geometry();
    let (w, h, d) = g.dims();
    let an = engine::analysis::Analysis::new(game.board());
    let marks = state.scoring().map(|s| s.marks.clone()).unwrap_or_default();
    let on_surface = |p: engine::Point| {
        let Some((x, y, z)) = g.offsets_of(p) else { return false };
        let edge = |i: usize, n: usize| n > 1 && (i == 0 || i + 1 == n);
        edge(x, w) || edge(y, h) || edge(z, d)
    };
    let mut out: Vec<(bool, ChainDetail)> = an
        .chains
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let xyz = |p: engine::Point| state.xyz(p);
            let surface = c.stones.iter().filter(|p| on_surface(**p)).count() as u32;
            let mark = marks.iter().find_map(|m| {
                let p = g.index_of(m.at.x, m.at.y, m.at.z)?;
                c.stones.contains(&p).then_some(m.kind)
            });
            let at = c.stones.first().map(|p| xyz(*p)).unwrap_or(wire::events::Xyz { x: 0, y: 0, z: 0 });
            let opined = state.referee.opinions.iter().any(|o| o.chain == at);
            let detail = ChainDetail {
                at,
                colour: c.color,
                stones: c.stones.iter().map(|p| xyz(*p)).collect(),
                count: c.stones.len() as u32,
                surface_stones: surface,
                interior_stones: c.stones.len() as u32 - surface,
                liberties: c.liberties.len() as u32,
                life_spaces: an
                    .life_spaces(i)
                    .spaces
                    .iter()
                    .map(|s| SpaceDetail { points: s.points.iter().map(|p| xyz(*p)).collect(), count: s.count as u32 })
                    .collect(),
                mark,
            };
            (mark.is_some() || opined, detail)
        })
        .collect();
    out.sort_by_key(|(first, _)| !*first);
    out.into_iter().take(200).map(|(_, d)| d).collect()
}

/// The server's timeline of the latest events (at most 300): receipt time, actor, both
/// clocks right after each — replayed from the log, so it is what the server recorded.
pub(crate) fn timeline(log: &[StoredEvent], secrets: wire::events::RoomSecrets) -> Vec<TimelineEntry> {
    let mut out = Vec::new();
    let Some(first) = log.first() else { return out };
    let Ok(mut state) = MatchState::replay(std::slice::from_ref(first), secrets) else { return out };
    for e in &log[1..] {
        if state.apply(&e.event, e.at_ms).is_err() {
            break;
        }
        let clocks = state.clocks.snapshot(e.at_ms);
        out.push(TimelineEntry {
            seq: e.seq,
            at_ms: e.at_ms,
            actor: e.actor,
            kind: e.event.kind().to_string(),
            move_number: state.game.move_number(),
            clocks_ms: clocks.main_ms,
            running: clocks.running,
        });
    }
    let skip = out.len().saturating_sub(300);
    out.split_off(skip)
}

/// Whether an item of `kind` is one the room's players raised (they hear of its claim).
pub fn raised_by_players(kind: QueueKind) -> bool {
    matches!(
        kind,
        QueueKind::ScoringDispute
            | QueueKind::PlayerCall
            | QueueKind::TimeLossObjection
            | QueueKind::CorrectionRequest
            | QueueKind::RulingObjection
            | QueueKind::AwaitingReview
    )
}
