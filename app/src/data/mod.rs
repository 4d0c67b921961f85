//! Storage (server only). Every query goes through [`Db`], on SQLite (the embedded default)
//! or PostgreSQL (`backend`: the same SQL runs on each driver, dialect differences named).
//!
//! Each database has its embedded migrations, run at open: `migrations/sqlite/` and
//! `migrations/postgres/` (whose 0001 is SQLite's 0001–0010 in one step; the later files
//! follow SQLite's from 0011). Writers take turns (`write_tx`: `BEGIN IMMEDIATE` on SQLite, an
//! advisory lock on PostgreSQL), except the hot and urgent ones — room events, lease takings,
//! renewals and give-backs — which on PostgreSQL lock only the rows they read (`row_tx`), so
//! that instances append in parallel. `crate::api` calls into `data`, never the other way.

mod account_admin;
mod accounts;
pub(crate) mod audit;
pub mod backend;
pub mod backup;
pub mod conduct;
pub mod desk;
pub mod doorbell;
pub mod governance;
pub mod leases;
mod login_cache;
pub mod logins;
pub mod models;
pub mod programs;
pub mod room_log;
mod rooms;
pub mod secrets;
pub mod sessions;
pub mod shipped_rules;
pub mod throttle;

use std::{path::Path, str::FromStr, time::Duration};

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

pub(crate) use backend::{on, Backend, Cols, Conn, Neutral, Pool, Row, Tx};

pub use accounts::{SetupToken, User};
pub use rooms::RoomRow;
pub use secrets::sha256_hex;
pub use throttle::SignInThrottle;

/// The embedded migrations (also: the schema version a backup may have).
pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
/// PostgreSQL's schema: the same tables in its own types (integers are BIGINT throughout, so
/// both drivers read them as `i64`).
static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// File name of the embedded database inside the data directory.
pub const DB_FILE: &str = "space-baduk.sqlite3";

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create data directory {path}: {source}")]
    DataDir { path: String, source: std::io::Error },
    #[error("cannot open database {path}: {source}")]
    Connect { path: String, source: sqlx::Error },
    #[error(transparent)]
    Writer(#[from] room_log::group_commit::StartError),
    #[error("the database URL is not a postgres:// URL: {0}")]
    BadUrl(String),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("filling in the user names' keys failed (see the log)")]
    NameKeys,
    #[error("storing the first version of the common rules failed (see the log)")]
    CommonRules,
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// Room events are written by one writer on its own connection (group commit).
    writer: room_log::group_commit::Writer,
    /// Who a session's login is, without a query per command.
    logins: std::sync::Arc<login_cache::LoginCache>,
}

