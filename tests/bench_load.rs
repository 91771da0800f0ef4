//! `docx2pdf bench-load` against a real `docx2pdf serve`: every request answered, the
//! figures printed, and the server's memory read from the process found by its port.

mod common;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::docx::{docx, paragraph};

const BIN: &str = env!("CARGO_BIN_EXE_docx2pdf");

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env(
            "DOCX2PDF_DATABASE_URL",
            format!("sqlite://{}?mode=rwc", dir.join("ledger.db").display()),
        )
        .env("RUST_LOG", "warn")
        .output()
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

/// A running server, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn bench_load_reports_every_request_and_the_servers_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    ok_stdout(&run(
        dir.path(),
        &[
            "accounts",
            "create",
            "--name",
            "bench",
            "--plan",
            "paid",
            "--monthly-credits",
            "1000",
        ],
    ));
    let keys = ok_stdout(&run(dir.path(), &["keys", "create", "--account", "bench"]));
    let key = keys
        .lines()
        .last()
        .expect("the key line")
        .trim()
        .to_string();

    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port();
    let child = Command::new(BIN)
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "2",
        ])
        .env(
            "DOCX2PDF_DATABASE_URL",
            format!(
                "sqlite://{}?mode=rwc",
                dir.path().join("ledger.db").display()
            ),
        )
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let server = Server(child);
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    let good = dir.path().join("one.docx");
    std::fs::write(&good, docx(&paragraph("One page for the load generator.")))
        .expect("write docx");
    let bad = dir.path().join("not-a-docx.docx");
    std::fs::write(&bad, b"plain text, not a zip").expect("write file");
    let url = format!("http://127.0.0.1:{port}");
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

    assert!(out.contains("requests: 8\n"), "{out}");
    // Round-robin over the two files: four conversions and four refusals of the non-DOCX.
    assert!(out.contains("statuses: 200: 4, 400: 4\n"), "{out}");
    assert!(out.contains("transport errors: 0\n"), "{out}");
    assert!(out.contains("latency: p50 "), "{out}");
    let pid = server.0.id();
    let memory = out
        .lines()
        .find(|l| l.starts_with(&format!("server pid {pid}: peak RSS ")))
        .unwrap_or_else(|| panic!("{out}"));
    let mb: f64 = memory
        .split_whitespace()
        .nth(5)
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
