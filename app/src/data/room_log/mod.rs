//! Rooms and their event logs in the database. An event is acknowledged to anyone only after
//! `append` has committed it (SQLite WAL, synchronous=FULL: it survives a killed process).
//!
//! One append (`append_in`, inside the writer's transaction, a savepoint of its own) writes
//! the events, the room's status, its listing and seated accounts (`room_players`) and an
//! administrator's log entries, all or nothing. Its first row is written only under the
//! actor's lease epoch (fencing, `data::leases`), and each row keeps the epoch it was written
//! under, so epochs never fall along a log. An append to a record retention deleted is
//! refused. A room's first row also holds its `RoomSecrets`, which no event, view or record
//! type carries.

use crate::data::{on, Cols, Conn, Neutral};

pub(crate) mod group_commit;
pub mod upgrade;

use group_commit::Append;
use upgrade::Body;

use crate::data::{internal, leases::Lease, Db};
use crate::AppError;
use wire::{
    commands::RoomPhase,
    events::{Event, RoomSecrets, StoredEvent},
    listing::Listing,
    settings::MatchSettings,
};

/// Who caused appended events (`None`: the server itself) and, for an administrator's
/// action, where the room stood before it (kept in their log).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cause<'a> {
    pub actor: Option<i64>,
    pub before: Option<&'a serde_json::Value>,
}

impl Cause<'_> {
    pub fn by(actor: Option<i64>) -> Cause<'static> {
        Cause { actor, before: None }
    }
}

impl Db {
    /// Creates the room row and its first event (`RoomCreated`) in one transaction.
    pub async fn insert_room(
        &self,
        name: &str,
        settings: &MatchSettings,
        created_by: i64,
        secrets: &RoomSecrets,
        at_ms: i64,
    ) -> Result<(i64, StoredEvent), AppError> {
        let spec = settings.board;
        let len = |a: engine::Axis| a.end - a.start + 1;
        let mut tx = crate::data::write_tx(self).await?;
        let id: i64 = on!(&mut tx, t => sqlx::query_scalar(
            "INSERT INTO rooms (name, preset, size_x, size_y, size_z, status, created_by, created_at_ms, mode, \
             retention_days, access) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
        )
        .bind(name)
        .bind(settings.preset.as_str())
        .bind(len(spec.x))
        .bind(len(spec.y))
        .bind(len(spec.z))
        .bind(RoomPhase::Open.as_str())
        .bind(created_by)
        .bind(at_ms)
        .bind(<&str>::from(settings.mode.tag()))
        .bind(settings.record_retention_days.map(i64::from))
        .bind(<&str>::from(settings.access))
        .fetch_one(&mut **t)
        .await)
        .map_err(internal)?;
        let event = Event::RoomCreated { name: name.to_string(), settings: settings.clone(), created_by };
        let stored =
            insert_event(&mut tx.conn(), id, 1, at_ms, Some(created_by), event, Stored::First(secrets)).await?;
        tx.commit().await?;
        Ok((id, stored))
    }

