//! Time as a dependency: the server uses the system clock, tests a manual one, so rules that
//! depend on time (throttling now, game clocks later) are tested without sleeping.

use std::sync::{
    atomic::{AtomicI64, Ordering},
    Arc,
};

pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
    /// Completes once `now_ms() >= at_ms` (game timers wait on this).
    #[cfg(feature = "ssr")]
    fn sleep_until(&self, at_ms: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>>;
}

#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
    }
    #[cfg(feature = "ssr")]
    fn sleep_until(&self, at_ms: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            // Re-check after waking: the system clock may have been adjusted meanwhile.
            loop {
                let left = at_ms - self.now_ms();
                if left <= 0 {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(left as u64)).await;
            }
        })
    }
}

/// A clock that moves only when told to; timers waiting on it wake when it is advanced.
#[derive(Debug, Default, Clone)]
pub struct ManualClock {
    now: Arc<AtomicI64>,
    #[cfg(feature = "ssr")]
    moved: Arc<tokio::sync::Notify>,
}

impl ManualClock {
    pub fn new(start_ms: i64) -> Self {
        ManualClock {
            now: Arc::new(AtomicI64::new(start_ms)),
            #[cfg(feature = "ssr")]
            moved: Default::default(),
        }
    }
    pub fn advance_ms(&self, ms: i64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
        #[cfg(feature = "ssr")]
        self.moved.notify_waiters();
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }
    #[cfg(feature = "ssr")]
    fn sleep_until(&self, at_ms: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            loop {
                let moved = self.moved.notified();
                tokio::pin!(moved);
                // Register before checking, so an advance in between is not missed.
                moved.as_mut().enable();
                if self.now_ms() >= at_ms {
                    return;
                }
                moved.await;
            }
        })
    }
}