impl Db {
    /// Opens (creating if needed) the SQLite file in `data_dir` and runs the embedded migrations.
    pub async fn open(data_dir: &Path) -> Result<Self, OpenError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| OpenError::DataDir { path: data_dir.display().to_string(), source })?;
        let path = data_dir.join(DB_FILE);
        let connect = |source| OpenError::Connect { path: path.display().to_string(), source };
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
            .map_err(connect)?
            .create_if_missing(true)
            // WAL + FULL: an acknowledged write survives a killed process and a power cut.
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        // No ping before each use: a local SQLite file does not drop connections, and the
        // ping cost ~10% of server CPU under load (server/src/bin/load, profiled).
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(connect)?;
        MIGRATOR.run(&pool).await?;
        // The event writer's own connection, on its own thread (group_commit::sqlite).
        // The file the pool opened, as the pool's options name it.
        let writer = room_log::group_commit::Writer::start_sqlite(options.get_filename())?;
        Self::ready(Backend::Sqlite(pool), writer).await
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://…`) and runs its migrations.
    async fn connect_postgres(url: &str) -> Result<Self, OpenError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|_| OpenError::BadUrl(redacted(url)))?
            // An instance cut off (or frozen) in the middle of a transaction must not keep its
            // locks until TCP gives up, hours later: the server ends such a session after a
            // renewal interval. None of our transactions waits on anything but the database.
            .options([("idle_in_transaction_session_timeout", "5s")]);
        let connect = |source| OpenError::Connect { path: redacted(url), source };
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await
            .map_err(connect)?;
        PG_MIGRATOR.run(&pool).await?;
        let writer_pool = PgPoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(connect)?;
        Self::ready(
            Backend::Postgres(pool),
            room_log::group_commit::Writer::start_postgres(Backend::Postgres(writer_pool)),
        )
        .await
    }

    /// Opens the database a server is configured with: PostgreSQL when a URL is given,
    /// else the SQLite file in `data_dir`.
    pub async fn open_configured(database_url: Option<&str>, data_dir: &Path) -> Result<Self, OpenError> {
        match database_url {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Self::connect_postgres(url).await
            }
            Some(url) if url.starts_with("sqlite:") => {
                Err(OpenError::BadUrl(format!("{} (the SQLite file is set with --data-dir)", redacted(url))))
            }
            Some(url) => Err(OpenError::BadUrl(redacted(url))),
            None => Self::open(data_dir).await,
        }
    }

    async fn ready(pool: Pool, writer: room_log::group_commit::Writer) -> Result<Self, OpenError> {
        let db = Db { pool, writer, logins: Default::default() };
        // Migration 0003: keys for the accounts made before it (SQL cannot normalise).
        db.backfill_name_keys().await.map_err(|_| OpenError::NameKeys)?;
        // 003 §1.5: the versions of the common rules the program ships that it lacks.
        let shipped = db.ship_common_rules(now_ms()).await.map_err(|_| OpenError::CommonRules)?;
        if shipped > 0 {
            tracing::info!(shipped, "common rules: shipped versions stored");
        }
        Ok(db)
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Closes every connection (a restore's check of the file it placed).
    pub async fn close(&self) {
        self.writer.close().await;
        on!(&self.pool, p => p.close().await);
    }

    pub(crate) fn writer(&self) -> &room_log::group_commit::Writer {
        &self.writer
    }

    /// True when the database answers a trivial query.
    pub async fn healthy(&self) -> bool {
        on!(&self.pool, p => sqlx::query_scalar::<_, i64>("SELECT CAST(1 AS BIGINT)").fetch_one(p).await.is_ok())
    }
}

/// RFC 3339 UTC of a server time (ms since the Unix epoch).
pub fn rfc3339(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into())
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A transaction that takes the write lock at once, so that what it reads is still true
/// when it writes. Every writer that does not lock the rows it reads starts this way (the
/// others use [`row_tx`]): on SQLite a deferred one that reads first fails at once
/// (SQLITE_BUSY, not retried) when another writer committed meanwhile; on PostgreSQL (read
/// committed) its reads could be stale by its writes. So these writers take turns on both,
/// as they do on SQLite's one write lock.
pub(crate) async fn write_tx(db: &Db) -> Result<Tx, crate::AppError> {
    Ok(match db.pool() {
        Backend::Sqlite(p) => Backend::Sqlite(p.begin_with("BEGIN IMMEDIATE").await.map_err(internal)?),
        Backend::Postgres(p) => {
            let mut tx = p.begin().await.map_err(internal)?;
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(WRITE_LOCK)
                .execute(&mut *tx)
                .await
                .map_err(internal)?;
            Backend::Postgres(tx)
        }
    })
}

/// A writing transaction that needs no turn among all writers, because every row it reads
/// to decide a write it locks as it reads (`SELECT … FOR UPDATE`, `dialect::LOCK_*`) or
/// updates by conditions it re-checks as it locks them (`UPDATE … WHERE owner = $1`): on
/// PostgreSQL a plain transaction (row locks only), on SQLite the one write lock as always.
/// The hot and the urgent writers use it — room events (group commit), lease takings,
/// renewals and give-backs — so that instances append in parallel and a queue of writers
/// cannot make an instance miss its renewal and stop its rooms.
pub(crate) async fn row_tx(db: &Db) -> Result<Tx, crate::AppError> {
    begin_rows(db.pool()).await.map_err(internal)
}

pub(crate) async fn begin_rows(pool: &Pool) -> Result<Tx, sqlx::Error> {
    Ok(match pool {
        Backend::Sqlite(p) => Backend::Sqlite(p.begin_with("BEGIN IMMEDIATE").await?),
        Backend::Postgres(p) => Backend::Postgres(p.begin().await?),
    })
}

/// The advisory lock every `write_tx` writer on PostgreSQL holds until it commits (any number: the
/// same for all).
const WRITE_LOCK: i64 = 0x5350_4143_4542_4144; // "SPACEBAD"

/// A database URL for messages: the password left out.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_info = &url[scheme + 3..at];
            let user = user_info.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

/// Logs a storage failure and turns it into the error clients see: 503 with a retry when the
/// database cannot be reached (restarting, cut off, no free connection — the caller may ask
/// again), else the opaque fault.
pub(crate) fn internal(e: sqlx::Error) -> crate::AppError {
    tracing::error!(error = %e, "database error");
    if unreachable(&e) {
        crate::AppError::DatabaseUnavailable { retry_after_s: 1 }
    } else {
        crate::AppError::Internal
    }
}

/// A database that does not answer, as opposed to one that refused what was asked:
/// connection failures, and PostgreSQL's classes 08 (connection exception) and 57P
/// (shutting down, starting up).
fn unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(db) => db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().is_some_and(|pg| {
            let code = pg.code();
            code.starts_with("08") || code.starts_with("57P")
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_url_is_shown_without_its_password() {
        assert_eq!(redacted("postgres://sb:secret@db.example:5432/baduk"), "postgres://sb@db.example:5432/baduk");
        assert_eq!(redacted("postgres://db.example/baduk"), "postgres://db.example/baduk");
    }

    #[test]
    fn a_database_that_does_not_answer_is_503_and_a_refusal_is_a_fault() {
        let gone = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        let unavailable = crate::AppError::DatabaseUnavailable { retry_after_s: 1 };
        assert_eq!(internal(sqlx::Error::Io(gone)), unavailable);
        assert_eq!(internal(sqlx::Error::PoolTimedOut), unavailable);
        assert_eq!(internal(sqlx::Error::PoolClosed), unavailable);
        assert_eq!(unavailable.status(), 503);
        assert_eq!(internal(sqlx::Error::RowNotFound), crate::AppError::Internal);
        assert_eq!(internal(sqlx::Error::Protocol("garbled".into())), crate::AppError::Internal);
    }

    #[tokio::test]
    async fn only_postgres_urls_are_databases_and_sqlite_lives_in_the_data_folder() {
        let dir = std::env::temp_dir();
        let refused = |r: Result<Db, OpenError>| match r {
            Err(OpenError::BadUrl(what)) => what,
            other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
        };
        let what = refused(Db::open_configured(Some("mysql://u:pw@h/db"), &dir).await);
        assert_eq!(what, "mysql://u@h/db");
        let what = refused(Db::open_configured(Some("sqlite://x.db"), &dir).await);
        assert!(what.contains("--data-dir"), "{what}");
    }
}
