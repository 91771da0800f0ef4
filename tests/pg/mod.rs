//! A fresh PostgreSQL database per test, created on the server named by
//! `DOCX2PDF_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`) and
//! dropped when the test ends; without a server the test is skipped (see `skip.rs`), and
//! fails under `CI=true`.

#![allow(dead_code)]

pub mod server;
// Also loaded by `common` in binaries that have both: the same rule, twice compiled.
#[allow(clippy::duplicate_mod)]
#[path = "../support/skip.rs"]
mod skip;

use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use docx2pdf::db::{self, PoolOptions};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection};

/// Where the tests look for a server when the environment names none.
pub const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// The server's URL (its maintenance database, used to create and drop test databases).
pub fn admin_url() -> String {
    std::env::var("DOCX2PDF_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned())
}

/// One test's own database; dropped with this value, even when the test panics.
pub struct TestDb {
    /// The database's URL, for the service and its commands.
    pub url: String,
    /// The database's name.
    pub name: String,
    admin: String,
}

impl TestDb {
    /// Creates a database with a random name, or `None` when the test is skipped.
    pub async fn create() -> Option<TestDb> {
        let admin = admin_url();
        if !answers(&admin) {
            skip::skip(&format!("no PostgreSQL at {admin} (set DOCX2PDF_TEST_POSTGRES_URL)"));
            return None;
        }
        let conn = match admin_connection(&admin).await {
            Ok(conn) => conn,
            Err(e) => {
                skip::skip(&format!("no PostgreSQL at {admin} ({e})"));
                return None;
            }
        };
        let name = format!("docx2pdf_test_{}", random_hex());
        conn.execute_unprepared(&format!("CREATE DATABASE {name}")).await.expect("create the test database");
        let _ = conn.close().await;
        Some(TestDb { url: with_database(&admin, &name), name, admin })
    }

    /// [`TestDb::create`] outside an async context.
    pub fn create_blocking() -> Option<TestDb> {
        block_on(TestDb::create())
    }

    /// Opens the service's pool on this database (migrations applied).
    pub async fn connect(&self) -> DatabaseConnection {
        db::connect(&self.url, &PoolOptions::default()).await.expect("connect to the test database")
    }

    /// Runs SQL on the maintenance database (e.g. to refuse or allow connections).
    pub async fn admin(&self, sql: &str) {
        let conn = admin_connection(&self.admin).await.expect("admin connection");
        conn.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        let _ = conn.close().await;
    }

    /// [`TestDb::admin`] outside an async context.
    pub fn admin_blocking(&self, sql: &str) {
        block_on(self.admin(sql))
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // A runtime of its own on a thread of its own: the test's runtime may be the caller.
        let admin = self.admin.clone();
        let name = self.name.clone();
        let dropped = std::thread::spawn(move || {
            block_on(async move {
                let conn = admin_connection(&admin).await.ok()?;
                conn.execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await.ok()?;
                conn.close().await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(()))) {
            eprintln!("could not drop the test database {}", self.name);
        }
    }
}

/// Runs a future to completion on a fresh actix runtime.
pub fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    actix_web::rt::System::new().block_on(f)
}

/// Whether anything listens at the URL's host and port (a quick probe, so a machine
/// without PostgreSQL skips at once instead of waiting for the pool's timeout).
fn answers(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let host_port = if host_port.contains(':') { host_port.to_owned() } else { format!("{host_port}:5432") };
    let Ok(addrs) = host_port.to_socket_addrs() else { return false };
    addrs.into_iter().any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(1)).is_ok())
}

async fn admin_connection(url: &str) -> Result<DatabaseConnection, sea_orm::DbErr> {
    let mut opts = ConnectOptions::new(url.to_owned());
    opts.max_connections(1).acquire_timeout(Duration::from_secs(5)).sqlx_logging(false);
    Database::connect(opts).await
}

/// `url` with its database (the path) replaced by `name`, keeping any query.
fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a URL with a scheme");
    let (authority, after) = rest.split_once('/').unwrap_or((rest, ""));
    let query = after.split_once('?').map(|(_, q)| format!("?{q}")).unwrap_or_default();
    format!("{scheme}://{authority}/{name}{query}")
}

fn random_hex() -> String {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("random bytes");
    b.iter().map(|x| format!("{x:02x}")).collect()
}
