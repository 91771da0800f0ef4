//! `docx2pdf bench-load`: posts documents to a running service at a fixed concurrency and reports throughput, latency percentiles, status counts and the server's peak memory, as figure lines (docs/performance.md).

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;

use super::CliError;
use crate::config::BenchLoadArgs;

/// The multipart boundary of the bodies sent (never inside a DOCX's zip bytes by accident:
/// the body length is declared, the boundary only closes the part).
const BOUNDARY: &str = "docx2pdf-bench-load-7d1f0c";

/// One finished request: its latency and its status (`None`: no answer).
struct Sample {
    latency: Duration,
    status: Option<u16>,
}

/// What a run measured.
#[derive(Debug)]
pub struct Report {
    /// Requests sent.
    pub requests: usize,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Latency percentiles p50, p95, p99 and the maximum.
    pub p50: Duration,
    pub p95: Duration,
    pub p99: Duration,
    pub max: Duration,
    /// Answers by HTTP status; `transport` counts requests that got none.
    pub statuses: BTreeMap<u16, usize>,
    pub transport_errors: usize,
    /// The server process, when it runs on this machine and could be found.
    pub server: Option<ServerMemory>,
}

/// Memory of the server process over the run, from `/proc/PID/status`.
#[derive(Debug, Clone, Copy)]
pub struct ServerMemory {
    pub pid: u32,
    /// `VmHWM`: the kernel's high-water mark of resident memory, reset at the start of the
    /// run when the process allows it (else since the server started).
    pub peak_rss_kib: u64,
    /// Whether `peak_rss_kib` covers the run alone.
    pub peak_reset: bool,
    /// The largest `VmRSS` seen by sampling every 20 ms during the run.
    pub sampled_max_rss_kib: u64,
}

