//! The writer on SQLite (the embedded default): a thread of its own holding a synchronous
//! connection (rusqlite, on the libsqlite3 sqlx links) to the same file as the readers' pool.
//! Through sqlx every statement is a hand-off to its connection's worker thread and back —
//! five or more per append, each waking two threads. Profiled under load, a command's cost
//! was handing it between threads (request task → room actor → writer → sqlx's worker and
//! back) and allocating, not SQL or the rules: the limit was the latency of each hand-off,
//! not CPU (figures: docs/performance.md, "Where the server's time goes"). Here a batch costs
//! one hand-off in and one answer per append out. The SQL is `store::append_in`'s, statement
//! for statement; the PostgreSQL writer still runs that one.

use std::{path::Path, time::Duration};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

use super::{gather, refuse, unavailable, Append, Job, Msg, BATCH};
use crate::{data::room_log as store, AppError};
use wire::{
    commands::{MatchError, RoomPhase},
    events::StoredEvent,
    listing::Listing,
};

/// Why the writer did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot open the event writer's connection: {0}")]
    Open(#[from] rusqlite::Error),
    #[error("cannot start the event writer's thread: {0}")]
    Thread(#[from] std::io::Error),
    #[error("the database file is not in WAL mode for the event writer (journal mode {0})")]
    NotWal(String),
}

/// Opens the writer's connection (so that a failure shows at start) and starts its thread.
pub(super) fn start(path: &Path, msgs: mpsc::Receiver<Msg>) -> Result<(), StartError> {
    let conn = open(path)?;
    std::thread::Builder::new().name("event-writer".into()).spawn(move || run(conn, msgs))?;
    Ok(())
}

fn open(path: &Path) -> Result<Connection, StartError> {
    // Not a URI: the file the readers' pool opened, by its path as given.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    // As the pools' connections (`data::Db::open`): the same wait for another writer's lock;
    // WAL and FULL, so an acknowledged append survives a killed process and a power cut.
    conn.busy_timeout(Duration::from_secs(5))?;
    let mode = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StartError::NotWal(mode));
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Runs one of the writer's fixed statements (transaction control), prepared once.
fn run_fixed(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

fn run(conn: Connection, mut msgs: mpsc::Receiver<Msg>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut close = None;
    while let Some(first) = msgs.blocking_recv() {
        gather(first, &mut batch, &mut close);
        // What else already waits joins the batch; nothing is waited for.
        while batch.len() < BATCH && close.is_none() {
            let Ok(msg) = msgs.try_recv() else { break };
            gather(msg, &mut batch, &mut close);
        }
        write_batch(&conn, &mut batch);
        if let Some(done) = close.take() {
            drop(conn);
            let _ = done.send(());
            while let Some(msg) = msgs.blocking_recv() {
                refuse(msg);
            }
            return;
        }
    }
}

fn fault(e: rusqlite::Error) -> AppError {
    tracing::error!(error = %e, "database error (event writer)");
    match e.sqlite_error_code() {
        // Another writer held the lock past the busy timeout: worth asking again.
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => unavailable(),
        _ => AppError::Internal,
    }
}

/// Writes and answers every job in `batch` (left empty).
fn write_batch(conn: &Connection, batch: &mut Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    // A transaction left open by a rollback that failed last time would refuse every BEGIN
    // from now on: end it first.
    if !conn.is_autocommit() {
        if let Err(e) = conn.execute_batch("ROLLBACK") {
            tracing::error!(error = %e, "the event writer's rollback failed");
        }
    }
    if let Err(e) = run_fixed(conn, "BEGIN IMMEDIATE") {
        let fault = fault(e);
        for (_, reply) in batch.drain(..) {
            let _ = reply.send(Err(fault.clone()));
        }
        return;
    }
    let mut answers: Vec<(oneshot::Sender<_>, _)> = Vec::with_capacity(batch.len());
    // A savepoint that cannot be opened or rolled back leaves the transaction in an unknown
    // state: then nothing of the batch is committed, and every append gets this fault.
    let mut broken: Option<AppError> = None;
    for (append, reply) in batch.drain(..) {
        let answer = match &broken {
            Some(fault) => Err(fault.clone()),
            None => match run_fixed(conn, "SAVEPOINT append") {
                Err(e) => Err(broken.insert(fault(e)).clone()),
                Ok(()) => match append_in(conn, append) {
                    Ok(stored) => match run_fixed(conn, "RELEASE append") {
                        Ok(()) => Ok(stored),
                        Err(e) => Err(broken.insert(fault(e)).clone()),
                    },
                    Err(refused) => {
                        if let Err(e) = conn.execute_batch("ROLLBACK TO append; RELEASE append") {
                            broken = Some(fault(e));
                        }
                        Err(refused)
                    }
                },
            },
        };
        answers.push((reply, answer));
    }
    let failed = match broken {
        Some(fault) => Some(fault),
        None => run_fixed(conn, "COMMIT").err().map(fault),
    };
    // A failed commit can leave the transaction open: nothing of it stays.
    if !conn.is_autocommit() {
        if let Err(e) = conn.execute_batch("ROLLBACK") {
            tracing::error!(error = %e, "the event writer's rollback failed");
        }
    }
    for (reply, answer) in answers {
        // A refusal stays what it was: nothing of it was written either way.
        let answer = match (answer, &failed) {
            (Ok(_), Some(fault)) => Err(fault.clone()),
            (answer, _) => answer,
        };
        let _ = reply.send(answer);
    }
}

/// The first row of an append is written only under the room's lease (fencing: an instance
/// that lost the lease writes nothing; later rows follow it in the same savepoint).
const FENCED: &str = "INSERT INTO match_events (room_id, seq, at_ms, actor_id, kind, body, lease_epoch) \
                      SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 \
                      WHERE EXISTS (SELECT 1 FROM room_leases WHERE room_id = ?1 AND epoch = ?7)";
const PLAIN: &str = "INSERT INTO match_events (room_id, seq, at_ms, actor_id, kind, body, lease_epoch) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// One append inside the writer's transaction (its own savepoint): `store::append_in` on this
/// connection.
fn append_in(
    conn: &Connection,
    Append { lease, version, at_ms, actor, before, events, listing }: Append,
) -> Result<Vec<StoredEvent>, AppError> {
    let room_id = lease.room_id;
    let status = store::room_status(&events);
    let mut stored = Vec::with_capacity(events.len());
    for (i, event) in events.into_iter().enumerate() {
        // An administrator's action goes into their log with its event, atomically.
        if let (Some(actor), Some((action, reasons))) = (actor, event.audited()) {
            let after = store::audited_after(&event)?;
            conn.prepare_cached(
                "INSERT INTO audit_log (at_ms, actor_id, action, target_user, room_id, reasons, before_json, after_json) \
                 VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7)",
            )
            .and_then(|mut s| {
                let action: &'static str = action.into();
                s.execute(params![at_ms, actor, action, room_id, reasons, before.as_ref().map(|v| v.to_string()), after.to_string()])
            })
            .map_err(fault)?;
        }
        let seq = version + 1 + i as i64;
        let body = store::event_body(&event, None)?;
        let sql = if i == 0 { FENCED } else { PLAIN };
        let written = conn
            .prepare_cached(sql)
            .and_then(|mut s| s.execute(params![room_id, seq, at_ms, actor, event.kind(), body, lease.epoch]))
            .map_err(fault)?;
        if written == 0 {
            tracing::warn!(room_id, seq, lease.epoch, "append refused: the room's lease was taken by another instance");
            return Err(AppError::Match(MatchError::ServedElsewhere { retry_after_s: 1 }));
        }
        stored.push(StoredEvent { seq, at_ms, actor, event });
    }
    // 003 §9.7: nothing is added to a record its retention deleted.
    let purged: Option<Option<i64>> = conn
        .prepare_cached("SELECT purged_at_ms FROM rooms WHERE id = ?1")
        .and_then(|mut s| s.query_row([room_id], |r| r.get(0)).optional())
        .map_err(fault)?;
    if let Some(Some(at_ms)) = purged {
        return Err(AppError::Match(MatchError::RecordDeleted { at_ms }));
    }
    if let Some(status) = status {
        // Retention counts from the end (003 §9.7); a cancelled time loss reopens play.
        let ended = (status != RoomPhase::Playing.as_str()).then_some(at_ms);
        conn.prepare_cached("UPDATE rooms SET status = ?1, ended_at_ms = ?2 WHERE id = ?3")
            .and_then(|mut s| s.execute(params![status, ended, room_id]))
            .map_err(fault)?;
    }
    if let Some((listing, players_changed)) = listing {
        write_listing(conn, room_id, &listing, players_changed)?;
    }
    Ok(stored)
}

/// `store::write_listing` on this connection: the listing, and the seated accounts when they
/// changed.
fn write_listing(conn: &Connection, room_id: i64, listing: &Listing, players_changed: bool) -> Result<(), AppError> {
    let json = serde_json::to_string(listing).map_err(|_| AppError::Internal)?;
    conn.prepare_cached("UPDATE rooms SET listing = ?1 WHERE id = ?2")
        .and_then(|mut s| s.execute(params![json, room_id]))
        .map_err(fault)?;
    if !players_changed {
        return Ok(());
    }
    conn.prepare_cached("DELETE FROM room_players WHERE room_id = ?1")
        .and_then(|mut s| s.execute([room_id]))
        .map_err(fault)?;
    let mut insert =
        conn.prepare_cached("INSERT INTO room_players (room_id, user_id) VALUES (?1, ?2)").map_err(fault)?;
    for user in &listing.players {
        insert.execute(params![room_id, user]).map_err(fault)?;
    }
    Ok(())
}
