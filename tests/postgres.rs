//! docx2pdf on PostgreSQL through the real binary: every command with `--database-url
//! postgres://…`, instances migrating one empty database at once and starting on it
//! together, a debit chosen as a deadlock victim and run again, a debit on disk before it is
//! answered, and the database going away and coming back under a running server (skipped,
//! saying so, without a server).

mod common;
mod pg;

use std::time::{Duration, Instant};

use chrono::Utc;
use common::docx::{docx, paragraph};
use docx2pdf::clock::unix_ms;
use docx2pdf::credits::Month;
use docx2pdf::db::usage::{self, Balance, Debit, HoldOutcome, HoldRequest};
use docx2pdf::db::wal_flush::WalFlush;
use docx2pdf::db::{self, accounts::Plan, retry, PoolOptions};
use futures_util::future::join_all;
use pg::server::{account_with_key, run, run_raw, Server};
use pg::TestDb;
use sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};
use serde_json::Value;

#[test]
fn every_command_works_on_postgres() {
    let Some(db) = TestDb::create_blocking() else { return };
    let url = db.url.as_str();
    assert!(run(url, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"])
        .contains("acme"));
    let dup = run_raw(url, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "5"]);
    assert!(String::from_utf8_lossy(&dup.stderr).contains("exists already"), "{dup:?}");
    run(url, &["accounts", "set", "--name", "acme", "--monthly-credits", "7"]);
    let list = run(url, &["accounts", "list"]);
    assert!(list.lines().any(|l| l.starts_with("acme") && l.contains("paid") && l.ends_with('7')), "{list}");

    let key = run(url, &["keys", "create", "--account", "acme"]).lines().last().unwrap().to_owned();
    assert!(run(url, &["keys", "list", "--account", "acme"]).contains(&key[..12]));

    let server = Server::start(url, &["--workers", "1"]);
    assert_eq!(server.get("/readyz").0, 200);
    assert_eq!(server.convert(&key, &docx(&paragraph("Stored in PostgreSQL"))).0, 200);
    let usage = run(url, &["usage", "--account", "acme"]);
    assert!(
        usage.contains("used:      1") && usage.contains("remaining: 6") && usage.contains("entries:   1"),
        "{usage}"
    );

    // A revocation by the command reaches the running server at once.
    run(url, &["keys", "revoke", "--prefix", &key[..12]]);
    assert_eq!(server.convert(&key, &docx(&paragraph("Refused"))).0, 401);
    assert!(run(url, &["keys", "list", "--account", "acme"]).contains("revoked"));
}

#[actix_web::test]
async fn instances_starting_together_migrate_one_empty_database() {
    let Some(db) = TestDb::create().await else { return };
    let opts = PoolOptions { max_connections: 2, acquire_timeout: Duration::from_secs(30), ..PoolOptions::default() };
    let opened = join_all((0..4).map(|_| db::connect(&db.url, &opts))).await;
    for conn in opened {
        let conn = conn.expect("each instance opens the database");
        assert_eq!(db::accounts::count(&conn).await.unwrap(), 0);
    }
}

#[test]
fn serve_processes_started_together_on_an_empty_database_all_come_up() {
    let Some(db) = TestDb::create_blocking() else { return };
    let url = db.url.clone();
    // Each first `serve` tries to create the `local` account; the ones that lose the race
    // must carry on serving, not exit.
    let starters: Vec<_> = (0..3)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || Server::start(&url, &["--workers", "1"]))
        })
        .collect();
    let servers: Vec<Server> = starters.into_iter().map(|t| t.join().expect("serve started")).collect();
    for server in &servers {
        assert_eq!(server.get("/readyz").0, 200, "{}", server.log());
    }
    let list = run(&url, &["accounts", "list"]);
    assert_eq!(list.lines().filter(|l| l.starts_with("local")).count(), 1, "{list}");
}

#[actix_web::test]
async fn a_commit_chosen_as_deadlock_victim_is_run_again() {
    let Some(test_db) = TestDb::create().await else { return };
    let (service, other, watcher) = (test_db.connect().await, test_db.connect().await, test_db.connect().await);
    let now = Utc::now();
    let account = db::accounts::create(&service, "acme", Plan::Paid, 10, unix_ms(now)).await.unwrap();
    db::keys::create(&service, "acme", unix_ms(now)).await.unwrap();
    let key = db::keys::list(&service, "acme").await.unwrap().remove(0);
    let month = Month::of(now);
    let req = HoldRequest {
        account_id: account.id,
        month,
        limit: 10,
        credits: 2,
        request_id: "deadlock",
        now_ms: unix_ms(now),
        expires_ms: unix_ms(now) + 60_000,
    };
    let HoldOutcome::Held(hold) = usage::hold(&service, &req).await.unwrap() else { panic!("refused") };
    let retries_before = retry::retries_total();

    // Another session locks the month's usage row, and waits long before it looks for
    // deadlocks itself, so the commit's session (PostgreSQL's default 1 s) finds the cycle.
    let other = other.begin().await.unwrap();
    other.execute_unprepared("SET LOCAL deadlock_timeout = '60s'").await.unwrap();
    other
        .execute_unprepared(&format!("UPDATE monthly_usage SET used = used WHERE account_id = {}", account.id))
        .await
        .unwrap();

    // The commit deletes the reservation (locking it), then waits for the usage row.
    let hold_id = hold.id;
    let commit = actix_web::rt::spawn(async move {
        let debit = Debit { api_key_id: key.id, request_id: "deadlock", bytes: 100, now_ms: unix_ms(Utc::now()) };
        usage::commit(&service, &hold, debit).await
    });
    let waiting = Statement::from_string(
        DbBackend::Postgres,
        format!(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = '{}' AND wait_event_type = 'Lock'",
            test_db.name
        ),
    );
    let started = Instant::now();
    loop {
        let row = watcher.query_one(waiting.clone()).await.unwrap().unwrap();
        if row.try_get::<i64>("", "n").unwrap() == 1 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "the commit never waited for the usage row");
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    // Now this session wants the reservation the commit holds: a deadlock. PostgreSQL
    // aborts the commit's transaction (40P01), which frees the row and lets this go on.
    other.execute_unprepared(&format!("SELECT id FROM reservations WHERE id = {hold_id} FOR UPDATE")).await.unwrap();
    other.rollback().await.unwrap();

    let after = commit.await.unwrap().expect("the commit succeeds on its second attempt");
    assert_eq!(after, Some(Balance { used: 2, reserved: 0 }));
    assert!(retry::retries_total() > retries_before, "the commit was retried");
    let entries = usage::entries(&watcher, account.id, month).await.unwrap();
    assert_eq!(entries.iter().map(|e| e.credits).collect::<Vec<_>>(), [2], "charged exactly once");
}