impl Report {
    /// Requests per second over the run.
    pub fn throughput(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The report in the figure format the comparison script shares (docs/performance.md):
    /// one `figure NAME VALUE UNIT [KEY=VALUE ...]` line per measurement, `context` (the
    /// run's settings) on each.
    pub fn figures(&self, context: &str) -> String {
        let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
        let mut out = String::new();
        let mut line = |name: &str, value: String, unit: &str| out.push_str(&figure(name, &value, unit, context));
        line("http.requests", self.requests.to_string(), "count");
        line("http.elapsed", format!("{:.3}", self.elapsed.as_secs_f64()), "s");
        line("http.throughput", format!("{:.1}", self.throughput()), "requests/s");
        line("http.latency.p50", ms(self.p50), "ms");
        line("http.latency.p95", ms(self.p95), "ms");
        line("http.latency.p99", ms(self.p99), "ms");
        line("http.latency.max", ms(self.max), "ms");
        for (status, n) in &self.statuses {
            line(&format!("http.status.{status}"), n.to_string(), "count");
        }
        line("http.transport_errors", self.transport_errors.to_string(), "count");
        match &self.server {
            Some(m) => {
                let mb = |kib: u64| format!("{:.1}", kib as f64 / 1024.0);
                let scope = if m.peak_reset { "run" } else { "since-start" };
                let context = format!("{context} pid={} scope={scope}", m.pid);
                out.push_str(&figure("server.peak_rss", &mb(m.peak_rss_kib), "MB", &context));
                out.push_str(&figure("server.sampled_rss_max", &mb(m.sampled_max_rss_kib), "MB", &context));
            }
            None => out.push_str("# server memory: the server process was not found on this machine\n"),
        }
        out
    }
}

/// One line of the figure format: `figure NAME VALUE UNIT [KEY=VALUE ...]`.
pub fn figure(name: &str, value: &str, unit: &str, context: &str) -> String {
    let mut line = format!("figure {name} {value} {unit}");
    if !context.is_empty() {
        line.push(' ');
        line.push_str(context);
    }
    line.push('\n');
    line
}

/// Runs the load and prints the report.
pub fn run(args: BenchLoadArgs) -> Result<(), CliError> {
    let report = measure(&args)?;
    let context = format!("tool=bench-load concurrency={} files={}", args.concurrency.max(1), args.files.len());
    super::emit(&report.figures(&context));
    Ok(())
}

/// Runs the load: `concurrency` clients post the files round-robin until `requests` have
/// been answered.
pub fn measure(args: &BenchLoadArgs) -> Result<Report, CliError> {
    if args.files.is_empty() {
        return Err(CliError::Usage("bench-load needs at least one FILE".into()));
    }
    let bodies: Vec<Bytes> = args
        .files
        .iter()
        .map(|p| {
            std::fs::read(p)
                .map(|b| multipart_body(p, &b))
                .map_err(|source| CliError::Read {
                    path: p.clone(),
                    source,
                })
        })
        .collect::<Result<_, _>>()?;
    let url = convert_url(&args.url);
    let port = port_of(&url);
    let pid = args.server_pid.or_else(|| port.and_then(listening_pid));
    let peak_reset = pid.is_some_and(reset_peak);
    let done = Arc::new(AtomicBool::new(false));
    let sampled = Arc::new(AtomicU64::new(0));
    let sampler = pid.map(|pid| {
        let (done, sampled) = (done.clone(), sampled.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(rss) = status_kib(pid, "VmRSS:") {
                    sampled.fetch_max(rss, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    });
    let started = Instant::now();
    let samples = actix_web::rt::System::new().block_on(load(
        url,
        args.key.clone(),
        bodies,
        args.concurrency.max(1),
        args.requests,
    ));
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    if let Some(s) = sampler {
        let _ = s.join();
    }
    let server = pid.and_then(|pid| {
        let peak = status_kib(pid, "VmHWM:")?;
        Some(ServerMemory {
            pid,
            peak_rss_kib: peak,
            peak_reset,
            sampled_max_rss_kib: sampled.load(Ordering::Relaxed),
        })
    });
    Ok(summarize(samples, elapsed, server))
}

/// Sends the requests from `concurrency` tasks sharing one counter.
async fn load(
    url: String,
    key: String,
    bodies: Vec<Bytes>,
    concurrency: usize,
    requests: usize,
) -> Vec<Sample> {
    let client = awc::Client::builder()
        .timeout(Duration::from_secs(300))
        .connector(awc::Connector::new().limit(concurrency))
        .finish();
    let client = Rc::new(client);
    let next = Rc::new(std::cell::Cell::new(0usize));
    let bodies = Rc::new(bodies);
    let auth = format!("Bearer {key}");
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let tasks: Vec<_> = (0..concurrency)
        .map(|_| {
            let (client, next, bodies) = (client.clone(), next.clone(), bodies.clone());
            let (url, auth, content_type) = (url.clone(), auth.clone(), content_type.clone());
            actix_web::rt::spawn(async move {
                let mut samples = Vec::new();
                loop {
                    let i = next.get();
                    if i >= requests {
                        break;
                    }
                    next.set(i + 1);
                    let body = bodies[i % bodies.len()].clone();
                    let sent = Instant::now();
                    let answer = client
                        .post(url.as_str())
                        .insert_header(("Authorization", auth.as_str()))
                        .insert_header(("Content-Type", content_type.as_str()))
                        .send_body(body)
                        .await;
                    let status = match answer {
                        // The latency counts the whole PDF, not just the headers.
                        Ok(mut response) => match response.body().limit(1 << 30).await {
                            Ok(_) => Some(response.status().as_u16()),
                            Err(_) => None,
                        },
                        Err(_) => None,
                    };
                    samples.push(Sample {
                        latency: sent.elapsed(),
                        status,
                    });
                }
                samples
            })
        })
        .collect();
    let mut all = Vec::with_capacity(requests);
    for t in tasks {
        if let Ok(samples) = t.await {
            all.extend(samples);
        }
    }
    all
}

fn summarize(samples: Vec<Sample>, elapsed: Duration, server: Option<ServerMemory>) -> Report {
    let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
    latencies.sort();
    let pct = |p: f64| -> Duration {
        if latencies.is_empty() {
            return Duration::ZERO;
        }
        // Nearest rank: the smallest latency at or above p percent of the requests.
        let rank = ((p / 100.0) * latencies.len() as f64).ceil() as usize;
        latencies[rank.clamp(1, latencies.len()) - 1]
    };
    let mut statuses = BTreeMap::new();
    let mut transport_errors = 0;
    for s in &samples {
        match s.status {
            Some(code) => *statuses.entry(code).or_insert(0) += 1,
            None => transport_errors += 1,
        }
    }
    Report {
        requests: samples.len(),
        elapsed,
        p50: pct(50.0),
        p95: pct(95.0),
        p99: pct(99.0),
        max: latencies.last().copied().unwrap_or_default(),
        statuses,
        transport_errors,
        server,
    }
}

/// A multipart/form-data body with the file in the part `file`.
fn multipart_body(path: &Path, bytes: &[u8]) -> Bytes {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().replace('"', ""))
        .unwrap_or_else(|| "document.docx".into());
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    Bytes::from(body)
}

/// The convert endpoint under a service's base URL (or the URL itself when it names it).
fn convert_url(url: &str) -> String {
    let url = url.trim_end_matches('/');
    if url.ends_with("/api/convert") {
        url.to_string()
    } else {
        format!("{url}/api/convert")
    }
}

/// The port of a local URL (`http://127.0.0.1:8080/...`), default 80.
fn port_of(url: &str) -> Option<u16> {
    let rest = url.strip_prefix("http://")?;
    let authority = rest.split('/').next()?;
    let host_port = authority.rsplit('@').next()?;
    let is_local = ["127.", "localhost", "[::1]", "0.0.0.0"]
        .iter()
        .any(|h| host_port.starts_with(h));
    if !is_local {
        return None;
    }
    match host_port.rsplit_once(':') {
        Some((_, port)) if !port.ends_with(']') => port.parse().ok(),
        _ => Some(80),
    }
}

/// The process listening on a local TCP port: the socket's inode from `/proc/net/tcp{,6}`,
/// then the process holding a descriptor on `socket:[inode]`.
fn listening_pid(port: u16) -> Option<u32> {
    let mut inodes = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; the inode is column 10.
            let (Some(local), Some(state), Some(inode)) = (cols.get(1), cols.get(3), cols.get(9))
            else {
                continue;
            };
            let listens = *state == "0A";
            let same_port = local
                .rsplit_once(':')
                .and_then(|(_, p)| u16::from_str_radix(p, 16).ok())
                == Some(port);
            if listens && same_port {
                inodes.push(format!("socket:[{inode}]"));
            }
        }
    }
    if inodes.is_empty() {
        return None;
    }
    let me = std::process::id();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if let Ok(target) = std::fs::read_link(fd.path()) {
                if inodes.iter().any(|i| target.as_os_str() == i.as_str()) {
                    return Some(pid);
                }
            }
        }
    }
    None
}

