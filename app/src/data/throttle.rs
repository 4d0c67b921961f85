//! Sign-in throttling: after a few free failures, each key (user name, client address) must
//! wait an exponentially growing delay before the next attempt is even checked.
//!
//! The failures per key are kept in the database, so every instance sees the same counts and a
//! restart forgets none.

use std::sync::Arc;

use super::{internal, on, Cols, Db, Neutral};
use crate::{clock::Clock, AppError};

/// Failures allowed before any delay applies.
pub const FREE_FAILURES: u32 = 5;
/// The longest delay: 15 minutes.
pub const MAX_DELAY_MS: i64 = 15 * 60 * 1000;
/// A key with no failure for this long starts afresh.
pub const FORGET_AFTER_MS: i64 = 60 * 60 * 1000;

#[derive(Debug, Clone, Copy)]
struct Entry {
    failures: u32,
    last_failure_ms: i64,
}

impl Entry {
    fn locked_until(&self) -> i64 {
        if self.failures < FREE_FAILURES {
            return i64::MIN;
        }
        let exp = (self.failures - FREE_FAILURES).min(20);
        self.last_failure_ms + (1000_i64 << exp).min(MAX_DELAY_MS)
    }
}

/// The throttle's counts live in the database: every instance sees the same failures, and
/// a restart forgets none.
#[derive(Debug)]
pub struct SignInThrottle {
    clock: Arc<dyn Clock>,
    db: Db,
}

impl SignInThrottle {
    pub fn new(db: Db, clock: Arc<dyn Clock>) -> Self {
        SignInThrottle { clock, db }
    }

    /// Keys for one attempt: the user name (by its key: every casing of a name is one name)
    /// and, if known, the client address.
    pub fn keys(username: &str, client: Option<std::net::IpAddr>) -> Vec<String> {
        let mut keys = vec![format!("user:{}", super::accounts::name_key(username))];
        if let Some(ip) = client {
            keys.push(format!("ip:{ip}"));
        }
        keys
    }

    /// Refuses the attempt while any of its keys is locked, naming the wait.
    pub async fn check(&self, keys: &[String]) -> Result<(), AppError> {
        let now = self.clock.now_ms();
        let mut until = i64::MIN;
        for key in keys {
            let row = on!(self.db.pool(), p => sqlx::query(
                "SELECT failures, last_failure_ms FROM sign_in_failures WHERE key = $1",
            )
            .bind(key)
            .fetch_optional(p)
            .await
            .map(Neutral::neutral))
            .map_err(internal)?;
            if let Some(r) = row {
                let failures: i64 = r.col("failures")?;
                let entry = Entry {
                    failures: u32::try_from(failures).unwrap_or(u32::MAX),
                    last_failure_ms: r.col("last_failure_ms")?,
                };
                if now - entry.last_failure_ms < FORGET_AFTER_MS {
                    until = until.max(entry.locked_until());
                }
            }
        }
        match until {
            t if t > now => Err(AppError::Throttled { retry_after_s: ((t - now + 999) / 1000) as u64 }),
            _ => Ok(()),
        }
    }

    /// Counts a failed attempt against each key (a key an hour without failures starts
    /// afresh; such keys are forgotten, so the table stays small).
    pub async fn record_failure(&self, keys: &[String]) -> Result<(), AppError> {
        let now = self.clock.now_ms();
        on!(self.db.pool(), p => sqlx::query("DELETE FROM sign_in_failures WHERE last_failure_ms <= $1")
            .bind(now - FORGET_AFTER_MS)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))
        .map_err(internal)?;
        for key in keys {
            on!(self.db.pool(), p => sqlx::query(
                "INSERT INTO sign_in_failures (key, failures, last_failure_ms) VALUES ($1, 1, $2) \
                 ON CONFLICT (key) DO UPDATE SET failures = sign_in_failures.failures + 1, last_failure_ms = $2",
            )
            .bind(key)
            .bind(now)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))
            .map_err(internal)?;
        }
        Ok(())
    }

    /// A correct password clears the user-name key (not the address: one good account must
    /// not unlock guessing at others from the same place).
    pub async fn record_success(&self, username: &str) -> Result<(), AppError> {
        on!(self.db.pool(), p => sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
            .bind(format!("user:{}", super::accounts::name_key(username)))
            .execute(p)
            .await
            .map(|r| r.rows_affected()))
        .map_err(internal)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    async fn throttle(start_ms: i64) -> (SignInThrottle, ManualClock, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("sb-throttle-{}", super::super::secrets::random_hex::<8>().unwrap()));
        let db = Db::open(&dir).await.unwrap();
        let clock = ManualClock::new(start_ms);
        (SignInThrottle::new(db, Arc::new(clock.clone())), clock, dir)
    }

    #[tokio::test]
    async fn free_failures_then_growing_delays_then_forgiveness() {
        let (t, clock, dir) = throttle(10_000_000).await;
        let keys = SignInThrottle::keys("Kim", None);
        for _ in 0..FREE_FAILURES - 1 {
            t.record_failure(&keys).await.unwrap();
            assert!(t.check(&keys).await.is_ok());
        }
        t.record_failure(&keys).await.unwrap(); // 5th failure: 1 s
        assert_eq!(t.check(&keys).await, Err(AppError::Throttled { retry_after_s: 1 }));
        clock.advance_ms(1000);
        assert!(t.check(&keys).await.is_ok());
        t.record_failure(&keys).await.unwrap(); // 6th: 2 s
        assert_eq!(t.check(&keys).await, Err(AppError::Throttled { retry_after_s: 2 }));
        for _ in 0..30 {
            t.record_failure(&keys).await.unwrap();
        }
        assert_eq!(t.check(&keys).await, Err(AppError::Throttled { retry_after_s: 900 }), "capped at 15 min");
        // Case-insensitive: "kim" is the same account.
        assert!(t.check(&SignInThrottle::keys("kim", None)).await.is_err());
        clock.advance_ms(FORGET_AFTER_MS);
        assert!(t.check(&keys).await.is_ok());
        t.record_failure(&keys).await.unwrap();
        assert!(t.check(&keys).await.is_ok(), "an hour without failures starts afresh");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn address_key_throttles_spraying_across_names() {
        let (t, _clock, dir) = throttle(10_000_000).await;
        let ip = Some("192.0.2.7".parse().unwrap());
        for i in 0..FREE_FAILURES {
            t.record_failure(&SignInThrottle::keys(&format!("user{i}"), ip)).await.unwrap();
        }
        assert!(t.check(&SignInThrottle::keys("someone-else", ip)).await.is_err());
        assert!(t.check(&SignInThrottle::keys("someone-else", None)).await.is_ok());
        t.record_success("someone-else").await.unwrap();
        assert!(t.check(&SignInThrottle::keys("x", ip)).await.is_err(), "success does not clear the address");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
