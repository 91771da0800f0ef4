//! The clock of the binary's processes in tests (`DOCX2PDF_CLOCK_START`): one clock per
//! test process, started mid-month when first asked and running from there, so a run that
//! crosses midnight on the 1st charges the month the tests read, and a process started
//! later (a server restarted after a crash) never sees time run back.

#![allow(dead_code)]

use std::sync::OnceLock;
use std::time::Instant;

use chrono::{DateTime, SecondsFormat, Utc};

/// The instant the tests' clock starts at.
pub const START: &str = "2026-03-15T12:00:00Z";

/// The month of [`START`], which the tests' usage reads name.
pub const MONTH: &str = "2026-03";

/// The clock's time now, for `DOCX2PDF_CLOCK_START` of a process started now.
pub fn now() -> String {
    static FIRST: OnceLock<Instant> = OnceLock::new();
    let elapsed = FIRST.get_or_init(Instant::now).elapsed();
    let start: DateTime<Utc> = START.parse().expect("an RFC 3339 instant");
    (start + chrono::TimeDelta::from_std(elapsed).expect("a short run")).to_rfc3339_opts(SecondsFormat::Millis, true)
}
