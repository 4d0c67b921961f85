//! The one writer of room events (docs/decisions/0002-cost-per-game-and-spectator.md). A
//! single writer owns the write connection and drains every append already waiting into one
//! transaction — a savepoint per append, so one room's failure does not fail the others —
//! commits once (SQLite: WAL, synchronous=FULL, one fsync for the whole batch), then answers
//! each. The callers broadcast only after that answer, so nothing is acknowledged before it
//! is durable.
//!
//! No added wait: a batch is what is waiting when the previous commit ends (one append when
//! the server is idle), at most [`BATCH`]. On SQLite the writer is a thread of its own with a
//! synchronous connection ([`sqlite`]); on PostgreSQL a task on the writer's pool (below).

mod sqlite;

pub use sqlite::StartError;

use sqlx::Acquire;
use tokio::sync::{mpsc, oneshot};

use crate::{
    data::{backend::AsConn, begin_rows, internal, on, Pool},
    AppError,
};
use wire::{
    events::{Event, StoredEvent},
    listing::Listing,
};

/// The most appends one transaction carries: bounds a batch's latency and memory.
const BATCH: usize = 256;
/// Appends waiting beyond the batch being written; senders wait for room beyond this.
const QUEUE: usize = 4096;

/// One room's append, owned by the writer until it answers.
#[derive(Debug)]
pub(crate) struct Append {
    /// The room, and the lease its actor holds: the append is refused if the lease moved on.
    pub lease: crate::data::leases::Lease,
    /// The room's last stored event number; the events get the numbers after it.
    pub version: i64,
    pub at_ms: i64,
    pub actor: Option<i64>,
    /// An administrator's action: where the room stood before it (for their log).
    pub before: Option<serde_json::Value>,
    pub events: Vec<Event>,
    /// The room's new listing, and whether its seated accounts changed.
    pub listing: Option<(Listing, bool)>,
}

type Answer = Result<Vec<StoredEvent>, AppError>;
type Job = (Append, oneshot::Sender<Answer>);

/// What the writer is asked. Nearly every message is an `Append`, so boxing it to shrink the
/// rare variants would cost an allocation per append and save nothing.
#[allow(clippy::large_enum_variant)]
enum Msg {
    Append(Job),
    /// Appends that must share one transaction (tests of the batch's savepoints).
    #[cfg(test)]
    Together(Vec<Job>),
    /// Close the connection; every later append is answered "unavailable".
    Close(oneshot::Sender<()>),
}

/// The handle every clone of `Db` shares; the writer ends when the last one is dropped.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    msgs: mpsc::Sender<Msg>,
}

impl Writer {
    /// Starts the writer on SQLite: its own connection to the file at `path`, on a thread of
    /// its own.
    pub fn start_sqlite(path: &std::path::Path) -> Result<Writer, sqlite::StartError> {
        let (msgs, rx) = mpsc::channel(QUEUE);
        sqlite::start(path, rx)?;
        Ok(Writer { msgs })
    }

    /// Starts the writer on PostgreSQL, on `pool` (a pool of one connection: the writer's own).
    pub fn start_postgres(pool: Pool) -> Writer {
        let (msgs, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, rx));
        Writer { msgs }
    }

    /// Closes the writer's connection (appends after this fail as "unavailable").
    pub async fn close(&self) {
        let (done, closed) = oneshot::channel();
        if self.msgs.send(Msg::Close(done)).await.is_ok() {
            let _ = closed.await;
        }
    }

    /// Appends durably: answers after the commit that carried this append.
    pub async fn append(&self, append: Append) -> Answer {
        let (reply, answer) = oneshot::channel();
        self.msgs.send(Msg::Append((append, reply))).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Appends in one transaction, in this order, whatever else waits.
    #[cfg(test)]
    async fn append_together(&self, appends: Vec<Append>) -> Vec<Answer> {
        let (jobs, answers): (Vec<Job>, Vec<_>) = appends
            .into_iter()
            .map(|a| {
                let (reply, answer) = oneshot::channel();
                ((a, reply), answer)
            })
            .unzip();
        self.msgs.send(Msg::Together(jobs)).await.map_err(|_| stopped()).unwrap();
        let mut got = Vec::new();
        for answer in answers {
            got.push(answer.await.unwrap());
        }
        got
    }
}

