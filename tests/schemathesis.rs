//! schemathesis against a real `docx2pdf serve`, driven by the server's own `/openapi.json`:
//! every check but `positive_data_acceptance` (a generated "valid" file is not a DOCX), with
//! a valid key on a paid account with credits. It must find no 5xx, no status, header or body
//! outside the description.

mod common;

#[path = "support/binary.rs"]
mod binary;
#[path = "support/python.rs"]
mod python;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use binary::{account, Server};

/// Test cases per operation (schemathesis' `--max-examples`).
const EXAMPLES: &str = "60";

/// The run must end within this; it takes about 10 s on two shared cores.
const TIME_LIMIT: Duration = Duration::from_secs(150);

#[test]
fn schemathesis_finds_nothing_outside_the_description() {
    let Some(python) = python::with_module("schemathesis") else { return };
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "fuzz", 1_000_000);
    let server = Server::start(dir.path(), &["--workers", "2"]);
    let url = format!("http://127.0.0.1:{}/openapi.json", server.port);
    let out = dir.path().join("schemathesis.txt");
    // Run in the test's folder: hypothesis keeps its example database in the working folder.
    let mut run = Command::new(&python)
        .current_dir(dir.path())
        .args(["-m", "schemathesis.cli", "run", &url])
        .args(["--checks", "all", "--exclude-checks", "positive_data_acceptance"])
        .args(["--max-examples", EXAMPLES, "--request-timeout", "30"])
        .args(["--header", &format!("Authorization: Bearer {key}")])
        .env("NO_COLOR", "1")
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start schemathesis");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = run.kill();
            let _ = run.wait();
            panic!("schemathesis ran past {TIME_LIMIT:?}:\n{}", std::fs::read_to_string(&out).unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let report = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(status.success(), "schemathesis found problems:\n{report}");
    // "Test cases:" is followed by "N generated, N passed".
    let generated: usize = report
        .lines()
        .find_map(|l| l.trim().split_once(" generated,").and_then(|(n, _)| n.parse().ok()))
        .unwrap_or(0);
    assert!(generated >= 60, "only {generated} test cases ran:\n{report}");
    let log = server.log();
    assert!(!log.contains("panicked"), "the server panicked:\n{log}");
    assert!(!log.contains("status=5"), "the server answered a 5xx:\n{log}");
}
