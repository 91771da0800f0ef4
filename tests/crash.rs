//! The real binary under process faults: kill -9 under load and a restart leave a
//! consistent ledger; SIGTERM lets in-flight conversions finish and commit; clients that
//! vanish mid-upload, mid-render or mid-download leave no reservation behind.

mod common;
#[path = "support/binary.rs"]
mod binary;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use binary::{account, post_convert, usage, Server, Usage};
use common::docx::{docx, paragraph};

/// A document of a few dozen pages: long enough to be in flight when the fault comes.
fn slow_document(paragraphs: usize) -> Vec<u8> {
    let text = "Every clause of this agreement is read with the others, and no heading limits the meaning of the text below it. ";
    docx(&(0..paragraphs).map(|i| paragraph(&format!("{i}. {}", text.repeat(4)))).collect::<String>())
}

/// The ledger invariants of one account: used is the sum of its ledger entries, nothing
/// is negative, and used plus held stays within the allowance.
fn assert_consistent(name: &str, u: &Usage, limit: i64) {
    assert_eq!(u.used, u.entries.iter().sum::<i64>(), "{name}: used is the sum of the entries: {u:?}");
    assert!(u.remaining >= 0 && u.used >= 0 && u.held >= 0, "{name}: {u:?}");
    assert!(u.used + u.held <= limit, "{name}: over the allowance: {u:?}");
}

/// Polls `usage` until `done` holds, at most `limit`.
fn usage_when(dir: &std::path::Path, name: &str, limit: Duration, done: impl Fn(&Usage) -> bool) -> Usage {
    let started = Instant::now();
    loop {
        let u = usage(dir, name);
        if done(&u) || started.elapsed() > limit {
            return u;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn kill_9_under_load_then_restart_leaves_a_consistent_ledger_and_releases_the_holds() {
    let dir = tempfile::tempdir().unwrap();
    let accounts = [("small", 25i64), ("large", 1000i64)];
    let keys: Vec<String> = accounts.iter().map(|(n, c)| account(dir.path(), n, *c as u32)).collect();
    // A short render limit, so holds left by the crash expire soon (limit + 15 s).
    let args = ["--workers", "2", "--render-timeout-secs", "1"];
    let mut server = Server::start(dir.path(), &args);
    let port = server.port;
    let documents = Arc::new([docx(&paragraph("short")), slow_document(20)]);
    let stop = Arc::new(AtomicBool::new(false));
    let ok = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let clients: Vec<_> = (0..8)
        .map(|i| {
            let (key, stop, ok, documents) = (keys[i % 2].clone(), stop.clone(), ok.clone(), documents.clone());
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    if post_convert(port, &key, &documents[(i + n) % 2]).status == 200 {
                        ok[i % 2].fetch_add(1, Ordering::Relaxed);
                    }
                    n += 1;
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(2500));
    server.signal("KILL");
    let killed_at = Instant::now();
    assert!(server.wait(Duration::from_secs(5)).is_some(), "the server did not die");
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }

    // Straight after the crash: consistent, and the holds of the conversions in flight
    // are still there (they may belong to renders a live instance would still finish).
    let mut held = 0;
    for (i, (name, limit)) in accounts.iter().enumerate() {
        let u = usage(dir.path(), name);
        assert_consistent(name, &u, *limit);
        assert!(u.used >= ok[i].load(Ordering::Relaxed) as i64, "{name}: every 200 was debited: {u:?}");
        held += u.held;
    }
    assert!(held > 0, "the crash left no conversion in flight; the load is too light");

    // Once the render limit and its margin have passed, a restarted server releases them.
    let expiry = Duration::from_secs(1 + 15);
    std::thread::sleep(expiry.saturating_sub(killed_at.elapsed()) + Duration::from_millis(500));
    let restarted = Server::start(dir.path(), &args);
    for (name, limit) in accounts {
        let u = usage_when(dir.path(), name, Duration::from_secs(10), |u| u.held == 0);
        assert_eq!(u.held, 0, "{name}: holds left by the crash were released: {u:?}");
        assert_consistent(name, &u, limit);
    }
    assert_eq!(post_convert(restarted.port, &keys[1], &documents[0]).status, 200);
}

#[test]
fn sigterm_lets_the_conversion_in_flight_finish_and_commit() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 10);
    let mut server = Server::start(dir.path(), &["--workers", "1", "--render-timeout-secs", "60"]);
    let port = server.port;
    let document = slow_document(60);
    let client = std::thread::spawn(move || post_convert(port, &key, &document));
    // Wait until the render has started (the upload is read and the credit held).
    let started = Instant::now();
    while usage(dir.path(), "acme").held == 0 {
        assert!(started.elapsed() < Duration::from_secs(30), "the conversion never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.signal("TERM");
    let answer = client.join().unwrap();
    assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
    assert!(answer.body.starts_with(b"%PDF-"));
    let status = server.wait(Duration::from_secs(30)).expect("the server exits after the last conversion");
    assert!(status.success(), "{status}");
    let u = usage(dir.path(), "acme");
    assert_eq!((u.used, u.held, u.entries.len()), (1, 0, 1), "{u:?}");
}

#[test]
fn clients_that_vanish_mid_upload_mid_render_or_mid_download_leave_no_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 10);
    let server = Server::start(dir.path(), &["--workers", "1"]);
    let slow = binary::convert_request(&key, &slow_document(60));

    // Mid-upload: half the body, then the connection closes.
    binary::abandon(server.port, &slow, slow.len() / 2);
    // Mid-render: the whole request, then the client gives up while the render runs.
    let started = Instant::now();
    let port = server.port;
    let request = slow.clone();
    let quitter = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.write_all(&request).unwrap();
        stream
    });
    let stream = quitter.join().unwrap();
    let u = usage_when(dir.path(), "acme", Duration::from_secs(30), |u| u.held > 0);
    assert_eq!(u.held, 1, "the render is in flight: {u:?}");
    drop(stream);
    let u = usage_when(dir.path(), "acme", Duration::from_secs(60), |u| u.held == 0);
    assert_eq!((u.held, u.used), (0, 0), "the abandoned render gave its hold back and cost nothing: {u:?}");
    assert!(started.elapsed() < Duration::from_secs(60));

    // Mid-download: the answer's first bytes are read, then the connection closes. The
    // conversion succeeded, so it is paid for; nothing stays held.
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.write_all(&binary::convert_request(&key, &docx(&paragraph("download")))).unwrap();
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    drop(stream);
    let u = usage_when(dir.path(), "acme", Duration::from_secs(10), |u| u.held == 0 && u.used > 0);
    assert_eq!(u.held, 0, "{u:?}");
    assert_consistent("acme", &u, 10);
    assert_eq!(binary::get(server.port, "/healthz").0, 200);
}