fn stopped() -> AppError {
    tracing::error!("the event writer has stopped");
    AppError::Internal
}

/// What an append gets when the database cannot take it now (closed, or busy too long): ask again.
fn unavailable() -> AppError {
    AppError::DatabaseUnavailable { retry_after_s: 1 }
}

/// Adds what `msg` asks to `batch`, or to `close` when it asks the writer to close (after
/// writing the batch). Shared by both writers.
fn gather(msg: Msg, batch: &mut Vec<Job>, close: &mut Option<oneshot::Sender<()>>) {
    match msg {
        Msg::Append(job) => batch.push(job),
        #[cfg(test)]
        Msg::Together(jobs) => batch.extend(jobs),
        Msg::Close(done) => *close = Some(done),
    }
}

/// After the connection is closed: every append is answered "unavailable" until the last
/// handle is dropped.
async fn refuse_after_close(mut msgs: mpsc::Receiver<Msg>) {
    while let Some(msg) = msgs.recv().await {
        refuse(msg);
    }
}

fn refuse(msg: Msg) {
    let mut jobs = Vec::new();
    let mut close = None;
    gather(msg, &mut jobs, &mut close);
    for (_, reply) in jobs {
        let _ = reply.send(Err(unavailable()));
    }
    if let Some(done) = close {
        let _ = done.send(());
    }
}

/// The PostgreSQL writer's task.
async fn run(pool: Pool, mut msgs: mpsc::Receiver<Msg>) {
    let mut waiting = Vec::with_capacity(BATCH);
    let mut batch = Vec::with_capacity(BATCH);
    let mut close = None;
    while msgs.recv_many(&mut waiting, BATCH).await > 0 {
        for msg in waiting.drain(..) {
            // What came after the close is refused, as on SQLite.
            if close.is_some() {
                refuse(msg);
            } else {
                gather(msg, &mut batch, &mut close);
            }
        }
        write_batch(&pool, &mut batch).await;
        if let Some(done) = close.take() {
            on!(&pool, p => p.close().await);
            let _ = done.send(());
            return refuse_after_close(msgs).await;
        }
    }
    on!(&pool, p => p.close().await);
}