/// Resets the process's peak RSS (`echo 5 > /proc/PID/clear_refs`), so `VmHWM` measures
/// the run alone; false where the kernel or permissions refuse.
fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

/// A `kB` field of `/proc/PID/status`.
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ms: u64, status: Option<u16>) -> Sample {
        Sample {
            latency: Duration::from_millis(ms),
            status,
        }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let samples = (1..=100).map(|i| sample(i, Some(200))).collect();
        let r = summarize(samples, Duration::from_secs(2), None);
        assert_eq!(
            (r.p50, r.p95, r.p99, r.max),
            (
                Duration::from_millis(50),
                Duration::from_millis(95),
                Duration::from_millis(99),
                Duration::from_millis(100)
            )
        );
        assert!((r.throughput() - 50.0).abs() < 1e-9);
    }

    #[test]
    fn statuses_and_transport_errors_are_counted_apart() {
        let r = summarize(
            vec![
                sample(1, Some(200)),
                sample(2, Some(503)),
                sample(3, None),
                sample(4, Some(200)),
            ],
            Duration::from_secs(1),
            None,
        );
        assert_eq!(r.statuses, BTreeMap::from([(200, 2), (503, 1)]));
        assert_eq!(r.transport_errors, 1);
    }

    #[test]
    fn figures_are_one_line_each_with_the_context() {
        let r = summarize(vec![sample(4, Some(200)), sample(8, Some(400))], Duration::from_secs(1), None);
        let text = r.figures("tool=bench-load concurrency=2 files=1");
        assert!(text.contains("figure http.throughput 2.0 requests/s tool=bench-load concurrency=2 files=1\n"), "{text}");
        assert!(text.contains("figure http.latency.p50 4.0 ms "), "{text}");
        assert!(text.contains("figure http.status.400 1 count "), "{text}");
        assert!(text.lines().all(|l| l.starts_with("figure ") || l.starts_with("# ")), "{text}");
    }

    #[test]
    fn the_endpoint_and_port_come_from_the_url() {
        assert_eq!(
            convert_url("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/api/convert"
        );
        assert_eq!(
            convert_url("http://127.0.0.1:8080/api/convert"),
            "http://127.0.0.1:8080/api/convert"
        );
        assert_eq!(port_of("http://127.0.0.1:8080/api/convert"), Some(8080));
        assert_eq!(port_of("http://localhost/api/convert"), Some(80));
        assert_eq!(port_of("http://example.com:8080/api/convert"), None);
    }

    #[test]
    fn the_process_listening_on_a_port_is_found() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        // The listener is ours, and `listening_pid` skips its own process.
        assert_eq!(listening_pid(port), None);
        assert!(status_kib(std::process::id(), "VmHWM:").is_some_and(|kib| kib > 0));
    }
}
