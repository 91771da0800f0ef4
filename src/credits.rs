//! What a conversion costs and which month it counts against (API.md, "Credits").

use std::fmt;

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};

/// One "MB" of the price list is binary: 1,048,576 bytes (API.md).
pub use docx2pdf_render::units::MIB;

/// Each started 5 MB step of upload costs one credit.
pub const BYTES_PER_CREDIT: u64 = 5 * MIB;

/// Credits for an upload of `bytes`: `max(1, ceil(bytes / 5 MB))`, so 5,242,880 bytes
/// cost 1 and one byte more costs 2.
pub fn credits_for(bytes: u64) -> i64 {
    bytes.div_ceil(BYTES_PER_CREDIT).max(1) as i64
}

/// A calendar month in UTC, the period of an allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    year: i32,
    month: u32,
}

impl Month {
    /// The month holding the instant `t`.
    pub fn of(t: DateTime<Utc>) -> Month {
        Month { year: t.year(), month: t.month() }
    }

    /// Parses `YYYY-MM`.
    pub fn parse(s: &str) -> Option<Month> {
        let (y, m) = s.split_once('-')?;
        if y.len() != 4 || m.len() != 2 {
            return None;
        }
        let month = Month { year: y.parse().ok()?, month: m.parse().ok()? };
        (1..=12).contains(&month.month).then_some(month)
    }

    /// The first instant of the following month: when this month's allowance resets.
    pub fn reset_at(self) -> DateTime<Utc> {
        let (y, m) = if self.month == 12 { (self.year + 1, 1) } else { (self.year, self.month + 1) };
        let day = NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(NaiveDate::MAX);
        Utc.from_utc_datetime(&day.and_hms_opt(0, 0, 0).unwrap_or_default())
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// `resetAt` as API.md writes it: UTC with milliseconds, e.g. `2026-12-01T00:00:00.000Z`.
pub fn format_reset_at(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_five_mib_costs_one_credit_and_one_byte_more_costs_two() {
        assert_eq!(credits_for(5_242_880), 1);
        assert_eq!(credits_for(5_242_881), 2);
    }

    #[test]
    fn tiny_files_cost_one_credit_and_steps_follow_the_ceiling() {
        assert_eq!(credits_for(1), 1);
        assert_eq!(credits_for(0), 1);
        assert_eq!(credits_for(10 * MIB), 2);
        assert_eq!(credits_for(10 * MIB + 1), 3);
        assert_eq!(credits_for(50 * MIB), 10);
    }

    #[test]
    fn december_resets_on_the_first_of_january() {
        let t = Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 59).unwrap();
        assert_eq!(format_reset_at(Month::of(t).reset_at()), "2027-01-01T00:00:00.000Z");
    }

    #[test]
    fn months_print_and_parse_as_year_dash_month() {
        let m = Month::parse("2026-11").unwrap();
        assert_eq!(m.to_string(), "2026-11");
        assert_eq!(Month::parse("2026-13"), None);
        assert_eq!(Month::parse("26-1"), None);
    }
}