/// Writes and answers every job in `batch` (left empty).
async fn write_batch(pool: &Pool, batch: &mut Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    let mut tx = match begin_rows(pool).await {
        Ok(tx) => tx,
        Err(e) => {
            let fault = internal(e);
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Err(fault.clone()));
            }
            return;
        }
    };
    let mut answers = Vec::with_capacity(batch.len());
    // Each room's last event, for the other instances' doorbell.
    let mut rings = Vec::with_capacity(batch.len());
    // A savepoint that cannot be opened or rolled back leaves the transaction in an unknown
    // state: then nothing of the batch is committed, and every append gets this fault (503
    // when the database stopped answering, so that clients ask again).
    let mut broken: Option<AppError> = None;
    for (append, reply) in batch.drain(..) {
        let room = append.lease.room_id;
        let answer = if let Some(fault) = &broken {
            Err(fault.clone())
        } else {
            on!(&mut tx, t => match t.begin().await {
                Ok(mut savepoint) => match super::append_in(&mut savepoint.as_conn(), append).await {
                    Ok(stored) => match savepoint.commit().await {
                        Ok(()) => Ok(stored),
                        Err(e) => Err(broken.insert(internal(e)).clone()),
                    },
                    Err(refused) => {
                        if let Err(e) = savepoint.rollback().await {
                            broken = Some(internal(e));
                        }
                        Err(refused)
                    }
                },
                Err(e) => Err(broken.insert(internal(e)).clone()),
            })
        };
        if let Ok(stored) = &answer {
            rings.extend(stored.last().map(|e| (room, e.seq)));
        }
        answers.push((reply, answer));
    }
    if broken.is_none() && !rings.is_empty() {
        if let Err(e) = crate::data::doorbell::ring_events(&mut tx.conn(), &rings).await {
            broken = Some(internal(e));
        }
    }
    let failed = match broken {
        Some(fault) => {
            let _ = on!(tx, t => t.rollback().await);
            Some(fault)
        }
        None => tx.commit().await.err(),
    };
    for (reply, answer) in answers {
        // A refusal stays what it was: nothing of it was written either way.
        let answer = match (answer, &failed) {
            (Ok(_), Some(fault)) => Err(fault.clone()),
            (answer, _) => answer,
        };
        let _ = reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{
        leases::{Lease, Previous, Taking},
        secrets::random_hex,
        Db,
    };
    use wire::{events::RoomSecrets, settings::MatchSettings};

    async fn rooms(n: usize) -> (Db, Vec<Lease>, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("sb-group-commit-{}", random_hex::<8>().unwrap()));
        let db = Db::open(&dir).await.unwrap();
        let host: i64 = on!(db.pool(), p => sqlx::query_scalar(
            "INSERT INTO users (username, password_hash, role, created_at_ms) VALUES ('host', 'x', 'player', 0) RETURNING id",
        )
        .fetch_one(p)
        .await)
        .unwrap();
        let secrets = RoomSecrets { invite_sha256: ["a".into(), "b".into()], nigiri_seed: None };
        let settings = MatchSettings::classic_default(9);
        let mut ids = Vec::new();
        for i in 0..n {
            let id = db.insert_room(&format!("r{i}"), &settings, host, &secrets, 0).await.unwrap().0;
            match db.take_lease(id, "test", 0).await.unwrap() {
                Taking::Taken { lease, .. } => ids.push(lease),
                held => panic!("a new room's lease: {held:?}"),
            }
        }
        (db, ids, dir)
    }

    fn append(lease: Lease, version: i64) -> Append {
        Append { lease, version, at_ms: 1, actor: None, before: None, events: vec![Event::PlayResumed], listing: None }
    }

    async fn seqs(db: &Db, room: Lease) -> Vec<i64> {
        db.load_events(room.room_id, 0).await.unwrap().iter().map(|e| e.seq).collect()
    }

    /// One transaction for the batch; the append that fails (its event number is taken)
    /// is rolled back to its savepoint alone, before and after it the others are stored.
    #[tokio::test]
    async fn one_rooms_failure_in_a_batch_fails_only_its_own_append() {
        let (db, ids, dir) = rooms(2).await;
        let (a, b) = (ids[0], ids[1]);
        let got = db.writer().append_together(vec![append(a, 1), append(b, 0), append(a, 2)]).await;
        assert_eq!(got[0].as_ref().map(|s| s[0].seq), Ok(2));
        assert_eq!(got[1].as_ref().map(|_| ()), Err(&AppError::Internal), "event 1 of b exists");
        assert_eq!(got[2].as_ref().map(|s| s[0].seq), Ok(3));
        assert_eq!(seqs(&db, a).await, vec![1, 2, 3]);
        assert_eq!(seqs(&db, b).await, vec![1]);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Fencing: once another instance has taken a room's lease (its holder stopped
    /// renewing), the old holder's append is refused and writes nothing; the new
    /// holder's goes in, and a room beside it in the same batch is not disturbed.
    #[tokio::test]
    async fn an_append_under_a_lease_taken_since_is_refused() {
        let (db, ids, dir) = rooms(2).await;
        let (old, other) = (ids[0], ids[1]);
        // Still held (not expired): another instance cannot take it.
        let held = db.take_lease(old.room_id, "second", 1_000).await.unwrap();
        assert!(matches!(held, Taking::HeldBy { ref owner, .. } if owner == "test"), "{held:?}");
        // Expired: taken, under the next epoch.
        let after = crate::data::leases::LEASE_MS + 1;
        let Taking::Taken { lease: new, previous } = db.take_lease(old.room_id, "second", after).await.unwrap() else {
            panic!("an expired lease is taken");
        };
        assert_eq!((new.epoch, previous), (old.epoch + 1, Previous::Lapsed));
        let answers = db.writer().append_together(vec![append(old, 1), append(other, 1), append(new, 1)]).await;
        let got: Vec<_> = answers.into_iter().map(|a| a.map(|s| s[0].seq)).collect();
        use wire::commands::MatchError;
        assert_eq!(got, vec![Err(AppError::Match(MatchError::ServedElsewhere { retry_after_s: 1 })), Ok(2), Ok(2)]);
        assert_eq!(seqs(&db, new).await, vec![1, 2]);
        // The first instance, renewing, no longer finds the room among its leases.
        let renewed = db.renew_leases("test", None, "key", after).await.unwrap();
        assert_eq!(renewed, vec![(other.room_id, other.epoch)]);
        // Its own name takes a live lease back at once (a restart under the same name).
        let Taking::Taken { lease: mine, previous } = db.take_lease(other.room_id, "test", after).await.unwrap() else {
            panic!("the holder's own name takes its lease back");
        };
        assert_eq!((mine.epoch, previous), (other.epoch + 1, Previous::Mine));
        // Given back, it is taken at once by anyone, and the epoch still grows.
        db.release_lease(new).await.unwrap();
        let again = db.take_lease(old.room_id, "test", after + 1).await.unwrap();
        let lease = Lease { room_id: old.room_id, epoch: new.epoch + 1 };
        assert_eq!(again, Taking::Taken { lease, previous: Previous::Free });
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Many rooms appending at once through the writer: every append answered, each stored
    /// once and in order.
    #[tokio::test]
    async fn appends_sent_together_are_all_stored_in_order() {
        let (db, ids, dir) = rooms(40).await;
        let mut tasks = Vec::new();
        for &room in &ids {
            let db = db.clone();
            tasks.push(tokio::spawn(async move {
                for version in 1..=5 {
                    let stored = db.writer().append(append(room, version)).await.unwrap();
                    assert_eq!(stored[0].seq, version + 1);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for &room in &ids {
            assert_eq!(seqs(&db, room).await, (1..=6).collect::<Vec<_>>());
        }
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// After `close`, an append is answered "unavailable" (503, ask again), not lost in
    /// silence and not a fault; what was appended before stays.
    #[tokio::test]
    async fn appends_after_close_are_refused_as_unavailable() {
        let (db, ids, dir) = rooms(1).await;
        let room = ids[0];
        db.writer().append(append(room, 1)).await.unwrap();
        db.close().await;
        let refused = db.writer().append(append(room, 2)).await;
        assert_eq!(refused.map(|_| ()), Err(AppError::DatabaseUnavailable { retry_after_s: 1 }));
        let reopened = Db::open(&dir).await.unwrap();
        assert_eq!(seqs(&reopened, room).await, vec![1, 2]);
        reopened.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// An administrator's action is logged in the same transaction as its event, with where
    /// the room stood before it; a room's listing and its seated accounts are written with it.
    #[tokio::test]
    async fn an_audited_event_is_logged_and_the_listing_written_with_it() {
        let (db, ids, dir) = rooms(1).await;
        let room = ids[0];
        let admin = 1; // the host made by `rooms`
        let before = serde_json::json!({ "phase": "playing" });
        let held = Event::Resumed { reasons: "the clocks were checked".into() };
        let secrets = RoomSecrets { invite_sha256: ["a".into(), "b".into()], nigiri_seed: None };
        let state = room::MatchState::new("r0".into(), MatchSettings::classic_default(9), admin, secrets);
        let mut listing = state.unwrap().listing();
        listing.players = vec![admin];
        let job = Append {
            lease: room,
            version: 1,
            at_ms: 7,
            actor: Some(admin),
            before: Some(before.clone()),
            events: vec![held.clone()],
            listing: Some((listing, true)),
        };
        let stored = db.writer().append(job).await.unwrap();
        assert_eq!((stored[0].seq, stored[0].actor), (2, Some(admin)));
        let entries = db.audit_entries(&Default::default(), None).await.unwrap();
        assert_eq!(entries.len(), 1, "{entries:?}");
        assert_eq!((entries[0].room_id, entries[0].before.as_ref()), (Some(room.room_id), Some(&before)));
        assert_eq!(entries[0].after.as_ref(), Some(&serde_json::to_value(&held).unwrap()));
        let players: Vec<i64> =
            on!(db.pool(), p => sqlx::query_scalar("SELECT user_id FROM room_players WHERE room_id = $1")
            .bind(room.room_id)
            .fetch_all(p)
            .await)
            .unwrap();
        assert_eq!(players, vec![admin]);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
