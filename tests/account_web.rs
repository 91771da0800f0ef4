//! The account holder's web application in a real browser: the real binary serves it, its
//! CLI prints the sign-in link, and tests/browser/account_journey.py drives Debian's
//! Chromium through Playwright over the whole journey, with axe-core on every page. Then
//! two instances on one PostgreSQL database share a session and a revocation.
//!
//! Without Chromium, Playwright or axe-playwright-python the tests say `skipped`, except
//! under `CI=true`, where they fail (.ci/run installs them).

// `binary` and `pg::server` both start servers through support/listen.rs.
#![allow(clippy::duplicate_mod)]

mod common;
#[path = "support/binary.rs"]
mod binary;
mod pg;
#[path = "support/python.rs"]
mod python;

use std::path::Path;
use std::process::Command;

use common::docx::{docx, paragraph};
use common::timed::Timed;
use docx2pdf::credits::{format_reset_at, Month};
use serde_json::{json, Value};

/// Debian's Chromium, which Playwright drives (it never downloads a browser of its own).
const CHROMIUM: &str = "/usr/bin/chromium";

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/account_journey.py");

/// The password the script chooses.
const PASSWORD: &str = "a calm and quite long passphrase";

/// The Python that can drive the browser, or `None` when the test is to be skipped.
fn browser_python() -> Option<String> {
    let python = python::with_module("playwright.sync_api, axe_playwright_python")?;
    if !Path::new(CHROMIUM).exists() {
        common::skip::skip(&format!("{CHROMIUM} is missing (apt-get install chromium, or run .ci/run)"));
        return None;
    }
    Some(python)
}

/// Runs the script with `config`; its summary.
fn run_script(python: &str, dir: &Path, config: Value) -> Value {
    let path = dir.join("journey.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let out = Command::new(python).arg(SCRIPT).arg(&path).timed_output().expect("run the browser script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the browser journey failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(stdout.lines().last().unwrap_or("")).expect("the script's JSON summary")
}

/// The link printed, alone on the last line, by `accounts sign-in-link`.
fn last_line(text: &str) -> String {
    let line = text.lines().last().expect("a last line").trim().to_owned();
    assert!(line.contains("/account/set-up?token="), "{text}");
    line
}

/// A small DOCX to convert, written in `dir`.
fn sample(dir: &Path) -> String {
    let path = dir.join("sample.docx");
    std::fs::write(&path, docx(&paragraph("A page converted from the account journey"))).unwrap();
    path.display().to_string()
}

#[test]
fn the_holders_journey_in_chromium() {
    let Some(python) = browser_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    binary::run(dir.path(), &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "100"]);
    binary::run(dir.path(), &["accounts", "create", "--name", "hobby", "--plan", "free", "--monthly-credits", "10"]);
    let server = binary::Server::start(dir.path(), &["--workers", "1"]);
    let base = format!("http://127.0.0.1:{}", server.port);
    let printed = binary::run(dir.path(), &["accounts", "sign-in-link", "--name", "acme", "--base-url", &base, "--valid-for", "15m"]);
    let link = last_line(&String::from_utf8_lossy(&printed.stdout));
    let printed = binary::run(dir.path(), &["accounts", "sign-in-link", "--name", "hobby", "--base-url", &base]);
    let unused_link = last_line(&String::from_utf8_lossy(&printed.stdout));
    let config = json!({
        "mode": "journey",
        "base": base,
        "link": link,
        "account": "acme",
        "docx": sample(dir.path()),
        // The month of the server's clock (tests/support/clock.rs).
        "reset_at": format_reset_at(Month::parse(common::clock::MONTH).expect("a month").reset_at()),
        "throttled": "someone-else",
        "unused_link": unused_link,
        "screenshots": std::env::var("DOCX2PDF_ACCOUNT_SCREENSHOTS").ok(),
    });
    let summary = run_script(&python, dir.path(), config);
    let pages = summary["pages_checked_by_axe"].as_array().expect("the pages axe checked");
    assert!(pages.len() >= 12, "{summary}");

    // What the browser typed and was shown never reached the log or the database in clear.
    let keys: Vec<&str> = summary["keys"].as_array().expect("the keys shown").iter().filter_map(Value::as_str).collect();
    assert_eq!(keys.len(), 4, "{summary}");
    let token = link.rsplit('=').next().unwrap();
    let log = server.log();
    assert!(log.contains("/account"), "the pages' requests are logged: {log}");
    let mut stored = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("ledger.db")) {
            stored.extend(std::fs::read(&path).unwrap());
        }
    }
    assert!(!stored.is_empty());
    let stored = String::from_utf8_lossy(&stored);
    for secret in keys.iter().copied().chain([PASSWORD, token]) {
        assert!(!log.contains(secret), "a secret in the log");
        assert!(!stored.contains(secret), "a secret in the database");
    }
}

#[test]
fn two_instances_on_postgresql_share_a_session_and_a_revocation() {
    let Some(python) = browser_python() else { return };
    let Some(db) = pg::TestDb::create_blocking() else { return };
    pg::server::run(&db.url, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "100"]);
    let first = pg::server::Server::start(&db.url, &["--workers", "1"]);
    let second = pg::server::Server::start(&db.url, &["--workers", "1"]);
    let base = format!("http://127.0.0.1:{}", first.port);
    let link = last_line(&pg::server::run(&db.url, &["accounts", "sign-in-link", "--name", "acme", "--base-url", &base]));
    let dir = tempfile::tempdir().unwrap();
    let config = json!({
        "mode": "two-instances",
        "base": base,
        "other": format!("http://127.0.0.1:{}", second.port),
        "link": link,
        "account": "acme",
        "docx": sample(dir.path()),
    });
    let summary = run_script(&python, dir.path(), config);
    assert_eq!(summary["instances"], 2, "{summary}");
}
