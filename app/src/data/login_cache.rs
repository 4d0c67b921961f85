//! Open logins the database confirmed recently, so that a command costs no query for who sent
//! it. Anything that can end a login or change an account's standing (sign-out, ending a
//! sign-in, a password change or reset, a role change, disabling) calls
//! [`LoginCache::changed`] after its commit; entries filled before that are no longer trusted.
//! One process's memory: on PostgreSQL the change is rung to the other instances too
//! (`doorbell`), whose listeners call `changed` on theirs.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex,
    },
};

use super::User;

/// Beyond this many cached logins the cache starts again (bounded memory).
const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, Default)]
pub(crate) struct LoginCache {
    generation: AtomicU64,
    entries: Mutex<HashMap<String, Entry>>,
}

#[derive(Debug, Clone)]
struct Entry {
    user: User,
    /// When the database last said the login was open (its `last_seen_ms` then).
    seen_ms: i64,
    generation: u64,
}

impl LoginCache {
    /// The generation to pass to [`LoginCache::put`]: read before the query it caches.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The login's account if the database confirmed it within `fresh_ms` of `now` and
    /// nothing changed since.
    pub fn get(&self, login: &str, now: i64, fresh_ms: i64) -> Option<User> {
        let current = self.generation();
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let e = entries.get(login)?;
        (e.generation == current && now - e.seen_ms <= fresh_ms).then(|| e.user.clone())
    }

    /// Remembers what a query that started at `generation` found.
    pub fn put(&self, login: &str, user: User, seen_ms: i64, generation: u64) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(login.to_string(), Entry { user, seen_ms, generation });
    }

    /// Something that can end a login or change an account was committed.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Role;

    fn alice() -> User {
        User { id: 1, username: "alice".into(), role: Role::Player }
    }

    #[test]
    fn an_entry_is_trusted_until_a_change_or_until_it_is_stale() {
        let cache = LoginCache::default();
        let g = cache.generation();
        cache.put("l1", alice(), 1_000, g);
        assert_eq!(cache.get("l1", 1_500, 1_000).map(|u| u.id), Some(1));
        assert!(cache.get("l1", 2_001, 1_000).is_none(), "older than fresh_ms");
        assert!(cache.get("l2", 1_500, 1_000).is_none());
        cache.changed();
        assert!(cache.get("l1", 1_500, 1_000).is_none(), "a change drops it");
    }

    #[test]
    fn a_query_that_raced_a_change_is_not_trusted() {
        let cache = LoginCache::default();
        let before = cache.generation();
        cache.changed(); // e.g. the account was disabled while the query ran
        cache.put("l1", alice(), 1_000, before);
        assert!(cache.get("l1", 1_000, 1_000).is_none());
    }
}
