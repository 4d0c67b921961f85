//! Copies of the data folder (003 §12.7: the record is kept safe): a consistent backup taken
//! while the server runs, and its restore into a data folder no server is using.
//!
//! The backup is SQLite's own `VACUUM INTO` — one read transaction, so the copy is the
//! database as of one commit, never a torn mix of before and after (a file copy of a live
//! WAL database can be). Beside it goes `backup.json`, what the copy holds, checked again
//! before a restore. The data folder holds password digests and live sessions: backups must
//! be kept as private as the folder itself.

use std::{
    fs::{self, File, TryLockError},
    path::{Path, PathBuf},
    str::FromStr,
    time::Duration,
};

use serde::{Deserialize, Serialize};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::SqlitePool;

use super::{now_ms, Db, OpenError, DB_FILE};

/// Held (an exclusive OS lock) by the serving process for as long as it runs, and by a restore.
pub const LOCK_FILE: &str = "space-baduk.lock";
/// What a backup holds, written beside the copy.
pub const MANIFEST_FILE: &str = "backup.json";
/// The database file and the two SQLite keeps beside it in WAL mode.
const SUFFIXES: [&str; 3] = ["", "-wal", "-shm"];
/// The manifest's own format; a restore refuses others.
const MANIFEST_FORMAT: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("no Space Baduk database at {path}")]
    NoDatabase { path: String },
    #[error("{path} already holds a backup or database; choose an empty or new directory")]
    DestinationTaken { path: String },
    #[error("{path} is not a Space Baduk backup ({detail})")]
    NotABackup { path: String, detail: String },
    #[error("the backup at {path} is damaged: {detail}")]
    Damaged { path: String, detail: String },
    #[error(
        "the backup at {path} has schema version {found}; this server knows versions up to {known}. \
         Restore it with the newer server that made it."
    )]
    NewerSchema { path: String, found: i64, known: i64 },
    #[error("a Space Baduk server is using {dir}: stop it first")]
    InUse { dir: String },
    #[error("{dir} already holds a database; pass --replace to move it aside (it is kept, not deleted)")]
    WouldReplace { dir: String },
    #[error("{what} {path}: {source}")]
    Io { what: &'static str, path: String, source: std::io::Error },
    #[error("database {path}: {source}")]
    Sqlite { path: String, source: sqlx::Error },
    #[error(transparent)]
    Open(#[from] OpenError),
}

fn io<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> BackupError + 'a {
    move |source| BackupError::Io { what, path: path.display().to_string(), source }
}

fn sqlite(path: &Path) -> impl FnOnce(sqlx::Error) -> BackupError + '_ {
    move |source| BackupError::Sqlite { path: path.display().to_string(), source }
}

/// What a backup holds (`backup.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// When the copy's read transaction was taken (ms since the Unix epoch).
    pub made_at_ms: i64,
    /// The data folder it was taken from.
    pub source: String,
    /// The highest migration applied in the copy.
    pub schema_version: i64,
    pub users: i64,
    pub rooms: i64,
    pub events: i64,
    pub bytes: u64,
}

/// The data folder's lock: the serving process takes it at start and keeps it, so that a
/// restore (or a second server) cannot replace the database under a running one. The OS
/// releases it when the process ends, however it ends.
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

