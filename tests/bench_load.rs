//! `docx2pdf bench-load` against a real `docx2pdf serve`: every request answered, the
//! figures printed, the server's memory read from the process found by its port, and
//! given back once the render pool is idle.

mod common;
#[path = "support/binary.rs"]
mod binary;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use binary::{listen, Server, BIN};
use common::docx::{docx, paragraph};
use common::timed::Timed;

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env(
            "DOCX2PDF_DATABASE_URL",
            format!("sqlite://{}?mode=rwc", dir.join("ledger.db").display()),
        )
        .env("DOCX2PDF_CLOCK_START", common::clock::now())
        .env("RUST_LOG", "warn")
        .timed_output()
        .expect("run docx2pdf")
}

fn ok_stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

/// Creates the account `bench` with a key and starts a server with two render workers on
/// a port of its choosing; returns the server, its URL and the key.
fn start_server(dir: &Path, log: &str, stderr: Stdio) -> (Server, String, String) {
    ok_stdout(&run(dir, &["accounts", "create", "--name", "bench", "--plan", "paid", "--monthly-credits", "1000"]));
    let keys = ok_stdout(&run(dir, &["keys", "create", "--account", "bench"]));
    let key = keys.lines().last().expect("the key line").trim().to_string();
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--workers", "2"])
        .env("DOCX2PDF_DATABASE_URL", format!("sqlite://{}?mode=rwc", dir.join("ledger.db").display()))
        .env("DOCX2PDF_CLOCK_START", common::clock::now())
        .env("RUST_LOG", log)
        .stderr(stderr);
    let listening = listen::spawn(command);
    let url = format!("http://127.0.0.1:{}", listening.port);
    (Server::of(listening), url, key)
}

#[test]
fn bench_load_reports_every_request_and_the_servers_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (server, url, key) = start_server(dir.path(), "warn", Stdio::null());

    let good = dir.path().join("one.docx");
    std::fs::write(&good, docx(&paragraph("One page for the load generator.")))
        .expect("write docx");
    let bad = dir.path().join("not-a-docx.docx");
    std::fs::write(&bad, b"plain text, not a zip").expect("write file");
    let out = ok_stdout(&run(
        dir.path(),
        &[
            "bench-load",
            "--url",
            &url,
            "--key",
            &key,
            "--concurrency",
            "3",
            "--requests",
            "8",
            good.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
    ));

    assert!(out.contains("figure http.requests 8 count tool=bench-load concurrency=3 files=2\n"), "{out}");
    // Round-robin over the two files: four conversions and four refusals of the non-DOCX.
    assert!(out.contains("figure http.status.200 4 count "), "{out}");
    assert!(out.contains("figure http.status.400 4 count "), "{out}");
    assert!(out.contains("figure http.transport_errors 0 count "), "{out}");
    assert!(out.contains("figure http.latency.p50 "), "{out}");
    let pid = server.child.id();
    let memory = out
        .lines()
        .find(|l| l.starts_with("figure server.peak_rss ") && l.contains(&format!(" pid={pid} ")))
        .unwrap_or_else(|| panic!("{out}"));
    let mb: f64 = memory
        .split_whitespace()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{memory}"));
    assert!(mb > 1.0, "{memory}");

    // Only the four conversions cost a credit each.
    let usage = ok_stdout(&run(dir.path(), &["usage", "--account", "bench"]));
    let used = usage
        .lines()
        .find(|l| l.starts_with("used:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_else(|| panic!("{usage}"));
    assert_eq!(used, "4", "{usage}");
}

/// The server's anonymous resident memory, kB (`/proc/PID/status`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn rss_anon_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status.lines().find(|l| l.starts_with("RssAnon:")).expect("RssAnon");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number")
}

/// The number after `name=` in a log line.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn field(line: &str, name: &str) -> u64 {
    let at = line.find(&format!("{name}=")).unwrap_or_else(|| panic!("no {name} in {line}")) + name.len() + 1;
    line[at..].split(|c: char| !c.is_ascii_digit()).next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{line}"))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_server_gives_memory_back_once_its_render_pool_is_idle() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The server logs each trim, with its memory before and after: the test waits for that
    // line instead of racing the idle check to read the memory before it.
    let (mut server, url, key) = start_server(dir.path(), "warn,docx2pdf::cli::allocator=debug", Stdio::piped());
    let (trims, trimmed) = std::sync::mpsc::channel();
    let stderr = BufReader::new(server.child.stderr.take().expect("piped stderr"));
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok).filter(|l| l.contains("memory given back")) {
            let _ = trims.send(line);
        }
    });
    // Long documents of many different words: pages, shaped words and caches come and go
    // on both render workers, and the caches that stay are spread through their heaps.
    let text: String = (0..1500)
        .map(|i| paragraph(&format!("Paragraph {i}: words {} and {} and {} in a line.", i * 7919 % 10007, i * 104729 % 1299709, i * 31)))
        .collect();
    let long = dir.path().join("long.docx");
    std::fs::write(&long, docx(&text)).expect("write docx");
    let out = ok_stdout(&run(
        dir.path(),
        &["bench-load", "--url", &url, "--key", &key, "--concurrency", "2", "--requests", "4", long.to_str().unwrap()],
    ));
    assert!(out.contains("figure http.status.200 4 count "), "{out}");
    let line = trimmed.recv_timeout(Duration::from_secs(60)).expect("the server gave memory back once idle");
    let (before, after) = (field(&line, "before_kb"), field(&line, "after_kb"));
    assert!(after * 10 <= before * 8, "right after the load {before} kB, idle {after} kB: {line}");
    // And so says the system, not only the server.
    let now = rss_anon_kb(server.child.id());
    assert!(now * 10 <= before * 8, "right after the load {before} kB, now {now} kB");
}