    /// Appends events after `version` atomically, with the room's new listing when they
    /// changed it and, for an administrator's action, where the room stood `before` it (for
    /// their log); fails (nothing written) if another writer got there first, or with
    /// `ServedElsewhere` if `lease` was taken by another instance (fencing). Answers after
    /// the commit (group commit: [`group_commit`]).
    pub async fn append_events(
        &self,
        lease: Lease,
        version: i64,
        at_ms: i64,
        Cause { actor, before }: Cause<'_>,
        events: Vec<Event>,
        listing: Option<ListingUpdate<'_>>,
    ) -> Result<Vec<StoredEvent>, AppError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let append = Append {
            lease,
            version,
            at_ms,
            actor,
            before: before.cloned(),
            events,
            listing: listing.map(|u| (u.listing.clone(), u.players_changed)),
        };
        self.writer().append(append).await
    }

    /// Writes a room's listing on its own (a new room without events to append, or a room
    /// loaded whose stored listing is not what its log says now).
    pub async fn set_listing(&self, room_id: i64, listing: &Listing) -> Result<(), AppError> {
        let mut tx = crate::data::write_tx(self).await?;
        write_listing(&mut tx.conn(), room_id, ListingUpdate { listing, players_changed: true }).await?;
        tx.commit().await
    }

    /// Writes a listing only where it is stale (the background lister of closed rooms, which
    /// must not overwrite what a live actor wrote meanwhile).
    pub async fn set_listing_if_stale(&self, room_id: i64, listing: &Listing) -> Result<bool, AppError> {
        let mut tx = crate::data::write_tx(self).await?;
        let missing: Option<i64> = on!(&mut tx, t => sqlx::query_scalar(&format!(
                "SELECT id FROM rooms WHERE id = $1 AND {}{}",
                dialect::STALE_LISTING,
                dialect::LOCK_FOR_UPDATE
            ))
                .bind(room_id)
                .fetch_optional(&mut **t)
                .await)
        .map_err(internal)?;
        if missing.is_none() {
            return Ok(false);
        }
        write_listing(&mut tx.conn(), room_id, ListingUpdate { listing, players_changed: true }).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The listing last written for a room (`None`: never, or unreadable: written anew).
    pub async fn listing_of(&self, room_id: i64) -> Result<Option<Listing>, AppError> {
        let text: Option<Option<String>> =
            on!(self.pool(), p => sqlx::query_scalar("SELECT listing FROM rooms WHERE id = $1")
            .bind(room_id)
            .fetch_optional(p)
            .await)
            .map_err(internal)?;
        Ok(text.flatten().and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// A room's whole log and its secrets (stored in the `room_created` row); `None` if
    /// there is no such room.
    pub async fn load_log(&self, room_id: i64) -> Result<Option<(Vec<StoredEvent>, RoomSecrets)>, AppError> {
        let Some(rows) = self.log_rows(EVENTS_AFTER, room_id, 0).await? else { return Ok(None) };
        let secrets = rows.secrets().map_err(|e| unreadable(room_id, 1, e))?;
        let method = rows.scoring_method();
        Ok(Some((decode_rows(room_id, rows.rows, method)?, secrets)))
    }

    /// A room's log as far as it can be read (003 §6.2): the events before the first row
    /// that does not decode (rows a later repair set aside do not count), that row's number
    /// and why, and the last stored number. `None` if there is no such room; an error if
    /// even its first row is unreadable.
    pub async fn load_log_checked(&self, room_id: i64) -> Result<Option<CheckedLog>, AppError> {
        self.load_log_checked_from(EVENTS_AFTER, room_id).await
    }

    /// A game's log as the learning archive keeps it (003 §12.7), read like a room's.
    pub async fn load_archived_log(&self, room_id: i64) -> Result<Option<CheckedLog>, AppError> {
        self.load_log_checked_from(
            "SELECT seq, at_ms, CAST(NULL AS BIGINT) AS actor_id, body FROM learning_archive WHERE room_id = $1 AND seq > $2 ORDER BY seq",
            room_id,
        )
        .await
    }

    async fn load_log_checked_from(&self, sql: &'static str, room_id: i64) -> Result<Option<CheckedLog>, AppError> {
        let Some(rows) = self.log_rows(sql, room_id, 0).await? else { return Ok(None) };
        let secrets = rows.secrets().map_err(|e| unreadable(room_id, 1, e))?;
        let method = rows.scoring_method();
        // Rows a later repair set aside (003 §6.2): after its `resume_after`, before the repair.
        // Only a repair that reads counts, as in `MatchState::replay`.
        let set_aside: Vec<(i64, i64)> = rows
            .rows
            .iter()
            .filter_map(|r| match &r.stored {
                Ok(Body::Event(Event::RecordRepaired { resume_after, .. })) => Some((*resume_after, r.seq)),
                _ => None,
            })
            .collect();
        let last_seq = rows.rows.last().map_or(0, |r| r.seq);
        let mut events = Vec::with_capacity(rows.rows.len());
        let mut damage = None;
        for EventRow { seq, at_ms, actor, stored } in rows.rows {
            match stored.and_then(|s| s.into_event(method)) {
                Ok(event) => events.push(StoredEvent { seq, at_ms, actor, event }),
                Err(_) if set_aside.iter().any(|(after, repair)| seq > *after && seq < *repair) => {}
                Err(why) => {
                    tracing::error!(room_id, seq, error = %why, "unreadable event in the log");
                    damage = Some((seq, format!("unreadable: {why}")));
                    break;
                }
            }
        }
        Ok(Some(CheckedLog { events, secrets, damage, last_seq }))
    }

    /// Events of a room with `seq > after`, in order.
    pub async fn load_events(&self, room_id: i64, after: i64) -> Result<Vec<StoredEvent>, AppError> {
        let Some(rows) = self.log_rows(EVENTS_AFTER, room_id, after).await? else { return Ok(Vec::new()) };
        // Format-1 rows (see `upgrade`) need the room's scoring method, from its first row.
        let method = if rows.first.is_some() {
            rows.scoring_method()
        } else if rows.rows.iter().any(|r| r.stored.as_ref().is_ok_and(Body::needs_upgrade)) {
            let first: Option<String> =
                on!(self.pool(), p => sqlx::query_scalar("SELECT body FROM match_events WHERE room_id = $1 AND seq = 1")
                    .bind(room_id)
                    .fetch_optional(p)
                    .await)
                    .map_err(internal)?;
            // Unreadable or missing, it gives no method: the format-1 rows then say so.
            match first.as_deref().map(upgrade::read_stored) {
                Some(Ok(Body::Event(e))) => upgrade::scoring_method(&e),
                _ => None,
            }
        } else {
            None
        };
        decode_rows(room_id, rows.rows, method)
    }

    /// The rows of `sql` (binding the room and `after`), each read from its text
    /// (`upgrade::read_stored`: once, with no `serde_json::Value` in between for current
    /// rows), and from `after` 0 the first row's text; `None` if there are none.
    async fn log_rows(&self, sql: &'static str, room_id: i64, after: i64) -> Result<Option<LogRows>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(sql)
        .bind(room_id)
        .bind(after)
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        let mut first = None;
        let rows = rows
            .into_iter()
            .map(|r| {
                let seq: i64 = r.col("seq")?;
                let text: String = r.col("body")?;
                let stored = upgrade::read_stored(&text);
                if after <= 0 && first.is_none() {
                    first = Some(text);
                }
                Ok(EventRow { seq, at_ms: r.col("at_ms")?, actor: r.col("actor_id")?, stored })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        Ok((!rows.is_empty()).then_some(LogRows { first, rows }))
    }

    /// Closed rooms whose listing is stale and whose record is still stored.
    pub async fn stale_closed_room_ids(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar(&format!(
            "SELECT id FROM rooms WHERE status = 'finished' AND {} AND purged_at_ms IS NULL ORDER BY id",
            dialect::STALE_LISTING
        ))
        .fetch_all(p)
        .await)
        .map_err(internal)
    }

    /// Rooms whose match is not finished (their actors are started at boot).
    pub async fn unfinished_room_ids(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM rooms WHERE status <> 'finished' ORDER BY id")
            .fetch_all(p)
            .await)
        .map_err(internal)
    }
}

/// A room's events after a number (`$2`), oldest first.
const EVENTS_AFTER: &str =
    "SELECT seq, at_ms, actor_id, body FROM match_events WHERE room_id = $1 AND seq > $2 ORDER BY seq";

/// A room's log as [`Db::load_log_checked`] read it.
pub struct CheckedLog {
    pub events: Vec<StoredEvent>,
    pub secrets: RoomSecrets,
    /// The first row that could not be read, and why.
    pub damage: Option<(i64, String)>,
    pub last_seq: i64,
}

/// A stored row, its text read (`upgrade::read_stored`) but a format-1 body not yet upgraded.
struct EventRow {
    seq: i64,
    at_ms: i64,
    actor: Option<i64>,
    stored: Result<Body, String>,
}

/// A log's rows, and the text of the first when they start at the beginning (the
/// `room_created` row).
struct LogRows {
    first: Option<String>,
    rows: Vec<EventRow>,
}

impl LogRows {
    /// The server-only facts stored in the `room_created` row.
    fn secrets(&self) -> Result<RoomSecrets, String> {
        let first = self.first.as_deref().ok_or("the log has no first row")?;
        serde_json::from_str(first).map_err(|e| e.to_string())
    }

    /// The scoring method from the `room_created` row, which format-1 rows need.
    fn scoring_method(&self) -> Option<engine::ScoringMethod> {
        match self.rows.first().map(|r| &r.stored) {
            Some(Ok(Body::Event(e))) if self.first.is_some() => upgrade::scoring_method(e),
            _ => None,
        }
    }
}

fn decode_rows(
    room_id: i64,
    rows: Vec<EventRow>,
    method: Option<engine::ScoringMethod>,
) -> Result<Vec<StoredEvent>, AppError> {
    rows.into_iter()
        .map(|r| {
            let event = r.stored.and_then(|s| s.into_event(method)).map_err(|e| unreadable(room_id, r.seq, e))?;
            Ok(StoredEvent { seq: r.seq, at_ms: r.at_ms, actor: r.actor, event })
        })
        .collect()
}

fn unreadable(room_id: i64, seq: i64, e: impl std::fmt::Display) -> AppError {
    tracing::error!(room_id, seq, error = %e, "unreadable event in the log");
    AppError::Internal
}

/// One append inside the writer's transaction (its own savepoint): the events, the room's
/// status when they change it, its listing, and an administrator's log entries.
pub(super) async fn append_in(
    conn: &mut Conn<'_>,
    Append { lease, version, at_ms, actor, before, events, listing }: Append,
) -> Result<Vec<StoredEvent>, AppError> {
    let room_id = lease.room_id;
    let status = room_status(&events);
    let mut stored = Vec::with_capacity(events.len());
    for (i, e) in events.into_iter().enumerate() {
        // An administrator's action goes into their log with its event, atomically.
        if let (Some(actor), Some((action, reasons))) = (actor, e.audited()) {
            let after = audited_after(&e)?;
            let logged = (action, reasons, before.as_ref(), &after);
            crate::data::audit::append_room_action(conn, at_ms, actor, room_id, logged).await?;
        }
        let seq = version + 1 + i as i64;
        // The first row is written only under the lease (later rows follow it in the same
        // savepoint): no extra statement per append.
        let how = Stored::Event { epoch: lease.epoch, fenced: i == 0 };
        stored.push(insert_event(conn, room_id, seq, at_ms, actor, e, how).await?);
    }
    // 003 §9.7: nothing is added to a record its retention deleted (the lease row, held since
    // the first insert, keeps a purge out until the commit; an insert that waited for a purge
    // reads it here: `leases::hold_appends`).
    let purged: Option<Option<i64>> =
        on!(&mut *conn, c => sqlx::query_scalar("SELECT purged_at_ms FROM rooms WHERE id = $1")
        .bind(room_id)
        .fetch_optional(&mut **c)
        .await)
        .map_err(internal)?;
    if let Some(Some(at_ms)) = purged {
        return Err(AppError::Match(wire::commands::MatchError::RecordDeleted { at_ms }));
    }
    if let Some(status) = status {
        // Retention counts from the end (003 §9.7); a cancelled time loss reopens play.
        let ended = (status != RoomPhase::Playing.as_str()).then_some(at_ms);
        on!(&mut *conn, c => sqlx::query("UPDATE rooms SET status = $1, ended_at_ms = $2 WHERE id = $3")
            .bind(status)
            .bind(ended)
            .bind(room_id)
            .execute(&mut **c)
            .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
    }
    if let Some((listing, players_changed)) = listing {
        write_listing(conn, room_id, ListingUpdate { listing: &listing, players_changed }).await?;
    }
    Ok(stored)
}

/// The room's status after `events` when they change it (`rooms.status`).
pub(super) fn room_status(events: &[Event]) -> Option<&'static str> {
    events.iter().rev().find_map(|e| match e {
        Event::Started { .. } | Event::TimeLossDecided { cancelled: true, .. } => Some(RoomPhase::Playing.as_str()),
        // A cancelled room is closed like a finished one (see migration 0010).
        Event::Ended { .. } | Event::RoomCancelled { .. } => Some(RoomPhase::Finished.as_str()),
        _ => None,
    })
}

/// An administrator's room action as their log keeps it after the action: the event.
pub(super) fn audited_after(event: &Event) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(event).map_err(|_| AppError::Internal)
}

/// A stored row's `body`: the public event, and for a room's first row its secrets beside
/// (not inside) it.
pub(super) fn event_body(event: &Event, secrets: Option<&RoomSecrets>) -> Result<String, AppError> {
    let fault = |e: serde_json::Error| {
        tracing::error!(error = %e, "event did not serialise");
        AppError::Internal
    };
    let mut body = serde_json::to_value(event).map_err(fault)?;
    if let (Some(obj), Some(secrets)) = (body.as_object_mut(), secrets) {
        if let serde_json::Value::Object(extra) = serde_json::to_value(secrets).map_err(fault)? {
            obj.extend(extra);
        }
    }
    Ok(body.to_string())
}

/// How a row is written: a room's first row carries its secrets; a later one records the
/// lease epoch its writer holds, and the first of an append is written only under it.
enum Stored<'a> {
    First(&'a RoomSecrets),
    Event { epoch: i64, fenced: bool },
}

async fn insert_event(
    conn: &mut Conn<'_>,
    room_id: i64,
    seq: i64,
    at_ms: i64,
    actor: Option<i64>,
    event: Event,
    how: Stored<'_>,
) -> Result<StoredEvent, AppError> {
    let body = event_body(
        &event,
        match how {
            Stored::First(secrets) => Some(secrets),
            Stored::Event { .. } => None,
        },
    )?;
    // The epoch each row was written under stays in the log: an older owner writing after a
    // newer one would show (the chaos tool checks that none ever does).
    const PLAIN: &str = "INSERT INTO match_events (room_id, seq, at_ms, actor_id, kind, body, lease_epoch) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)";
    let (epoch, fenced) = match how {
        Stored::First(_) => (None, false),
        Stored::Event { epoch, fenced } => (Some(epoch), fenced),
    };
    let written = on!(&mut *conn, c => {
        // The lease row is locked until the commit (fencing): a taking waits for this
        // append, or this append waits for the taking and then finds the epoch gone.
        let sql = if fenced {
            format!(
                "INSERT INTO match_events (room_id, seq, at_ms, actor_id, kind, body, lease_epoch) \
                 SELECT $1, $2, $3, $4, $5, $6, $7 \
                 WHERE EXISTS (SELECT 1 FROM room_leases WHERE room_id = $1 AND epoch = $7{})",
                dialect::LOCK_FOR_KEY_SHARE
            )
        } else {
            PLAIN.to_string()
        };
        sqlx::query(&sql)
        .bind(room_id)
        .bind(seq)
        .bind(at_ms)
        .bind(actor)
        .bind(event.kind())
        .bind(body)
        .bind(epoch)
        .execute(&mut **c)
        .await
        .map(|r| r.rows_affected())
    })
    .map_err(internal)?;
    if written == 0 {
        tracing::warn!(room_id, seq, epoch, "append refused: the room's lease was taken by another instance");
        return Err(AppError::Match(wire::commands::MatchError::ServedElsewhere { retry_after_s: 1 }));
    }
    Ok(StoredEvent { seq, at_ms, actor, event })
}

/// A room's new listing; the seated accounts are rewritten only when they changed (a move
/// changes the listing, seldom the players).
#[derive(Debug, Clone, Copy)]
pub struct ListingUpdate<'a> {
    pub listing: &'a Listing,
    pub players_changed: bool,
}

/// The listing and the seated accounts, in the caller's transaction.
async fn write_listing(
    conn: &mut Conn<'_>,
    room_id: i64,
    ListingUpdate { listing, players_changed }: ListingUpdate<'_>,
) -> Result<(), AppError> {
    let json = serde_json::to_string(listing).map_err(|_| AppError::Internal)?;
    on!(&mut *conn, c => sqlx::query("UPDATE rooms SET listing = $1 WHERE id = $2")
        .bind(json)
        .bind(room_id)
        .execute(&mut **c)
        .await.map(|r| r.rows_affected()))
    .map_err(internal)?;
    if !players_changed {
        return Ok(());
    }
    on!(&mut *conn, c => sqlx::query("DELETE FROM room_players WHERE room_id = $1")
        .bind(room_id)
        .execute(&mut **c)
        .await.map(|r| r.rows_affected()))
    .map_err(internal)?;
    for user in &listing.players {
        on!(&mut *conn, c => sqlx::query("INSERT INTO room_players (room_id, user_id) VALUES ($1, $2)")
            .bind(room_id)
            .bind(user)
            .execute(&mut **c)
            .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
    }
    Ok(())
}
