//! The `docx2pdf` binary as an operator uses it: the first run of `serve` on an empty
//! database, account and key management (also against a running server), usage, convert,
//! the health probe.

mod common;
#[path = "support/binary.rs"]
mod binary;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use binary::{database_url, listen, post_convert, run, run_unchecked, Server, BIN};
use common::docx::{docx, paragraph};
use common::timed::Timed;

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Starts a server and returns it with everything it printed on stdout before its
/// `listening on` line: the whole banner, which is printed before the server binds.
fn serve_capturing(dir: &Path) -> (Server, String) {
    serve_with(dir, &[])
}

/// [`serve_capturing`] with more flags.
fn serve_with(dir: &Path, flags: &[&str]) -> (Server, String) {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--workers", "1"])
        .args(flags)
        .env("DOCX2PDF_DATABASE_URL", database_url(dir))
        .env("DOCX2PDF_CLOCK_START", common::clock::now())
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null());
    let listening = listen::spawn(command);
    let printed = listening.printed.clone();
    (Server::of(listening), printed)
}

#[test]
fn first_serve_creates_the_local_account_and_prints_a_working_key() {
    let dir = tempfile::tempdir().unwrap();
    let (server, printed) = serve_capturing(dir.path());
    let key = printed
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("d2p_"))
        .unwrap_or_else(|| panic!("no key in {printed:?}"))
        .to_owned();
    assert!(printed.contains("curl"), "{printed}");
    assert!(printed.contains(&format!("Authorization: Bearer {key}")));
    // The curl command names the port the server bound, not the 0 it was asked for.
    assert!(printed.contains(&format!("http://127.0.0.1:{}/api/convert", server.port)), "{printed}");
    assert_eq!(post_convert(server.port, &key, &docx(&paragraph("Hello from the first run"))).status, 200);
    drop(server);

    // A second start on the same database prints nothing before it listens: no key.
    let (_server, printed) = serve_capturing(dir.path());
    assert_eq!(printed, "", "no first-run banner on a database with accounts");
    let accounts = stdout(&run(dir.path(), &["accounts", "list"]));
    assert!(accounts.contains("local") && accounts.contains("paid") && accounts.contains("100"));
}

#[test]
fn accounts_keys_and_usage_are_managed_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout(&run(d, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]));
    let dup = run_unchecked(d, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]);
    assert!(!dup.status.success());
    assert!(String::from_utf8_lossy(&dup.stderr).contains("exists already"));

    let created = stdout(&run(d, &["keys", "create", "--account", "acme"]));
    let key = created.lines().last().unwrap().to_owned();
    assert!(key.starts_with("d2p_") && key.len() >= 36, "{key}");
    let listed = stdout(&run(d, &["keys", "list", "--account", "acme"]));
    assert!(listed.contains(&key[..12]) && !listed.contains(&key), "only prefixes are listed");

    stdout(&run(d, &["accounts", "set", "--name", "acme", "--monthly-credits", "7"]));
    let list = stdout(&run(d, &["accounts", "list"]));
    assert!(list.contains("acme") && list.contains('7'));

    let (server, printed) = serve_capturing(d);
    assert_eq!(printed, "", "no first-run banner on a database with accounts");
    assert_eq!(post_convert(server.port, &key, &docx(&paragraph("Invoice"))).status, 200);
    let usage = stdout(&run(d, &["usage", "--account", "acme"]));
    assert!(usage.contains("used:      1"), "{usage}");
    assert!(usage.contains("remaining: 6"), "{usage}");
    assert!(usage.contains("limit:     7"), "{usage}");
    assert!(usage.contains("entries:   1"), "{usage}");

    // Revocation reaches the server that is already running.
    stdout(&run(d, &["keys", "revoke", "--prefix", &key[..12]]));
    assert_eq!(post_convert(server.port, &key, &docx(&paragraph("Invoice"))).status, 401);
    let listed = stdout(&run(d, &["keys", "list", "--account", "acme"]));
    assert!(listed.contains("revoked"));

    stdout(&run(d, &["accounts", "set", "--name", "acme", "--plan", "free"]));
    let empty = stdout(&run(d, &["usage", "--account", "acme", "--month", "2020-01"]));
    assert!(empty.contains("used:      0") && empty.contains("entries:   0"), "{empty}");
    let bad = run_unchecked(d, &["usage", "--account", "acme", "--month", "2020-13"]);
    assert!(!bad.status.success());
}

#[test]
fn convert_writes_a_pdf_and_refuses_a_non_docx_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.docx");
    let output = dir.path().join("out.pdf");
    std::fs::write(&input, docx(&paragraph("Converted offline"))).unwrap();
    let out = Command::new(BIN).args(["convert"]).arg(&input).arg(&output).timed_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read(&output).unwrap().starts_with(b"%PDF-"));

    std::fs::write(&input, b"plain text").unwrap();
    let out = Command::new(BIN).args(["convert"]).arg(&input).arg(&output).timed_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in.docx") && err.contains("zip"), "{err}");
}

