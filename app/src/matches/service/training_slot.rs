//! The one training run at a time (003 §12.3) and its progress. The service keeps it so that
//! every caller (the run, the page that shows it, a second request refused while it runs)
//! sees the same run; `crate::learning::service` runs it and writes its progress here.

use std::sync::{Arc, Mutex};

use wire::learning::TrainingStatus;

#[derive(Clone, Default)]
pub struct Training(Arc<Mutex<TrainingStatus>>);

impl Training {
    pub fn status(&self) -> TrainingStatus {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub(crate) fn update(&self, f: impl FnOnce(&mut TrainingStatus)) {
        if let Ok(mut s) = self.0.lock() {
            f(&mut s);
        }
    }
}
