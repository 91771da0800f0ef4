//! The clock the ledger reads: the system clock in service, a settable one in tests so a
//! test can cross a month boundary.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

/// Where "now" comes from.
pub trait Clock: Send + Sync + 'static {
    /// The current instant, UTC.
    fn now(&self) -> DateTime<Utc>;
}

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that shows what it was last set to; clones share the time.
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl ManualClock {
    /// A clock standing at `now`.
    pub fn new(now: DateTime<Utc>) -> ManualClock {
        ManualClock { now: Arc::new(Mutex::new(now)) }
    }

    /// Moves the clock to `now`.
    pub fn set(&self, now: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = now;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Milliseconds since the Unix epoch, the unit of every stored time.
pub fn unix_ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}