#[test]
fn convert_has_no_memory_budget_unless_a_flag_sets_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("long.docx");
    let output = dir.path().join("out.pdf");
    // About 60 pages: 4 to 8 MB of heap at its largest.
    let sentence = "the committee reviewed the figures of the quarter and agreed to publish them with the annual report.";
    std::fs::write(&input, docx(&(0..1_000).map(|i| paragraph(&format!("Paragraph {i}: {sentence}"))).collect::<String>())).unwrap();
    let convert = |flags: &[&str]| Command::new(BIN).arg("convert").args(flags).arg(&input).arg(&output).env_remove("DOCX2PDF_RENDER_MEMORY_MB").timed_output().unwrap();
    let out = convert(&[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = convert(&["--render-memory-mb", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("long.docx") && err.contains("more memory than its budget of 2 MB"), "{err}");
    let out = convert(&["--render-memory-mb", "64"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn serve_on_port_0_reports_the_address_it_bound_on_stdout_and_in_the_address_file() {
    let dir = tempfile::tempdir().unwrap();
    stdout(&run(dir.path(), &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]));
    let file = dir.path().join("address");
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--workers", "1", "--address-file"])
        .arg(&file)
        .env("DOCX2PDF_DATABASE_URL", database_url(dir.path()))
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null());
    let listening = listen::spawn(command);
    let server = Server::of(listening);
    // The file is written before the line is printed, so it is there now, whole.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("127.0.0.1:{}", server.port));
    assert_ne!(server.port, 0);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // The health probe finds the server through the same file (its --bind is port 0), and
    // says so with exit 0; where nothing listens it exits 1 with the reason.
    let probe = |args: &[&str]| Command::new(BIN).arg("healthcheck").args(args).env("DOCX2PDF_BIND", "0.0.0.0:0").timed_output().unwrap();
    let healthy = probe(&["--address-file", file.to_str().unwrap()]);
    assert!(healthy.status.success(), "{healthy:?}");
    assert_eq!(String::from_utf8_lossy(&healthy.stdout), format!("healthy: http://127.0.0.1:{}/healthz answered 200\n", server.port));
    let bind = format!("0.0.0.0:{}", server.port);
    assert!(probe(&["--bind", &bind]).status.success(), "an unspecified address is asked on loopback");
    let nobody = dir.path().join("nobody");
    std::fs::write(&nobody, "127.0.0.1:1").unwrap();
    let gone = probe(&["--address-file", nobody.to_str().unwrap()]);
    assert_eq!(gone.status.code(), Some(1), "{gone:?}");
    assert!(String::from_utf8_lossy(&gone.stderr).starts_with("docx2pdf: unhealthy: http://127.0.0.1:1/healthz: "), "{gone:?}");
    let unbound = probe(&[]);
    assert_eq!(unbound.status.code(), Some(1), "port 0 names no server: {unbound:?}");
}

#[test]
fn keys_take_names_and_sign_in_links_print_alone_on_the_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout(&run(d, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]));
    let created = stdout(&run(d, &["keys", "create", "--account", "acme", "--name", "invoices server"]));
    let key = created.lines().last().unwrap().to_owned();
    assert!(key.starts_with("d2p_"), "{created}");
    let listed = stdout(&run(d, &["keys", "list", "--account", "acme"]));
    assert!(listed.contains("NAME") && listed.contains("invoices server") && listed.contains(&key[..12]), "{listed}");
    let long = "x".repeat(65);
    let refused = run_unchecked(d, &["keys", "create", "--account", "acme", "--name", &long]);
    assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("64 characters"));

    let link = |extra: &[&str]| {
        let mut args = vec!["accounts", "sign-in-link", "--name", "acme", "--base-url", "https://convert.example/"];
        args.extend_from_slice(extra);
        stdout(&run(d, &args)).lines().last().unwrap().to_owned()
    };
    let first = link(&[]);
    let second = link(&["--valid-for", "30m"]);
    for l in [&first, &second] {
        let token = l.strip_prefix("https://convert.example/account/set-up?token=").unwrap_or_else(|| panic!("{l}"));
        assert!(token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{l}");
    }
    assert_ne!(first, second);
    // Only hashes are stored.
    let stored = String::from_utf8_lossy(&std::fs::read(d.join("ledger.db")).unwrap()).into_owned()
        + &String::from_utf8_lossy(&std::fs::read(d.join("ledger.db-wal")).unwrap_or_default());
    assert!(!stored.contains(first.rsplit('=').next().unwrap()) && !stored.contains(&key));
    for bad in [vec!["--name", "nobody"], vec!["--name", "acme", "--valid-for", "0m"], vec!["--name", "acme", "--valid-for", "1w"]] {
        let mut args = vec!["accounts", "sign-in-link"];
        args.extend(bad.iter().copied());
        assert!(!run_unchecked(d, &args).status.success(), "{args:?}");
    }
}

#[test]
fn a_conversion_at_23_59_59_9_on_the_last_day_of_a_month_is_charged_to_that_month() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout(&run(d, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]));
    let key = stdout(&run(d, &["keys", "create", "--account", "acme"])).lines().last().unwrap().trim().to_owned();
    let usage = |month: &str| stdout(&run(d, &["usage", "--account", "acme", "--month", month]));
    // The server's clock stands at 100 ms before midnight UTC on 31 January.
    let (server, _) = serve_with(d, &["--clock-start", "2026-01-31T23:59:59.9Z", "--clock-stopped"]);
    assert_eq!(post_convert(server.port, &key, &docx(&paragraph("Invoice"))).status, 200);
    drop(server);
    let january = usage("2026-01");
    assert!(january.contains("used:      1") && january.contains("2026-01-31"), "{january}");
    assert!(usage("2026-02").contains("used:      0"));
    // Without --month, `usage` reads the month of its own clock.
    let now = stdout(&run(d, &["usage", "--account", "acme", "--clock-start", "2026-01-31T23:59:59.9Z"]));
    assert!(now.contains("month:     2026-01") && now.contains("used:      1"), "{now}");
    // At midnight the conversion is February's, and January keeps its one.
    let (server, _) = serve_with(d, &["--clock-start", "2026-02-01T00:00:00Z", "--clock-stopped"]);
    assert_eq!(post_convert(server.port, &key, &docx(&paragraph("Invoice"))).status, 200);
    drop(server);
    assert!(usage("2026-01").contains("used:      1"));
    let february = usage("2026-02");
    assert!(february.contains("used:      1") && february.contains("remaining: 4"), "{february}");
}
