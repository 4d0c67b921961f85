//! The sessions requests carry, kept in memory in front of the SQLite session store (issue
//! 15 §1), so that a command costs no query to find its session. Written through
//! (`CachingSessionStore` creates, saves and deletes in both), so the store stays the truth
//! across restarts; bounded, so that a flood of sign-ins cannot grow it without limit. One
//! process's memory: with several instances each would need the others' deletions.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use async_trait::async_trait;
use tower_sessions::{
    cookie::time::OffsetDateTime,
    session::{Id, Record},
    session_store::{self, SessionStore},
};

/// Beyond this many sessions the cache starts again (each is a few hundred bytes).
const CAPACITY: usize = 100_000;

#[derive(Debug, Clone, Default)]
pub struct SessionCache(Arc<Mutex<HashMap<Id, Record>>>);

impl SessionCache {
    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<Id, Record>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait]
impl SessionStore for SessionCache {
    /// The store made the id unique before the cache is told.
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        self.save(record).await
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        let mut sessions = self.sessions();
        if sessions.len() >= CAPACITY && !sessions.contains_key(&record.id) {
            sessions.clear();
        }
        sessions.insert(record.id, record.clone());
        Ok(())
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        let now = OffsetDateTime::now_utc();
        Ok(self.sessions().get(id).filter(|r| r.expiry_date > now).cloned())
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        self.sessions().remove(id);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_sessions::cookie::time::Duration;

    fn record(expires_in: Duration) -> Record {
        Record { id: Id::default(), data: Default::default(), expiry_date: OffsetDateTime::now_utc() + expires_in }
    }

    #[tokio::test]
    async fn kept_until_deleted_or_expired() {
        let cache = SessionCache::default();
        let mut live = record(Duration::hours(1));
        cache.create(&mut live).await.unwrap();
        assert_eq!(cache.load(&live.id).await.unwrap().map(|r| r.id), Some(live.id));
        cache.delete(&live.id).await.unwrap();
        assert!(cache.load(&live.id).await.unwrap().is_none(), "a deleted session (signed out) is gone");
        let old = record(Duration::seconds(-1));
        cache.save(&old).await.unwrap();
        assert!(cache.load(&old.id).await.unwrap().is_none(), "an expired one is not served");
    }
}
