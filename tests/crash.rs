//! The real binary under process faults: kill -9 under load and a restart leave a
//! consistent ledger; SIGTERM lets in-flight conversions finish and commit; clients that
//! vanish mid-upload or mid-download leave no reservation behind. A client that vanishes
//! mid-render is tested on the service's own HTTP server in process, with a render that
//! waits for the test, so the render cannot end before the client is gone.

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
    // Kill once the load is under way (conversions are being answered), not after a guess
    // at how long that takes; with eight clients on two workers, renders wait in the queue
    // holding their credits at any moment.
    let started = Instant::now();
    while ok.iter().map(|n| n.load(Ordering::Relaxed)).sum::<usize>() < 6 {
        assert!(started.elapsed() < Duration::from_secs(60), "no conversion succeeded under load");
        std::thread::sleep(Duration::from_millis(10));
    }
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
    // The conversion was still in flight when the signal came: the server logged the
    // signal before the request's line.
    let log = server.log();
    let signal = log.find("SIGTERM received").unwrap_or_else(|| panic!("no SIGTERM in the log: {log}"));
    let answered = log.find("route=\"/api/convert\"").unwrap_or_else(|| panic!("no request line: {log}"));
    assert!(signal < answered, "the render ended before the signal came: {log}");
    let u = usage(dir.path(), "acme");
    assert_eq!((u.used, u.held, u.entries.len()), (1, 0, 1), "{u:?}");
}

#[test]
fn clients_that_vanish_mid_upload_or_mid_download_leave_no_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 10);
    let server = Server::start(dir.path(), &["--workers", "1"]);
    let slow = binary::convert_request(&key, &slow_document(60));

    // Mid-upload: half the body, a pause in which the server has read the head and waits
    // for the rest, then the connection closes. The ledger is read once the server has
    // answered the broken request (its log line), so a server that held credits before the
    // upload was whole, and kept them when it broke off, fails here.
    binary::abandon(server.port, &slow, slow.len() / 2, Duration::from_millis(500));
    let started = Instant::now();
    while binary::log_lines(&server, "route=\"/api/convert\"").is_empty() {
        assert!(started.elapsed() < Duration::from_secs(30), "the broken upload was never answered: {}", server.log());
        std::thread::sleep(Duration::from_millis(20));
    }
    let u = usage(dir.path(), "acme");
    assert_eq!((u.held, u.used), (0, 0), "a broken upload moved credits: {u:?}");

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

#[actix_web::test]
async fn a_client_that_vanishes_mid_render_gets_its_hold_back_and_pays_nothing() {
    use docx2pdf::db::{self, accounts::Plan};
    use docx2pdf::http::server::{self, Connections};

    let svc = common::TestService::start(common::Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 10).await;
    let mut state = svc.state.clone();
    let mut gate = common::GatedPool::install(&mut state);
    let activity = state.pool.activity();
    let connections =
        Connections { shutdown: Duration::from_secs(1), client_request: Duration::from_secs(10), client_disconnect: Duration::from_secs(5) };
    let (server, address) = server::bind(state, "127.0.0.1:0".parse().unwrap(), connections).expect("bind");
    let handle = server.handle();
    actix_web::rt::spawn(server);
    let balance = || async {
        let month = docx2pdf::credits::Month::of(docx2pdf::clock::Clock::now(&svc.clock));
        let b = db::usage::balance(&svc.db, 1, month).await.unwrap();
        (b.used, b.reserved)
    };
    // Waits (a bounded time) until the balance is `want`.
    let balance_becomes = |want: (i64, i64)| async move {
        let started = Instant::now();
        while balance().await != want && started.elapsed() < Duration::from_secs(30) {
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        }
        balance().await
    };

    // The client sends its whole request, then closes once the test says so.
    let (hang_up, hung_up) = std::sync::mpsc::channel::<()>();
    let request = binary::convert_request(&key, &docx(&paragraph("abandoned")));
    let client = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.write_all(&request).unwrap();
        hung_up.recv().unwrap();
    });
    gate.while_rendering(async {
        assert_eq!(balance().await, (0, 1), "the render holds its credit");
        hang_up.send(()).unwrap();
        client.join().unwrap();
        // The render still waits for the test: only the client's leaving can give the
        // hold back now.
        assert_eq!(balance_becomes((0, 0)).await, (0, 0), "the hold came back while the render ran");
    })
    .await;
    // The render, let go, finishes for nobody: it is not charged.
    let started = Instant::now();
    while activity.finished() == 0 && started.elapsed() < Duration::from_secs(30) {
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(activity.finished(), 1, "the render ended");
    assert_eq!(balance().await, (0, 0), "the abandoned render cost nothing");
    handle.stop(false).await;
}
