//! Service metrics in the Prometheus text format: requests by status, conversion latency,
//! render queue depth, credits debited, and the database pool and its retried transactions.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds (seconds) of the conversion latency histogram.
const LATENCY_BUCKETS: [f64; 14] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0];

/// Counters shared by all HTTP workers.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(&'static str, u16), u64>>,
    latency_buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_micros: AtomicU64,
    credits_debited: AtomicU64,
    conversions_failed: AtomicU64,
}

/// Gauges read at scrape time.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gauges {
    /// Jobs admitted to the render pool (rendering or waiting).
    pub queue_depth: usize,
    /// Jobs waiting for a worker.
    pub queue_waiting: usize,
    /// Render threads.
    pub workers: usize,
    /// Database connections open.
    pub db_connections: u32,
    /// Of those, the idle ones.
    pub db_connections_idle: u32,
    /// Largest pool allowed (`--db-max-connections`).
    pub db_max_connections: u32,
    /// Ledger transactions run again after a deadlock, serialization failure or broken
    /// connection, since the process started.
    pub db_retries: u64,
}

impl Metrics {
    /// Counts one answered request on `route` with `status`.
    pub fn request(&self, route: &'static str, status: u16) {
        let mut map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *map.entry((route, status)).or_default() += 1;
    }

    /// Records how long a successful conversion took, end to end.
    pub fn conversion(&self, took: Duration) {
        let secs = took.as_secs_f64();
        for (bucket, bound) in self.latency_buckets.iter().zip(LATENCY_BUCKETS) {
            if secs <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_micros.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    /// Records credits committed to the ledger.
    pub fn debited(&self, credits: i64) {
        self.credits_debited.fetch_add(credits.max(0) as u64, Ordering::Relaxed);
    }

    /// Records a conversion that failed after admission.
    pub fn failed(&self) {
        self.conversions_failed.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self, gauges: Gauges) -> String {
        let mut out = String::with_capacity(2048);
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        header(&mut out, "docx2pdf_http_requests_total", "HTTP requests answered, by route and status.", "counter");
        for ((route, status), n) in self.requests.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "docx2pdf_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}");
        }
        header(&mut out, "docx2pdf_conversion_seconds", "Time of successful conversions, upload to PDF.", "histogram");
        for (bucket, bound) in self.latency_buckets.iter().zip(LATENCY_BUCKETS) {
            let _ = writeln!(out, "docx2pdf_conversion_seconds_bucket{{le=\"{bound}\"}} {}", load(bucket));
        }
        let count = load(&self.latency_count);
        let _ = writeln!(out, "docx2pdf_conversion_seconds_bucket{{le=\"+Inf\"}} {count}");
        let sum = load(&self.latency_sum_micros) as f64 / 1e6;
        let _ = writeln!(out, "docx2pdf_conversion_seconds_sum {sum}");
        let _ = writeln!(out, "docx2pdf_conversion_seconds_count {count}");
        let failed = load(&self.conversions_failed);
        single(&mut out, "docx2pdf_conversions_failed_total", "Conversions that failed after admission.", "counter", failed);
        single(&mut out, "docx2pdf_render_queue_depth", "Render jobs admitted and not finished.", "gauge", gauges.queue_depth);
        single(&mut out, "docx2pdf_render_queue_waiting", "Render jobs waiting for a worker.", "gauge", gauges.queue_waiting);
        single(&mut out, "docx2pdf_render_workers", "Render worker threads.", "gauge", gauges.workers);
        let debited = load(&self.credits_debited);
        single(&mut out, "docx2pdf_credits_debited_total", "Credits committed to the ledger by this process.", "counter", debited);
        single(&mut out, "docx2pdf_db_connections", "Database connections open in this process's pool.", "gauge", gauges.db_connections);
        let idle = gauges.db_connections_idle;
        single(&mut out, "docx2pdf_db_connections_idle", "Open database connections waiting for work.", "gauge", idle);
        single(&mut out, "docx2pdf_db_connections_max", "Largest database pool allowed.", "gauge", gauges.db_max_connections);
        let retries_help = "Ledger transactions run again after a deadlock, serialization failure or broken connection.";
        single(&mut out, "docx2pdf_db_retries_total", retries_help, "counter", gauges.db_retries);
        out
    }
}

/// A metric's `# HELP` and `# TYPE` lines.
fn header(out: &mut String, name: &str, help: &str, kind: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A metric of one value, with its header.
fn single(out: &mut String, name: &str, help: &str, kind: &str, value: impl std::fmt::Display) {
    header(out, name, help, kind);
    let _ = writeln!(out, "{name} {value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_lands_in_every_bucket_at_or_above_it() {
        let m = Metrics::default();
        m.conversion(Duration::from_millis(30));
        let text = m.render(Gauges::default());
        assert!(text.contains("docx2pdf_conversion_seconds_bucket{le=\"0.025\"} 0"));
        assert!(text.contains("docx2pdf_conversion_seconds_bucket{le=\"0.05\"} 1"));
        assert!(text.contains("docx2pdf_conversion_seconds_bucket{le=\"+Inf\"} 1"));
    }

    #[test]
    fn requests_are_counted_by_route_and_status() {
        let m = Metrics::default();
        m.request("/api/convert", 200);
        m.request("/api/convert", 200);
        m.request("/api/convert", 401);
        let text = m.render(Gauges::default());
        assert!(text.contains("docx2pdf_http_requests_total{route=\"/api/convert\",status=\"200\"} 2"));
        assert!(text.contains("docx2pdf_http_requests_total{route=\"/api/convert\",status=\"401\"} 1"));
    }

    #[test]
    fn the_database_pool_is_reported() {
        let gauges =
            Gauges { db_connections: 5, db_connections_idle: 3, db_max_connections: 16, db_retries: 2, ..Gauges::default() };
        let text = Metrics::default().render(gauges);
        assert!(text.contains("docx2pdf_db_connections 5\n"));
        assert!(text.contains("docx2pdf_db_connections_idle 3\n"));
        assert!(text.contains("docx2pdf_db_connections_max 16\n"));
        assert!(text.contains("docx2pdf_db_retries_total 2\n"));
    }
}