impl DataDirLock {
    pub fn acquire(data_dir: &Path) -> Result<Self, BackupError> {
        fs::create_dir_all(data_dir).map_err(io("cannot create", data_dir))?;
        let path = data_dir.join(LOCK_FILE);
        let file =
            File::options().create(true).truncate(false).write(true).open(&path).map_err(io("cannot open", &path))?;
        match file.try_lock() {
            Ok(()) => Ok(DataDirLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(BackupError::InUse { dir: data_dir.display().to_string() }),
            Err(TryLockError::Error(e)) => Err(io("cannot lock", &path)(e)),
        }
    }
}

/// The highest migration this build knows.
pub fn known_schema_version() -> i64 {
    super::MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// `copy`: a backup's file, which nothing writes (immutable: no locks, no WAL index made
/// beside it); otherwise the live database, which the server may be writing.
async fn connect(path: &Path, copy: bool) -> Result<SqlitePool, BackupError> {
    if !path.is_file() {
        return Err(BackupError::NoDatabase { path: path.display().to_string() });
    }
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
        .map_err(sqlite(path))?
        .create_if_missing(false)
        .read_only(copy)
        .immutable(copy)
        // The server may be committing: wait for its write lock rather than fail.
        .busy_timeout(Duration::from_secs(30));
    SqlitePoolOptions::new().max_connections(1).connect_with(options).await.map_err(sqlite(path))
}

/// `PRAGMA integrity_check` and what the copy holds.
async fn inspect(path: &Path) -> Result<(i64, i64, i64, i64), BackupError> {
    let pool = connect(path, true).await?;
    let damaged = |detail: String| BackupError::Damaged { path: path.display().to_string(), detail };
    let check: Vec<String> =
        sqlx::query_scalar("PRAGMA integrity_check").fetch_all(&pool).await.map_err(|e| damaged(e.to_string()))?;
    if check != ["ok"] {
        return Err(damaged(check.join("; ")));
    }
    let mut counts = [0i64; 3];
    for (n, table) in counts.iter_mut().zip(["users", "rooms", "match_events"]) {
        *n = sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&pool)
            .await
            .map_err(|e| damaged(format!("{table}: {e}")))?;
    }
    let schema: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
        .fetch_one(&pool)
        .await
        .map_err(|e| damaged(format!("no migration history: {e}")))?;
    let found = (schema.unwrap_or(0), counts[0], counts[1], counts[2]);
    pool.close().await;
    Ok(found)
}

fn sync_file(path: &Path) -> Result<(), BackupError> {
    File::open(path).and_then(|f| f.sync_all()).map_err(io("cannot sync", path))
}

fn sync_dir(dir: &Path) -> Result<(), BackupError> {
    File::open(dir).and_then(|f| f.sync_all()).map_err(io("cannot sync", dir))
}

/// Writes `bytes` to `path` durably (a temporary file, synced, renamed, directory synced).
fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), BackupError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).map_err(io("cannot write", &tmp))?;
    sync_file(&tmp)?;
    fs::rename(&tmp, path).map_err(io("cannot rename", &tmp))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// A consistent copy of `data_dir`'s database into `dest` (created; must not hold a backup
/// already), while a server may be running on it. Nothing in `data_dir` is changed.
pub async fn backup(data_dir: &Path, dest: &Path) -> Result<Manifest, BackupError> {
    let source = data_dir.join(DB_FILE);
    let copy = dest.join(DB_FILE);
    if copy.exists() || dest.join(MANIFEST_FILE).exists() {
        return Err(BackupError::DestinationTaken { path: dest.display().to_string() });
    }
    let pool = connect(&source, false).await?;
    fs::create_dir_all(dest).map_err(io("cannot create", dest))?;
    let made_at_ms = now_ms();
    let target = copy.to_str().ok_or_else(|| BackupError::Io {
        what: "cannot use",
        path: copy.display().to_string(),
        source: std::io::Error::other("the path is not UTF-8"),
    })?;
    sqlx::query("VACUUM INTO ?").bind(target).execute(&pool).await.map_err(sqlite(&source))?;
    pool.close().await;
    // VACUUM INTO does not sync what it wrote.
    sync_file(&copy)?;
    let (schema_version, users, rooms, events) = inspect(&copy).await?;
    let bytes = fs::metadata(&copy).map_err(io("cannot read", &copy))?.len();
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        made_at_ms,
        source: data_dir.display().to_string(),
        schema_version,
        users,
        rooms,
        events,
        bytes,
    };
    let json = serde_json::to_vec_pretty(&manifest).map_err(|e| BackupError::Io {
        what: "cannot encode",
        path: MANIFEST_FILE.into(),
        source: std::io::Error::other(e),
    })?;
    write_durably(&dest.join(MANIFEST_FILE), &json)?;
    Ok(manifest)
}

