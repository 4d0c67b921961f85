//! Storage (server only). Every query goes through [`Db`], so a PostgreSQL backend can be
//! added behind the same methods; SQL here sticks to what both dialects accept.

mod account_admin;
mod accounts;
pub(crate) mod audit;
pub mod backup;
pub mod conduct;
pub mod desk;
pub mod governance;
mod login_cache;
pub mod logins;
pub mod models;
pub mod programs;
mod rooms;
pub mod secrets;
pub mod sessions;
pub mod throttle;

use std::{path::Path, str::FromStr, time::Duration};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub use accounts::{SetupToken, User};
pub use rooms::RoomRow;
pub use secrets::sha256_hex;
pub use throttle::SignInThrottle;

/// The embedded migrations (also: the schema version a backup may have).
pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// File name of the embedded database inside the data directory.
pub const DB_FILE: &str = "space-baduk.sqlite3";

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create data directory {path}: {source}")]
    DataDir { path: String, source: std::io::Error },
    #[error("cannot open database {path}: {source}")]
    Connect { path: String, source: sqlx::Error },
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("filling in the user names' keys failed (see the log)")]
    NameKeys,
    #[error("storing the first version of the common rules failed (see the log)")]
    CommonRules,
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
    /// Room events are written by one task on its own connection (group commit).
    writer: crate::matches::group_commit::Writer,
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
        // ping cost ~10% of server CPU under load (server/src/bin/load.rs, profiled).
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(connect)?;
        MIGRATOR.run(&pool).await?;
        // The event writer's own connection, kept open (its task owns it).
        let writer_pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .map_err(connect)?;
        let writer = crate::matches::group_commit::Writer::start(writer_pool);
        let db = Db { pool, writer, logins: Default::default() };
        // Migration 0003: keys for the accounts made before it (SQL cannot normalise).
        db.backfill_name_keys().await.map_err(|_| OpenError::NameKeys)?;
        // 003 §1.5: version 1 of the common rules, when the database has none yet.
        let first = crate::governance::seed::first_version(now_ms());
        db.seed_common_rules(&first).await.map_err(|_| OpenError::CommonRules)?;
        Ok(db)
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes every connection (a restore's check of the file it placed).
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }

    pub(crate) fn writer(&self) -> &crate::matches::group_commit::Writer {
        &self.writer
    }

    /// True when the database answers a trivial query.
    pub async fn healthy(&self) -> bool {
        sqlx::query_scalar::<_, i64>("SELECT 1").fetch_one(&self.pool).await.is_ok()
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
/// when it writes. Every writing transaction starts this way: a deferred one that reads
/// first fails at once (SQLITE_BUSY, not retried) when another writer committed meanwhile.
pub(crate) async fn write_tx(db: &Db) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, crate::AppError> {
    db.pool().begin_with("BEGIN IMMEDIATE").await.map_err(internal)
}

/// Logs a storage failure and turns it into the opaque error clients see.
pub(crate) fn internal(e: sqlx::Error) -> crate::AppError {
    tracing::error!(error = %e, "database error");
    crate::AppError::Internal
}
