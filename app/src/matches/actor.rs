//! One sequential task per live room (lichess' round actor): it owns the room's state, so
//! commands are handled strictly in the order the server received them. Each accepted
//! command's events are committed to the database before the caller gets an answer and
//! before any viewer sees them.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::{
    events::StoredEvent,
    state::{Caller, Command, MatchError, MatchState},
    view::RoomView,
};
use crate::{clock::Clock, data::Db};

/// Answer to an accepted command: the room's new version and the events it produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandReply {
    pub version: i64,
    pub events: Vec<StoredEvent>,
}

pub(crate) enum Request {
    Command { caller: Caller, cmd: Command, reply: oneshot::Sender<Result<CommandReply, MatchError>> },
    View { reply: oneshot::Sender<RoomView> },
}

/// Lets others talk to a room's actor and follow its events.
#[derive(Clone)]
pub struct RoomHandle {
    pub(crate) tx: mpsc::Sender<Request>,
    pub(crate) events: broadcast::Sender<StoredEvent>,
}

impl RoomHandle {
    pub fn is_alive(&self) -> bool {
        !self.tx.is_closed()
    }
}

/// How many events a slow viewer may fall behind before it must catch up from the log.
const BROADCAST_CAPACITY: usize = 1024;
const INBOX: usize = 256;

pub(crate) fn spawn(room_id: i64, state: MatchState, db: Db, clock: Arc<dyn Clock>) -> RoomHandle {
    let (tx, rx) = mpsc::channel(INBOX);
    let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
    tokio::spawn(run(room_id, state, db, clock, rx, events.clone()));
    RoomHandle { tx, events }
}

fn random_seed() -> u64 {
    use argon2::password_hash::rand_core::{OsRng, RngCore};
    OsRng.next_u64()
}

async fn run(
    room_id: i64,
    mut state: MatchState,
    db: Db,
    clock: Arc<dyn Clock>,
    mut rx: mpsc::Receiver<Request>,
    events: broadcast::Sender<StoredEvent>,
) {
    while let Some(req) = rx.recv().await {
        match req {
            Request::View { reply } => {
                let _ = reply.send(RoomView::of(room_id, &state));
            }
            Request::Command { caller, cmd, reply } => {
                let version = state.version;
                let decision = state.handle(&caller, &cmd, random_seed());
                if decision.events.is_empty() {
                    let _ = reply.send(decision.outcome.map(|()| CommandReply { version, events: Vec::new() }));
                    continue;
                }
                match db.append_events(room_id, version, clock.now_ms(), Some(caller.user_id), decision.events).await {
                    Ok(stored) => {
                        if let Some(last) = stored.last() {
                            state.version = last.seq;
                        }
                        for e in &stored {
                            let _ = events.send(e.clone());
                        }
                        let public = stored.iter().map(StoredEvent::public_view).collect();
                        let _ = reply.send(decision.outcome.map(|()| CommandReply { version: state.version, events: public }));
                    }
                    Err(_) => {
                        // Not stored, so not acknowledged: drop the in-memory change by
                        // rebuilding from the log, and tell the caller it failed.
                        let _ = reply.send(Err(MatchError::Internal));
                        match db.load_events(room_id, 0).await.ok().and_then(|log| MatchState::replay(&log).ok()) {
                            Some(s) => state = s,
                            None => {
                                tracing::error!(room_id, "room state lost after a failed write; actor stops");
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}
