//! The doorbell between server instances on one PostgreSQL database: `NOTIFY` says that
//! something was committed — a room's new events (room and last number), or a change that ends
//! logins — and each instance's listener reads what it has not seen from the tables. A ring
//! carries no data (NOTIFY loses messages while a listener reconnects, and a payload is at
//! most 8,000 bytes): after a reconnection a listener hears `Resync` and reads everything it
//! follows again. The embedded SQLite database has one instance: no bell.
//!
//! A third ring, `Queue`, says that the administrators' queue may have changed: their live
//! streams read it again.

use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::{Backend, Conn, Db};

const EVENTS: &str = "sb_events";
const LOGINS: &str = "sb_logins";
const QUEUE: &str = "sb_queue";
/// Below NOTIFY's 8,000-byte payload limit.
const PAYLOAD_BYTES: usize = 7_000;

/// What another instance (or this one) committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ring {
    /// Room `room` has events up to `seq`.
    Events { room: i64, seq: i64 },
    /// Logins ended or accounts changed: cached logins are asked again.
    Logins,
    /// The administrators' queue may have changed: their live streams read it again.
    Queue,
    /// The listener was reconnected and may have missed rings: read everything again.
    Resync,
}

/// Rings for rooms' new events inside the writer's transaction (delivered at its commit,
/// not at all if it rolls back): one statement for a whole batch, `room:seq` pairs.
pub(crate) async fn ring_events(conn: &mut Conn<'_>, rooms: &[(i64, i64)]) -> Result<(), sqlx::Error> {
    let Backend::Postgres(c) = conn else { return Ok(()) };
    let mut payload = String::new();
    for (room, seq) in rooms {
        if payload.len() > PAYLOAD_BYTES {
            notify(c, EVENTS, &payload).await?;
            payload.clear();
        }
        if !payload.is_empty() {
            payload.push(',');
        }
        payload.push_str(&format!("{room}:{seq}"));
    }
    if !payload.is_empty() {
        notify(c, EVENTS, &payload).await?;
    }
    Ok(())
}

async fn notify(c: &mut sqlx::PgConnection, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)").bind(channel).bind(payload).execute(c).await.map(|_| ())
}

impl Db {
    /// True when other instances ring (PostgreSQL): a follower need not poll often.
    pub fn has_doorbell(&self) -> bool {
        matches!(self.pool(), Backend::Postgres(_))
    }

    /// Tells every instance that logins or accounts changed (after the commit that changed
    /// them; a lost ring is covered by the cache's own freshness limit).
    pub(super) async fn ring_logins(&self) {
        self.ring(LOGINS, "logins' change").await;
    }

    /// Tells every instance that the administrators' queue may have changed (after the
    /// commit; rings lost while a listener reconnects are covered by its `Resync`).
    pub(crate) async fn ring_queue(&self) {
        self.ring(QUEUE, "queue's change").await;
    }

    async fn ring(&self, channel: &str, what: &str) {
        if let Backend::Postgres(p) = self.pool() {
            if let Err(e) = sqlx::query("SELECT pg_notify($1, '')").bind(channel).execute(p).await {
                tracing::warn!(error = %e, "{what} not announced to other instances");
            }
        }
    }

    /// The rings every instance sends, for as long as the receiver is kept (`None` on the
    /// embedded database). Rings for logins are handled here (the login cache is asked
    /// again); the rest is the receiver's.
    pub async fn listen(&self) -> Option<mpsc::Receiver<Ring>> {
        let Backend::Postgres(pool) = self.pool() else { return None };
        let (tx, rx) = mpsc::channel(1024);
        let db = self.clone();
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut listener: Option<PgListener> = None;
            loop {
                let l = match &mut listener {
                    Some(l) => l,
                    None => match connect(&pool).await {
                        Ok(l) => {
                            // Anything may have been missed before this connection.
                            db.logins.changed();
                            if tx.send(Ring::Resync).await.is_err() {
                                return;
                            }
                            listener.insert(l)
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "doorbell: cannot listen; trying again in 1 s");
                            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                            continue;
                        }
                    },
                };
                let rings = match l.try_recv().await {
                    Ok(Some(n)) if n.channel() == LOGINS => {
                        db.logins.changed();
                        continue;
                    }
                    Ok(Some(n)) if n.channel() == QUEUE => vec![Ring::Queue],
                    Ok(Some(n)) => parse_events(n.payload()),
                    // The connection was lost (it reconnects on the next call): rings may
                    // have been missed meanwhile.
                    Ok(None) => {
                        db.logins.changed();
                        vec![Ring::Resync]
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "doorbell: listener failed; listening again");
                        listener = None;
                        continue;
                    }
                };
                for ring in rings {
                    if tx.send(ring).await.is_err() {
                        return;
                    }
                }
            }
        });
        Some(rx)
    }
}

async fn connect(pool: &sqlx::PgPool) -> Result<PgListener, sqlx::Error> {
    let mut l = PgListener::connect_with(pool).await?;
    l.listen_all([EVENTS, LOGINS, QUEUE]).await?;
    Ok(l)
}

/// `room:seq,room:seq…`; anything else is ignored (only this code rings).
fn parse_events(payload: &str) -> Vec<Ring> {
    payload
        .split(',')
        .filter_map(|pair| {
            let (room, seq) = pair.split_once(':')?;
            Some(Ring::Events { room: room.parse().ok()?, seq: seq.parse().ok()? })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_names_rooms_and_their_last_events() {
        assert_eq!(parse_events("4:17,9:2"), vec![Ring::Events { room: 4, seq: 17 }, Ring::Events { room: 9, seq: 2 }]);
        assert_eq!(parse_events("x:1,,5"), Vec::new());
    }
}
