//! Users, password hashes (argon2id) and the one-time administrator setup token.

use crate::data::{on, Cols, Conn, Neutral, Row};
use argon2::{
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Argon2,
};

use super::{
    internal, now_ms,
    secrets::{random_bytes, random_hex, sha256_hex},
    Db,
};
use crate::{error::InputProblem, AppError, Role};

pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 3..=32;
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 10..=128;

/// A stored account (without its password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub role: Role,
}

/// A freshly issued setup token; `secret` exists only in memory and in the printed link.
#[derive(Debug, Clone)]
pub struct SetupToken {
    pub secret: String,
}

/// The one form under which user names are compared and unique: Unicode NFC after full case
/// folding (Unicode §3.13 canonical caseless matching, kept in composed form), so "Ärger_x"
/// and "ärger_x", "STRASSE" and "straße", or a name typed precomposed and decomposed, are
/// the same name. Stored as `users.name_key`; sign-up, sign-in and record-viewer approvals
/// (003 §8.1) all go through it.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let folded = caseless::default_case_fold_str(&name.nfd().collect::<String>());
    folded.nfc().collect()
}

/// A name as it is stored and shown: in NFC (what a keyboard composes), so that a decomposed
/// "A\u{308}" is the letter "Ä" the validation accepts.
pub fn display_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfc().collect()
}

pub fn validate_username(name: &str) -> Result<(), AppError> {
    let n = name.chars().count();
    if !USERNAME_LEN.contains(&n) {
        let (min, max) = (*USERNAME_LEN.start() as u64, *USERNAME_LEN.end() as u64);
        return Err(AppError::input("username", InputProblem::Length { min, max, got: n as u64 }));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(AppError::input("username", InputProblem::Characters { found: c }));
    }
    Ok(())
}

pub fn validate_password(pw: &str) -> Result<(), AppError> {
    let n = pw.chars().count();
    if !PASSWORD_LEN.contains(&n) {
        let (min, max) = (*PASSWORD_LEN.start() as u64, *PASSWORD_LEN.end() as u64);
        return Err(AppError::input("password", InputProblem::Length { min, max, got: n as u64 }));
    }
    Ok(())
}

/// Password hashing on a bounded pool: argon2id takes ~19 MiB and a core for tens of
/// milliseconds per hash, so a burst of sign-ins or sign-ups runs `WORKERS` at a time with at
/// most `QUEUE` waiting, and anything beyond is refused at once (503 `busy`) instead of
/// exhausting memory (without the bound the server held 1.1 GiB after 200 sign-ups).
pub(crate) struct HashGate {
    workers: std::sync::Arc<tokio::sync::Semaphore>,
    waiting: std::sync::atomic::AtomicUsize,
    queue: usize,
}

/// One call counted as waiting, until it has a worker or is dropped (a client that went
/// away while queued must not hold its place for ever).
struct Waiting<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl HashGate {
    pub const WORKERS: usize = 2;
    pub const QUEUE: usize = 64;

    pub fn new(workers: usize, queue: usize) -> HashGate {
        HashGate {
            workers: std::sync::Arc::new(tokio::sync::Semaphore::new(workers)),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            queue,
        }
    }

    /// Runs `f` on a blocking thread once a worker is free, or refuses when `queue` calls
    /// already wait. The worker is held by the blocking call itself, so a request dropped
    /// meanwhile does not free it while the hash still runs.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        let before = self.waiting.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let waiting = Waiting(&self.waiting);
        if before >= self.queue {
            return Err(AppError::Busy { waiting: before as u64, limit: self.queue as u64, retry_after_s: 1 });
        }
        let worker = self.workers.clone().acquire_owned().await.map_err(|_| AppError::Internal)?;
        drop(waiting);
        tokio_blocking(move || {
            let _worker = worker;
            f()
        })
        .await
    }
}

static HASHING: std::sync::LazyLock<HashGate> =
    std::sync::LazyLock::new(|| HashGate::new(HashGate::WORKERS, HashGate::QUEUE));

/// argon2id with the crate's recommended parameters, off the async runtime.
pub(super) async fn hash_password(password: String) -> Result<String, AppError> {
    // 16 bytes: the salt length the PHC string format recommends.
    let salt = SaltString::encode_b64(&random_bytes::<16>()?).map_err(|e| {
        tracing::error!(error = %e, "salt encoding failed");
        AppError::Internal
    })?;
    HASHING
        .run(move || {
            Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| {
                tracing::error!(error = %e, "password hashing failed");
                AppError::Internal
            })
        })
        .await
}

pub(super) async fn verify_hash(password: String, phc: String) -> Result<bool, AppError> {
    HASHING
        .run(move || {
            let parsed = PasswordHash::new(&phc).map_err(|_| AppError::Internal)?;
            Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        })
        .await
}

