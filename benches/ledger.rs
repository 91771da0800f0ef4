//! The credit ledger alone, without HTTP or rendering: how many conversions a second one
//! account's hold and commit can carry on SQLite (a temporary file, the server's default
//! pool) and on PostgreSQL (a fresh database on the server named by
//! `DOCX2PDF_TEST_POSTGRES_URL`, default `postgres://postgres@127.0.0.1:5432/postgres`,
//! skipped with a remark when none answers). Two loads: one hold then commit after another
//! (`ledger.serial`), and 8 callers through the CreditLedger actor as the HTTP handler sends
//! them (`ledger.actor`). Prints figure lines (docs/performance.md, "The figure format");
//! run with `cargo bench --bench ledger`, or `-- N` for N conversions a load (default 2000).

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::Actor;
use chrono::Utc;
use docx2pdf::clock::{unix_ms, SystemClock};
use docx2pdf::credits::Month;
use docx2pdf::db::usage::{self, Debit, HoldOutcome, HoldRequest};
use docx2pdf::db::{self, accounts::Plan, PoolOptions};
use docx2pdf::ledger::{Commit, CreditLedger, Reserve};
use futures_util::future::join_all;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection};

/// Callers of the actor load, as `bench-load --concurrency 8`.
const CALLERS: usize = 8;

/// Credits of the bench account: never the limit.
const ALLOWANCE: i64 = 100_000_000;

fn main() {
    let n: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(2000);
    actix_web::rt::System::new().block_on(async move {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let sqlite = format!("sqlite://{}?mode=rwc", dir.path().join("ledger.db").display());
        run("sqlite", &sqlite, n).await;
        let admin = std::env::var("DOCX2PDF_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        match Scratch::create(&admin).await {
            Ok(scratch) => {
                run("postgres", &scratch.url, n).await;
                scratch.drop_it().await;
            }
            Err(e) => println!("# no PostgreSQL at {admin} ({e}): skipped"),
        }
    });
}

/// Both loads on the database at `url`.
async fn run(engine: &str, url: &str, n: usize) {
    let pool = PoolOptions { max_connections: db::default_pool_size(url), ..PoolOptions::default() };
    let conn = db::connect(url, &pool).await.expect("the database opens");
    let now = unix_ms(Utc::now());
    let account = db::accounts::create(&conn, "bench", Plan::Paid, ALLOWANCE, now).await.expect("an account");
    db::keys::create(&conn, "bench", now).await.expect("a key");
    let key = db::keys::list(&conn, "bench").await.expect("its key").remove(0).id;

    let started = Instant::now();
    for _ in 0..n {
        serial_one(&conn, account.id, key).await;
    }
    figure("ledger.serial.throughput", n, started.elapsed(), engine);

    let ledger = CreditLedger::new(conn.clone(), Arc::new(SystemClock), Duration::from_secs(600)).start();
    let started = Instant::now();
    join_all((0..CALLERS).map(|c| {
        let ledger = ledger.clone();
        async move {
            for i in 0..n / CALLERS {
                let request_id = format!("{c}-{i}");
                let reserve = Reserve { account_id: account.id, limit: ALLOWANCE, credits: 1, request_id: request_id.clone() };
                let hold = ledger.send(reserve).await.expect("the ledger runs").expect("a hold");
                let commit = Commit { hold, limit: ALLOWANCE, api_key_id: key, request_id, bytes: 4096 };
                ledger.send(commit).await.expect("the ledger runs").expect("a commit");
            }
        }
    }))
    .await;
    figure("ledger.actor.throughput", n / CALLERS * CALLERS, started.elapsed(), engine);
    let _ = conn.close().await;
}

/// One hold and its commit, straight on the database layer.
async fn serial_one(conn: &DatabaseConnection, account_id: i64, key: i64) {
    let now = Utc::now();
    let req = HoldRequest {
        account_id,
        month: Month::of(now),
        limit: ALLOWANCE,
        credits: 1,
        request_id: "serial",
        now_ms: unix_ms(now),
        expires_ms: unix_ms(now) + 600_000,
    };
    let HoldOutcome::Held(hold) = usage::hold(conn, &req).await.expect("a hold") else { panic!("refused") };
    let debit = Debit { api_key_id: key, request_id: "serial", bytes: 4096, now_ms: unix_ms(now) };
    usage::commit(conn, &hold, debit).await.expect("a commit").expect("the hold was there");
}

fn figure(name: &str, n: usize, took: Duration, engine: &str) {
    let rate = n as f64 / took.as_secs_f64();
    println!("figure {name} {rate:.1} requests/s tool=ledger-bench engine={engine} conversions={n}");
}

/// A PostgreSQL database made for one run and dropped after it.
struct Scratch {
    admin: DatabaseConnection,
    name: String,
    url: String,
}

impl Scratch {
    async fn create(admin_url: &str) -> Result<Scratch, sea_orm::DbErr> {
        let mut opts = ConnectOptions::new(admin_url.to_owned());
        opts.max_connections(1).acquire_timeout(Duration::from_secs(3)).sqlx_logging(false);
        let admin = Database::connect(opts).await?;
        let mut b = [0u8; 6];
        getrandom::fill(&mut b).expect("random bytes");
        let name = format!("docx2pdf_bench_{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>());
        admin.execute_unprepared(&format!("CREATE DATABASE {name}")).await?;
        let (base, query) = admin_url.split_once('?').map_or((admin_url, ""), |(b, q)| (b, q));
        let server = base.rsplit_once('/').map_or(base, |(s, _)| s);
        let url = if query.is_empty() { format!("{server}/{name}") } else { format!("{server}/{name}?{query}") };
        Ok(Scratch { admin, name, url })
    }

    async fn drop_it(self) {
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        if let Err(e) = self.admin.execute_unprepared(&sql).await {
            println!("# could not drop {}: {e}", self.name);
        }
    }
}