/// Reads and checks a backup: its manifest, the copy's integrity, and that what the copy
/// holds is what the manifest says.
pub async fn verify(from: &Path) -> Result<Manifest, BackupError> {
    let manifest_path = from.join(MANIFEST_FILE);
    let not_backup = |detail: String| BackupError::NotABackup { path: from.display().to_string(), detail };
    let text = fs::read(&manifest_path).map_err(|e| not_backup(format!("{MANIFEST_FILE}: {e}")))?;
    let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| not_backup(format!("{MANIFEST_FILE}: {e}")))?;
    if manifest.format != MANIFEST_FORMAT {
        return Err(not_backup(format!("manifest format {}, this server reads {MANIFEST_FORMAT}", manifest.format)));
    }
    let copy = from.join(DB_FILE);
    let (schema_version, users, rooms, events) = inspect(&copy).await?;
    if (schema_version, users, rooms, events)
        != (manifest.schema_version, manifest.users, manifest.rooms, manifest.events)
    {
        return Err(BackupError::Damaged {
            path: copy.display().to_string(),
            detail: format!(
                "holds schema {schema_version}, {users} users, {rooms} rooms, {events} events; the manifest says \
                 schema {}, {} users, {} rooms, {} events",
                manifest.schema_version, manifest.users, manifest.rooms, manifest.events
            ),
        });
    }
    let known = known_schema_version();
    if schema_version > known {
        return Err(BackupError::NewerSchema { path: from.display().to_string(), found: schema_version, known });
    }
    Ok(manifest)
}

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// Where the database that was there before went (`--replace`).
    pub kept_aside: Option<PathBuf>,
}

/// Puts the backup in `from` back as `data_dir`'s database. Refused while a server holds
/// the folder; an existing database is moved aside only with `replace` (never deleted).
/// The restored database is brought to this build's schema by its migrations.
pub async fn restore(from: &Path, data_dir: &Path, replace: bool) -> Result<Restored, BackupError> {
    let manifest = verify(from).await?;
    let lock = DataDirLock::acquire(data_dir)?;
    let live = data_dir.join(DB_FILE);
    let file = |suffix: &str| data_dir.join(format!("{DB_FILE}{suffix}"));
    // The WAL and its index go with the database (committed pages may be only there); an
    // orphaned WAL would be applied to the restored copy, so it goes aside too.
    let present: Vec<&str> = SUFFIXES.into_iter().filter(|s| file(s).exists()).collect();
    let mut kept_aside = None;
    if !present.is_empty() {
        if live.exists() && !replace {
            return Err(BackupError::WouldReplace { dir: data_dir.display().to_string() });
        }
        let aside = data_dir.join(format!("replaced-{}", now_ms()));
        fs::create_dir(&aside).map_err(io("cannot create", &aside))?;
        for suffix in &present {
            fs::rename(file(suffix), aside.join(format!("{DB_FILE}{suffix}")))
                .map_err(io("cannot move", &file(suffix)))?;
        }
        sync_dir(data_dir)?;
        kept_aside = Some(aside);
    }
    let put_back = |failed: BackupError| {
        // Whatever the restore left goes, and what was there comes back.
        for suffix in SUFFIXES {
            let _ = fs::remove_file(file(suffix));
        }
        if let Some(aside) = &kept_aside {
            for suffix in &present {
                let _ = fs::rename(aside.join(format!("{DB_FILE}{suffix}")), file(suffix));
            }
            let _ = fs::remove_dir(aside);
        }
        failed
    };
    let incoming = data_dir.join(format!("{DB_FILE}.restoring"));
    let placed = fs::copy(from.join(DB_FILE), &incoming)
        .map_err(io("cannot copy into", &incoming))
        .and_then(|_| sync_file(&incoming))
        .and_then(|()| fs::rename(&incoming, &live).map_err(io("cannot rename", &incoming)))
        .and_then(|()| sync_dir(data_dir));
    if let Err(e) = placed {
        let _ = fs::remove_file(&incoming);
        return Err(put_back(e));
    }
    // Migrations now, so that a problem shows here rather than at the next start; on one,
    // the folder is as it was.
    match Db::open(data_dir).await {
        Ok(db) => db.close().await,
        Err(e) => return Err(put_back(e.into())),
    }
    drop(lock);
    Ok(Restored { manifest, kept_aside })
}
