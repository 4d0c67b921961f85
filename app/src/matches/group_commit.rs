//! The one writer of room events (issue 15 §1). A single task owns the write connection and
//! drains every append already waiting into one transaction — a savepoint per append, so one
//! room's failure does not fail the others — commits once (WAL, synchronous=FULL: one fsync
//! for the whole batch), then answers each. The callers broadcast only after that answer, so
//! nothing is acknowledged before it is durable.
//!
//! No added wait: a batch is what is waiting when the previous commit ends (one append when
//! the server is idle), at most [`BATCH`].

use sqlx::Acquire;
use tokio::sync::{mpsc, oneshot};

use super::{
    events::{Event, StoredEvent},
    listing::Listing,
};
use crate::{
    data::{backend::AsConn, begin_rows, internal, on, Pool},
    AppError,
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

/// The handle every clone of `Db` shares; the task ends when the last one is dropped.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    jobs: mpsc::Sender<Job>,
    pool: Pool,
}

impl Writer {
    /// Starts the writer on `pool` (a pool of one connection: the writer's own).
    pub fn start(pool: Pool) -> Writer {
        let (jobs, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool.clone(), rx));
        Writer { jobs, pool }
    }

    /// Closes the writer's connection (appends after this fail).
    pub async fn close(&self) {
        on!(&self.pool, p => p.close().await);
    }

    /// Appends durably: answers after the commit that carried this append.
    pub async fn append(&self, append: Append) -> Answer {
        let (reply, answer) = oneshot::channel();
        self.jobs.send((append, reply)).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

fn stopped() -> AppError {
    tracing::error!("the event writer has stopped");
    AppError::Internal
}

async fn run(pool: Pool, mut jobs: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH);
    while jobs.recv_many(&mut batch, BATCH).await > 0 {
        write_batch(&pool, &mut batch).await;
    }
    on!(&pool, p => p.close().await);
}

/// Writes and answers every job in `batch` (left empty).
async fn write_batch(pool: &Pool, batch: &mut Vec<Job>) {
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
                Ok(mut savepoint) => match super::store::append_in(&mut savepoint.as_conn(), append).await {
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
    use crate::{
        data::{
            leases::{Lease, Previous, Taking},
            secrets::random_hex,
            Db,
        },
        matches::{events::RoomSecrets, settings::MatchSettings},
    };

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
        let mut batch = Vec::new();
        let mut answers = Vec::new();
        for job in [append(a, 1), append(b, 0), append(a, 2)] {
            let (reply, answer) = oneshot::channel();
            batch.push((job, reply));
            answers.push(answer);
        }
        write_batch(db.pool(), &mut batch).await;
        assert!(batch.is_empty());
        let mut got = Vec::new();
        for answer in answers {
            got.push(answer.await.unwrap());
        }
        assert_eq!(got[0].as_ref().map(|s| s[0].seq), Ok(2));
        assert_eq!(got[1].as_ref().map(|_| ()), Err(&AppError::Internal), "event 1 of b exists");
        assert_eq!(got[2].as_ref().map(|s| s[0].seq), Ok(3));
        assert_eq!(seqs(&db, a).await, vec![1, 2, 3]);
        assert_eq!(seqs(&db, b).await, vec![1]);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Fencing (issue 15 §3): once another instance has taken a room's lease (its holder
    /// stopped renewing), the old holder's append is refused and writes nothing; the new
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
        let mut batch = Vec::new();
        let mut answers = Vec::new();
        for job in [append(old, 1), append(other, 1), append(new, 1)] {
            let (reply, answer) = oneshot::channel();
            batch.push((job, reply));
            answers.push(answer);
        }
        write_batch(db.pool(), &mut batch).await;
        let mut got = Vec::new();
        for answer in answers {
            got.push(answer.await.unwrap().map(|s| s[0].seq));
        }
        use crate::matches::commands::MatchError;
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
}
