//! Opening the database: SQLite files get their folder created, WAL journaling, the
//! chosen commit durability and a busy timeout so concurrent writers queue instead of
//! failing; PostgreSQL instances starting at once take turns applying the migrations;
//! migrations run every time.

use std::path::Path;
use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, TransactionTrait};

use super::DbError;

/// Connection pool settings.
#[derive(Debug, Clone)]
pub struct PoolOptions {
    /// Most connections held open.
    pub max_connections: u32,
    /// How long a request waits for a free connection (and for a connection to open).
    pub acquire_timeout: Duration,
    /// When an SQLite commit reaches the disk.
    pub sqlite_sync: SqliteSync,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions { max_connections: 16, acquire_timeout: Duration::from_secs(5), sqlite_sync: SqliteSync::Normal }
    }
}

/// When an SQLite commit reaches the disk (`PRAGMA synchronous` in WAL mode, sqlite.org/pragma.html#pragma_synchronous).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SqliteSync {
    /// The log is synced at checkpoints only. Commits survive a crash of the process; a
    /// power loss or kernel crash may undo the last ones, never leaving the file damaged.
    /// Undone ledger work only ever favours the customer: a hold whose release or commit
    /// was lost expires and is released by the sweep, so nothing is charged for it.
    Normal,
    /// The log is synced at every commit: two syncs per conversion (hold, then debit),
    /// which one account's serialized debits wait for in turn. On this machine's disk
    /// it costs a single account 10–15% of its throughput at concurrency 8
    /// (docs/operations.md, "Limits and reliability").
    Full,
}

/// Connects to `url` and applies the migrations.
pub async fn connect(url: &str, pool: &PoolOptions) -> Result<DatabaseConnection, DbError> {
    if let Some(path) = sqlite_file(url) {
        if let Some(dir) = Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|source| DbError::Folder { path: dir.display().to_string(), source })?;
        }
    }
    let synchronous = match pool.sqlite_sync {
        SqliteSync::Normal => SqliteSynchronous::Normal,
        SqliteSync::Full => SqliteSynchronous::Full,
    };
    let mut opts = ConnectOptions::new(url.to_owned());
    opts.max_connections(pool.max_connections)
        .min_connections(1)
        .acquire_timeout(pool.acquire_timeout)
        .connect_timeout(pool.acquire_timeout)
        .sqlx_logging(false)
        // The pool pings a connection before lending it, which finds a PostgreSQL session
        // the server has cut; an SQLite connection is a file in this process and cannot be
        // cut, so there the ping is only a round trip to its worker thread (three a
        // conversion: key, hold, debit).
        .test_before_acquire(sqlite_path(url).is_none())
        .map_sqlx_sqlite_opts(move |o| {
            o.journal_mode(SqliteJournalMode::Wal)
                .synchronous(synchronous)
                .busy_timeout(Duration::from_secs(30))
                .foreign_keys(true)
        });
    let db = Database::connect(opts).await?;
    migrate(&db).await.map_err(|e| DbError::Migration(e.to_string()))?;
    Ok(db)
}

/// How the connection pool is doing, for `/metrics`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Connections open (busy or idle).
    pub open: u32,
    /// Open connections waiting for work.
    pub idle: u32,
    /// Most connections the pool may open.
    pub max: u32,
}

/// The pool's current figures.
pub fn pool_stats(db: &DatabaseConnection) -> PoolStats {
    // The accessors panic on the other engine, so ask for the backend first.
    let (open, idle, max) = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            let pool = db.get_postgres_connection_pool();
            (pool.size(), pool.num_idle(), pool.options().get_max_connections())
        }
        DatabaseBackend::Sqlite => {
            let pool = db.get_sqlite_connection_pool();
            (pool.size(), pool.num_idle(), pool.options().get_max_connections())
        }
        DatabaseBackend::MySql => (0, 0, 0),
    };
    PoolStats { open, idle: u32::try_from(idle).unwrap_or(u32::MAX), max }
}

/// Key of the PostgreSQL advisory lock held while migrating ("d2pmigr" in ASCII).
const MIGRATION_LOCK: i64 = 0x0064_3270_6d69_6772;

/// Applies the pending migrations. On PostgreSQL several instances may start together on an
/// empty database; each takes a transaction-scoped advisory lock first, so one creates the
/// tables while the others wait and then find nothing to do (concurrent `CREATE TABLE IF NOT
/// EXISTS` would otherwise collide on the catalog's unique indexes).
async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    if db.get_database_backend() != DatabaseBackend::Postgres {
        return Migrator::up(db, None).await;
    }
    let txn = db.begin().await?;
    txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")).await?;
    Migrator::up(&txn, None).await?;
    txn.commit().await
}

/// The pool size for `url` when none is given. SQLite has one writer at a time, and every
/// connection keeps a page cache of its own that the others' commits invalidate: at
/// concurrency 8 on one account, 16 connections served 630–720 requests/s and 2 to 8 of
/// them 780–990 (a performance round of the README before 6861cb9: `git log -p README.md`).
/// PostgreSQL connections work in parallel.
pub fn default_pool_size(url: &str) -> u32 {
    if sqlite_path(url).is_some() {
        4
    } else {
        16
    }
}

/// What follows the scheme of an SQLite URL.
fn sqlite_path(url: &str) -> Option<&str> {
    url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))
}

/// The file path of a `sqlite://` URL, if it names a file.
fn sqlite_file(url: &str) -> Option<&str> {
    let rest = sqlite_path(url)?;
    let path = rest.split('?').next().unwrap_or("");
    (!path.is_empty() && path != ":memory:").then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::Statement;

    /// `PRAGMA synchronous` of a pooled connection: 1 NORMAL, 2 FULL.
    async fn synchronous(db: &DatabaseConnection) -> i64 {
        let row = db
            .query_one(Statement::from_string(DatabaseBackend::Sqlite, "PRAGMA synchronous"))
            .await
            .expect("pragma")
            .expect("a row");
        row.try_get("", "synchronous").expect("a number")
    }

    #[tokio::test]
    async fn an_sqlite_file_gets_the_chosen_commit_durability() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (sync, expected) in [(SqliteSync::Normal, 1), (SqliteSync::Full, 2)] {
            let url = format!("sqlite://{}?mode=rwc", dir.path().join(format!("{expected}.db")).display());
            let pool = PoolOptions { max_connections: 2, sqlite_sync: sync, ..PoolOptions::default() };
            let db = connect(&url, &pool).await.expect("connect");
            assert_eq!(synchronous(&db).await, expected, "{sync:?}");
        }
    }

    #[test]
    fn sqlite_urls_name_their_file() {
        assert_eq!(sqlite_file("sqlite://data/docx2pdf.db?mode=rwc"), Some("data/docx2pdf.db"));
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("postgres://postgres@127.0.0.1/test"), None);
    }
}
