//! The time every transaction runs at: the system clock, moved forward by an offset tests
//! control, so a 7-day restore window is tested without waiting 7 days.

use chrono::{DateTime, Duration, Utc};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// A clock: system time plus an offset in seconds. Clones share the offset.
#[derive(Clone, Default)]
pub struct Clock {
    offset: Arc<AtomicI64>,
}

impl Clock {
    /// Now, as the sandbox sees it.
    pub fn now(&self) -> DateTime<Utc> {
        // Whole milliseconds: what JSON timestamps keep, so a value read back compares equal.
        let now = Utc::now() + Duration::seconds(self.offset.load(Ordering::Relaxed));
        DateTime::from_timestamp_millis(now.timestamp_millis()).unwrap_or(now)
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        self.offset.fetch_add(by.num_seconds(), Ordering::Relaxed);
    }
}