async fn tokio_blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    tokio::task::spawn_blocking(f).await.map_err(|_| AppError::Internal)?
}

/// Inserts a user; a taken name (the same [`name_key`]) is the user's mistake, not a fault.
async fn insert_user(conn: &mut Conn<'_>, username: &str, password_hash: &str, role: Role) -> Result<User, AppError> {
    let row = on!(&mut *conn, c => sqlx::query(
        "INSERT INTO users (username, name_key, password_hash, role, created_at_ms) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id, username, role",
    )
    .bind(username)
    .bind(name_key(username))
    .bind(password_hash)
    .bind(<&str>::from(role))
    .bind(now_ms())
    .fetch_one(&mut **c)
    .await.map(Neutral::neutral))
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => AppError::input("username", InputProblem::Taken),
        _ => internal(e),
    })?;
    user_from_row(&row)
}

pub(super) fn user_from_row(r: &impl Cols) -> Result<User, AppError> {
    Ok(User { id: r.col("id")?, username: r.col("username")?, role: r.named("role")? })
}

impl Db {
    pub async fn admin_exists(&self) -> Result<bool, AppError> {
        on!(self.pool(), p => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users WHERE role = $1")
            .bind(<&str>::from(Role::Admin))
            .fetch_one(p)
            .await)
        .map(|n| n > 0)
        .map_err(internal)
    }

