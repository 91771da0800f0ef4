//! The clock the ledger reads: the system clock in service, a settable one in tests so a
//! test can cross a month boundary. Every command of the binary takes it from one place,
//! [`from_setting`] (`--clock-start`, `--clock-stopped`), so a test of the real binary can
//! name the month its conversions are charged to.

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

/// The system clock moved by a fixed amount: it starts at a given instant and runs at the
/// system clock's pace.
#[derive(Debug, Clone, Copy)]
pub struct ShiftedClock {
    shift: chrono::TimeDelta,
}

impl ShiftedClock {
    /// A clock that reads `start` now.
    pub fn starting_at(start: DateTime<Utc>) -> ShiftedClock {
        ShiftedClock { shift: start - Utc::now() }
    }
}

impl Clock for ShiftedClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.shift
    }
}

/// The clock of a command: the system clock without a start; with one, a clock that starts
/// there and runs, or stands still there when `stopped`.
pub fn from_setting(start: Option<DateTime<Utc>>, stopped: bool) -> Arc<dyn Clock> {
    match start {
        None => Arc::new(SystemClock),
        Some(start) if stopped => Arc::new(ManualClock::new(start)),
        Some(start) => Arc::new(ShiftedClock::starting_at(start)),
    }
}

/// Milliseconds since the Unix epoch, the unit of every stored time.
pub fn unix_ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_started_clock_runs_from_its_start_and_a_stopped_one_stands() {
        let start: DateTime<Utc> = "2026-01-31T23:59:59.900Z".parse().unwrap();
        let running = from_setting(Some(start), false).now();
        assert!(running >= start && running - start < chrono::TimeDelta::seconds(5), "{running}");
        assert_eq!(from_setting(Some(start), true).now(), start);
        let system = from_setting(None, true).now();
        assert!((system - Utc::now()).abs() < chrono::TimeDelta::seconds(5));
    }
}
