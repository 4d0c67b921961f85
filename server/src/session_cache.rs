//! The sessions requests carry, kept in memory in front of the database's session store,
//! so that a command costs no query to find its session. Written through
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

/// The sessions' own table in the server's database (tower-sessions' store for it).
#[derive(Debug, Clone)]
pub enum DbSessionStore {
    Sqlite(tower_sessions_sqlx_store::SqliteStore),
    Postgres(tower_sessions_sqlx_store::PostgresStore),
}

impl DbSessionStore {
    /// The store on `pool`, its table made if missing.
    pub async fn new(pool: &app::data::backend::Pool) -> Result<Self, crate::StartError> {
        use app::data::backend::Backend;
        let store = match pool {
            Backend::Sqlite(p) => Self::Sqlite(tower_sessions_sqlx_store::SqliteStore::new(p.clone())),
            Backend::Postgres(p) => Self::Postgres(tower_sessions_sqlx_store::PostgresStore::new(p.clone())),
        };
        match &store {
            Self::Sqlite(s) => s.migrate().await,
            Self::Postgres(s) => s.migrate().await,
        }
        .map_err(|e| crate::StartError::Sessions(e.to_string()))?;
        Ok(store)
    }

    /// Deletes expired sessions every hour, in the background.
    pub fn delete_expired_hourly(&self) {
        use tower_sessions::ExpiredDeletion;
        let store = self.clone();
        tokio::spawn(async move {
            let every = std::time::Duration::from_secs(3600);
            let stopped = match store {
                Self::Sqlite(s) => s.continuously_delete_expired(every).await,
                Self::Postgres(s) => s.continuously_delete_expired(every).await,
            };
            if let Err(e) = stopped {
                tracing::warn!(error = %e, "expired-session cleanup stopped");
            }
        });
    }
}

#[async_trait]
impl SessionStore for DbSessionStore {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Self::Sqlite(s) => s.create(record).await,
            Self::Postgres(s) => s.create(record).await,
        }
    }
    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Self::Sqlite(s) => s.save(record).await,
            Self::Postgres(s) => s.save(record).await,
        }
    }
    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Self::Sqlite(s) => s.load(id).await,
            Self::Postgres(s) => s.load(id).await,
        }
    }
    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Self::Sqlite(s) => s.delete(id).await,
            Self::Postgres(s) => s.delete(id).await,
        }
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