/// A WAL position of the server, in bytes.
async fn wal_position(db: &impl ConnectionTrait, function: &str) -> i64 {
    let sql = format!("SELECT ({function}() - '0/0'::pg_lsn)::bigint AS n");
    let row = db.query_one(Statement::from_string(DbBackend::Postgres, sql)).await.unwrap().unwrap();
    row.try_get("", "n").unwrap()
}

#[actix_web::test]
async fn a_debit_written_without_waiting_for_the_disk_is_flushed_before_it_is_answered() {
    let Some(test_db) = TestDb::create().await else { return };
    let (service, watcher) = (test_db.connect().await, test_db.connect().await);
    let now = Utc::now();
    let account = db::accounts::create(&service, "acme", Plan::Paid, 10, unix_ms(now)).await.unwrap();
    db::keys::create(&service, "acme", unix_ms(now)).await.unwrap();
    let key = db::keys::list(&service, "acme").await.unwrap().remove(0);
    let flush = WalFlush::default();
    for i in 0..5 {
        let req = HoldRequest {
            account_id: account.id,
            month: Month::of(now),
            limit: 10,
            credits: 2,
            request_id: "durable",
            now_ms: unix_ms(now),
            expires_ms: unix_ms(now) + 60_000,
        };
        let HoldOutcome::Held(hold) = usage::hold(&service, &req).await.unwrap() else { panic!("refused") };
        let debit = Debit { api_key_id: key.id, request_id: "durable", bytes: 100, now_ms: unix_ms(now) };
        let after = usage::commit_written(&service, &hold, debit).await.unwrap();
        assert_eq!(after, Some(Balance { used: 2 * (i + 1), reserved: 0 }));
        // Everything written so far, the debit included, is on disk once `durable` returns
        // (the WAL writer alone would take up to 200 ms: wal_writer_delay).
        let written = wal_position(&watcher, "pg_current_wal_insert_lsn").await;
        flush.durable(&service).await.unwrap();
        let flushed = wal_position(&watcher, "pg_current_wal_flush_lsn").await;
        assert!(flushed >= written, "round {i}: flushed to {flushed}, written to {written}");
    }
}

/// Parses a JSON error body's `code`.
fn code(body: &str) -> String {
    serde_json::from_str::<Value>(body).ok().and_then(|v| v["code"].as_str().map(str::to_owned)).unwrap_or_default()
}

#[test]
fn a_lost_database_makes_the_service_unavailable_and_it_recovers_by_itself() {
    let Some(db) = TestDb::create_blocking() else { return };
    let key = account_with_key(&db.url, "acme", 10);
    let server = Server::start(&db.url, &["--workers", "1", "--db-timeout-secs", "2"]);
    let file = docx(&paragraph("Before, during and after the outage"));
    assert_eq!(server.convert(&key, &file).0, 200);

    // The database goes away: new sessions are refused and the pool's are cut.
    db.admin_blocking(&format!("ALTER DATABASE {} ALLOW_CONNECTIONS false", db.name));
    db.admin_blocking(&format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}' AND pid <> pg_backend_pid()",
        db.name
    ));
    let (status, body) = server.get("/readyz");
    assert_eq!((status, code(&body).as_str()), (503, "unavailable"), "{body}");
    for _ in 0..3 {
        let (status, body) = server.convert(&key, &file);
        assert_eq!((status, code(&body).as_str()), (503, "unavailable"), "{body}");
    }
    assert_eq!(server.get("/healthz").0, 200, "the process itself stays alive");

    // It comes back: the service recovers with no restart.
    db.admin_blocking(&format!("ALTER DATABASE {} ALLOW_CONNECTIONS true", db.name));
    let back = Instant::now();
    while server.get("/readyz").0 != 200 {
        assert!(back.elapsed() < Duration::from_secs(20), "not ready again: {}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(server.convert(&key, &file).0, 200);

    // Only the two conversions that succeeded were charged, and nothing is held.
    let usage = run(&db.url, &["usage", "--account", "acme"]);
    for line in ["used:      2", "held:      0", "entries:   2"] {
        assert!(usage.contains(line), "{line:?} in {usage}");
    }
    let (_, metrics) = server.get("/metrics");
    assert!(metrics.contains("docx2pdf_http_requests_total{route=\"/api/convert\",status=\"503\"} 3"), "{metrics}");
}