    /// Issues a new token for the instance `issued_by`, revoking its earlier unused ones.
    /// Called at start while no administrator exists: the link this instance printed last
    /// works, and so do those other instances starting beside it printed.
    pub async fn issue_setup_token(&self, issued_by: &str) -> Result<SetupToken, AppError> {
        let secret = random_hex::<24>()?;
        let mut tx = super::write_tx(self).await?;
        on!(&mut tx, t => sqlx::query(
            "UPDATE setup_tokens SET revoked = 1 \
             WHERE used_at_ms IS NULL AND (issued_by = $1 OR issued_by IS NULL)",
        )
        .bind(issued_by)
        .execute(&mut **t)
        .await
        .map(|r| r.rows_affected()))
        .map_err(internal)?;
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO setup_tokens (token_sha256, created_at_ms, issued_by) VALUES ($1, $2, $3)",
        )
        .bind(sha256_hex(&secret))
        .bind(now_ms())
        .bind(issued_by)
        .execute(&mut **t)
        .await
        .map(|r| r.rows_affected()))
        .map_err(internal)?;
        tx.commit().await?;
        Ok(SetupToken { secret })
    }

    /// Consumes the setup token and creates the first administrator, atomically; every
    /// other instance's link stops working with it (there is one first administrator).
    pub async fn create_first_admin(&self, token: &str, username: &str, password: &str) -> Result<User, AppError> {
        let username = &display_name(username);
        validate_username(username)?;
        validate_password(password)?;
        let hash = hash_password(password.to_string()).await?;
        let mut tx = super::write_tx(self).await?;
        let used = on!(&mut tx, t => sqlx::query(
            "UPDATE setup_tokens SET used_at_ms = $1 \
             WHERE token_sha256 = $2 AND used_at_ms IS NULL AND revoked = 0",
        )
        .bind(now_ms())
        .bind(sha256_hex(token.trim()))
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        if used != 1 {
            return Err(AppError::BadSetupToken);
        }
        on!(&mut tx, t => sqlx::query("UPDATE setup_tokens SET revoked = 1 WHERE used_at_ms IS NULL")
            .execute(&mut **t)
            .await
            .map(|r| r.rows_affected()))
        .map_err(internal)?;
        let user = insert_user(&mut tx.conn(), username, &hash, Role::Admin).await?;
        tx.commit().await?;
        Ok(user)
    }

    /// Creates a player account (open sign-up).
    pub async fn create_player(&self, username: &str, password: &str) -> Result<User, AppError> {
        let username = &display_name(username);
        validate_username(username)?;
        validate_password(password)?;
        let hash = hash_password(password.to_string()).await?;
        let mut tx = super::write_tx(self).await?;
        let user = insert_user(&mut tx.conn(), username, &hash, Role::Player).await?;
        tx.commit().await?;
        Ok(user)
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, AppError> {
        let row = on!(self.pool(), p => sqlx::query("SELECT id, username, role FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// The account a typed name means: the one of that exact name, else the one with its
    /// [`name_key`]. (Exact names first: an older account whose key an older one holds has
    /// no key, see migration 0003, and is found by its exact name only. `username = $2`
    /// compares caselessly, the column's collation, so its index serves.)
    async fn row_by_name(&self, username: &str) -> Result<Option<Row>, AppError> {
        on!(self.pool(), p => {
            let sql = format!(
                "SELECT id, username, role, password_hash FROM users \
                 WHERE name_key = $1 OR username = $2 \
                 ORDER BY username = $2 COLLATE {exact} DESC, name_key = $1 DESC, id LIMIT 1",
                exact = dialect::EXACT_COLLATION
            );
            sqlx::query(&sql).bind(name_key(username)).bind(username).fetch_optional(p).await.map(Neutral::neutral)
        })
        .map_err(internal)
    }

    /// The account a typed name means (see [`Db::verify_password`] for how it is found).
    pub async fn user_by_name(&self, username: &str) -> Result<Option<User>, AppError> {
        self.row_by_name(&display_name(username.trim())).await?.as_ref().map(user_from_row).transpose()
    }

    /// Gives every account without a [`name_key`] its key (accounts made before migration
    /// 0003; SQL cannot normalise). An account whose key an older account already holds
    /// keeps none, with a warning for the administrator: it still signs in by its exact name,
    /// and approvals name accounts by id, so the two are never confused (003 §8.1). Returns
    /// how many keys were filled in.
    pub async fn backfill_name_keys(&self) -> Result<usize, AppError> {
        let rows: Vec<(i64, String)> =
            on!(self.pool(), p => sqlx::query_as("SELECT id, username FROM users WHERE name_key IS NULL ORDER BY id")
                .fetch_all(p)
                .await)
            .map_err(internal)?;
        let mut filled = 0;
        for (id, username) in rows {
            let key = name_key(&username);
            let done = on!(self.pool(), p => sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                .bind(&key)
                .bind(id)
                .execute(p)
                .await.map(|r| r.rows_affected()));
            match done {
                Ok(_) => filled += 1,
                Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                    tracing::warn!(user_id = id, username, "user name differs only in case or form from an older one; it keeps no name key and signs in by its exact name only");
                }
                Err(e) => return Err(internal(e)),
            }
        }
        Ok(filled)
    }

    /// Checks a password. Unknown names cost the same hashing time as wrong passwords, so
    /// response times do not reveal which accounts exist.
    pub async fn verify_password(&self, username: &str, password: &str) -> Result<User, AppError> {
        let row = self.row_by_name(&display_name(username)).await?;
        let (user, phc) = match &row {
            Some(r) => (Some(user_from_row(r)?), r.col::<String>("password_hash")?),
            None => (None, DUMMY_HASH.to_string()),
        };
        let ok = verify_hash(password.to_string(), phc).await?;
        match user {
            Some(u) if ok => Ok(u),
            _ => Err(AppError::BadCredentials),
        }
    }
}

/// argon2id hash of a random string nobody knows; verified against for unknown user names.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$1n0fVgG0Ns1U3tLZ7tqBzq3w5hIqRrqVZb0Gm6yC0eE";

#[cfg(test)]
mod tests {
    use super::*;

    type Held = (tokio::task::JoinHandle<Result<i32, AppError>>, std::sync::mpsc::Sender<()>);

    /// A call that holds `gate`'s worker until the sender is used; it is running on return.
    fn hold(gate: &std::sync::Arc<HashGate>, value: i32) -> Held {
        let (started_tx, started) = std::sync::mpsc::channel::<()>();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let gate = gate.clone();
        let task = tokio::spawn(async move {
            gate.run(move || {
                started_tx.send(()).unwrap();
                released.recv().unwrap();
                Ok(value)
            })
            .await
        });
        started.recv().unwrap();
        (task, release)
    }

    /// A call queued behind the held one, once it is counted as waiting.
    async fn queue(gate: &std::sync::Arc<HashGate>, value: i32) -> tokio::task::JoinHandle<Result<i32, AppError>> {
        let task = tokio::spawn({
            let gate = gate.clone();
            async move { gate.run(move || Ok(value)).await }
        });
        while gate.waiting.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        task
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hashing_runs_a_few_at_a_time_and_refuses_beyond_its_queue() {
        // One worker, one waiting place.
        let gate = std::sync::Arc::new(HashGate::new(1, 1));
        let (first, release) = hold(&gate, 1);
        let second = queue(&gate, 2).await;
        // The third finds the worker busy and the queue full: refused at once, 503 with a wait.
        let third = gate.run(|| Ok(3)).await.unwrap_err();
        assert_eq!(third, AppError::Busy { waiting: 1, limit: 1, retry_after_s: 1 });
        assert_eq!(third.status(), 503);
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(1));
        assert_eq!(second.await.unwrap(), Ok(2), "the waiting call runs once the worker is free");
        assert_eq!(gate.run(|| Ok(4)).await, Ok(4), "and the gate is open again");
        // A call dropped while it waits gives its place back.
        let (busy, release) = hold(&gate, 5);
        let queued = queue(&gate, 6).await;
        queued.abort();
        let _ = queued.await;
        assert_eq!(gate.waiting.load(std::sync::atomic::Ordering::SeqCst), 0, "the dropped call's place is free");
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Ok(5));
    }

    #[test]
    fn username_rules_name_the_allowed_range() {
        assert!(validate_username("kim_01").is_ok());
        assert!(validate_username("김바둑").is_ok());
        let e = validate_username("ab").unwrap_err();
        assert_eq!(e, AppError::input("username", InputProblem::Length { min: 3, max: 32, got: 2 }));
        assert_eq!(e.to_string(), "username: must be 3–32 characters, got 2");
        assert!(matches!(validate_username("a b c"), Err(AppError::InvalidInput { .. })));
    }

    #[test]
    fn name_keys_fold_case_fully_and_normalise_the_form() {
        // Full case folding, beyond ASCII: one name however it is cased.
        assert_eq!(name_key("Ärger_x"), name_key("ärger_x"));
        assert_eq!(name_key("ÄRGER_X"), "ärger_x");
        assert_eq!(name_key("STRASSE"), name_key("straße"));
        assert_eq!(name_key("straße"), "strasse");
        assert_eq!(name_key("ΣΊΣΥΦΟΣ"), name_key("σίσυφος"));
        assert_eq!(name_key("Kim_01"), "kim_01");
        // Canonical equivalents are one name: precomposed or decomposed, the Kelvin sign.
        assert_eq!(name_key("A\u{308}rger_x"), name_key("Ärger_x"));
        assert_eq!(name_key("\u{212A}im"), name_key("kim"));
        // Hangul composes back (the key stays readable NFC).
        assert_eq!(name_key("김바둑"), "김바둑");
        // Different names stay different.
        assert_ne!(name_key("arger_x"), name_key("ärger_x"));
        assert_ne!(name_key("kim_01"), name_key("kim-01"));
    }

    #[test]
    fn a_decomposed_name_is_stored_composed_and_valid() {
        let typed = "A\u{308}rger_x";
        assert!(validate_username(typed).is_err(), "a combining mark alone is no letter");
        assert_eq!(display_name(typed), "Ärger_x");
        assert!(validate_username(&display_name(typed)).is_ok());
    }

    /// Accounts from before migration 0003 get their keys at start; one that collides with
    /// an older account keeps none and is found by its exact name only.
    #[tokio::test]
    async fn older_accounts_get_their_keys_and_a_colliding_one_keeps_its_exact_name() {
        let dir = std::env::temp_dir().join(format!("sb-name-keys-{}", random_hex::<8>().unwrap()));
        let db = Db::open(&dir).await.unwrap();
        for name in ["Ärger_x", "ärger_x", "STRASSE", "Kim"] {
            on!(db.pool(), p => sqlx::query(
                "INSERT INTO users (username, password_hash, role, created_at_ms) VALUES ($1, 'x', 'player', 0)",
            )
            .bind(name)
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .unwrap();
        }
        assert_eq!(db.backfill_name_keys().await.unwrap(), 3);
        let keys: Vec<(String, Option<String>)> =
            on!(db.pool(), p => sqlx::query_as("SELECT username, name_key FROM users ORDER BY id").fetch_all(p).await)
                .unwrap();
        let key = |k: &str| Some(k.to_string());
        assert_eq!(
            keys,
            vec![
                ("Ärger_x".into(), key("ärger_x")),
                ("ärger_x".into(), None),
                ("STRASSE".into(), key("strasse")),
                ("Kim".into(), key("kim")),
            ]
        );
        assert_eq!(db.backfill_name_keys().await.unwrap(), 0, "nothing left but the collision");
        let named = |n: &'static str| {
            let db = db.clone();
            async move { db.user_by_name(n).await.unwrap().map(|u| u.username) }
        };
        assert_eq!(named("ärger_x").await.as_deref(), Some("ärger_x"), "the exact name first");
        assert_eq!(named("ÄRGER_X").await.as_deref(), Some("Ärger_x"), "else by key");
        assert_eq!(named("straße").await.as_deref(), Some("STRASSE"));
        assert_eq!(named(" kim ").await.as_deref(), Some("Kim"));
        assert_eq!(named("nobody").await, None);
        let taken = Err(AppError::input("username", InputProblem::Taken));
        assert_eq!(db.create_player("Straße", "long enough pw").await.map(|_| ()), taken);
        assert!(db.create_player("Straße_2", "long enough pw").await.is_ok());
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn password_length_is_checked() {
        assert!(validate_password("short").is_err());
        assert!(validate_password("long enough pw").is_ok());
    }

    #[test]
    fn dummy_hash_parses() {
        assert!(PasswordHash::new(DUMMY_HASH).is_ok());
    }
}
