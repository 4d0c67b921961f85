//! Sign-in throttling: after a few free failures, each key (user name, client address) must
//! wait an exponentially growing delay before the next attempt is even checked.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use crate::{clock::Clock, AppError};

/// Failures allowed before any delay applies.
pub const FREE_FAILURES: u32 = 5;
/// The longest delay: 15 minutes.
pub const MAX_DELAY_MS: i64 = 15 * 60 * 1000;
/// A key with no failure for this long starts afresh.
pub const FORGET_AFTER_MS: i64 = 60 * 60 * 1000;
/// Bound on remembered keys, so a flood of names cannot exhaust memory.
const MAX_KEYS: usize = 100_000;

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

#[derive(Debug)]
pub struct SignInThrottle {
    clock: Arc<dyn Clock>,
    entries: Mutex<HashMap<String, Entry>>,
}

impl SignInThrottle {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        SignInThrottle { clock, entries: Mutex::new(HashMap::new()) }
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
    pub fn check(&self, keys: &[String]) -> Result<(), AppError> {
        let now = self.clock.now_ms();
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let until = keys.iter().filter_map(|k| entries.get(k)).map(Entry::locked_until).max();
        match until {
            Some(t) if t > now => Err(AppError::Throttled { retry_after_s: ((t - now + 999) / 1000) as u64 }),
            _ => Ok(()),
        }
    }

    pub fn record_failure(&self, keys: &[String]) {
        let now = self.clock.now_ms();
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_KEYS {
            entries.retain(|_, e| now - e.last_failure_ms < FORGET_AFTER_MS);
        }
        for k in keys {
            let e = entries.entry(k.clone()).or_insert(Entry { failures: 0, last_failure_ms: now });
            if now - e.last_failure_ms >= FORGET_AFTER_MS {
                e.failures = 0;
            }
            e.failures = e.failures.saturating_add(1);
            e.last_failure_ms = now;
        }
    }

    /// A correct password clears the user-name key (not the address: one good account must
    /// not unlock guessing at others from the same place).
    pub fn record_success(&self, username: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.remove(&format!("user:{}", super::accounts::name_key(username)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    #[test]
    fn free_failures_then_growing_delays_then_forgiveness() {
        let clock = ManualClock::new(1_000_000);
        let t = SignInThrottle::new(Arc::new(clock.clone()));
        let keys = SignInThrottle::keys("Kim", None);
        for _ in 0..FREE_FAILURES - 1 {
            t.record_failure(&keys);
            assert!(t.check(&keys).is_ok());
        }
        t.record_failure(&keys); // 5th failure: 1 s
        assert_eq!(t.check(&keys), Err(AppError::Throttled { retry_after_s: 1 }));
        clock.advance_ms(1000);
        assert!(t.check(&keys).is_ok());
        t.record_failure(&keys); // 6th: 2 s
        assert_eq!(t.check(&keys), Err(AppError::Throttled { retry_after_s: 2 }));
        for _ in 0..30 {
            t.record_failure(&keys);
        }
        assert_eq!(t.check(&keys), Err(AppError::Throttled { retry_after_s: 900 }), "capped at 15 min");
        // Case-insensitive: "kim" is the same account.
        assert!(t.check(&SignInThrottle::keys("kim", None)).is_err());
        clock.advance_ms(FORGET_AFTER_MS);
        assert!(t.check(&keys).is_ok());
        t.record_failure(&keys);
        assert!(t.check(&keys).is_ok(), "an hour without failures starts afresh");
    }

    #[test]
    fn address_key_throttles_spraying_across_names() {
        let clock = ManualClock::new(0);
        let t = SignInThrottle::new(Arc::new(clock));
        let ip = Some("192.0.2.7".parse().unwrap());
        for i in 0..FREE_FAILURES {
            t.record_failure(&SignInThrottle::keys(&format!("user{i}"), ip));
        }
        assert!(t.check(&SignInThrottle::keys("someone-else", ip)).is_err());
        assert!(t.check(&SignInThrottle::keys("someone-else", None)).is_ok());
        t.record_success("someone-else");
        assert!(t.check(&SignInThrottle::keys("x", ip)).is_err(), "success does not clear the address");
    }
}
