//! Group commit of ledger writes on PostgreSQL. The ledger's statements commit with
//! `synchronous_commit` off, so they hold the month's usage row only while they run, not
//! while the WAL reaches the disk (3.5–5 ms a flush on this machine under load, 0.2 ms a
//! statement without it: pgbench, one client). A debit is answered only once it is durable:
//! [`WalFlush::durable`] commits one small synchronous transaction, whose flush carries every
//! WAL record written before it by any session: the WAL is one sequence, and a commit
//! flushes it up to its own record, all that precedes included (`XLogFlush`, PostgreSQL's
//! src/backend/access/transam/xlog.c; the manual's "Asynchronous Commit"). Debits that
//! finished while a flush was under way share the next one: one disk write for many.
//! `tests/postgres.rs` checks the flushed position after it.
//!
//! SQLite commits are as durable as `--sqlite-sync` makes them when they return, so there
//! this waits for nothing.

use std::sync::atomic::{AtomicU64, Ordering};

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};
use tokio::sync::Mutex;

use super::retry::retrying;
use super::DbError;

/// A transactional logical message: a WAL record of its own and a commit record, so the
/// synchronous commit flushes the WAL up to it. It touches no table, so it waits for no
/// row lock. Any role may call it (PostgreSQL 15: no REVOKE on it).
const BARRIER: &str = "SELECT pg_logical_emit_message(true, 'docx2pdf.ledger', '')";

/// Makes written ledger statements durable, sharing one WAL flush among all that are
/// waiting. One per process (the CreditLedger's); a fresh one flushes for its caller alone.
#[derive(Debug, Default)]
pub struct WalFlush {
    /// Writes reported so far; each write's ticket is the count after it.
    written: AtomicU64,
    /// Every write with a ticket up to this is durable.
    flushed: Mutex<u64>,
}

impl WalFlush {
    /// Returns once every ledger statement that returned before this call is durable.
    pub async fn durable(&self, db: &impl ConnectionTrait) -> Result<(), DbError> {
        if db.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        // The ticket is taken after the write returned, so a flush that starts after the
        // ticket was taken carries the write.
        let mine = self.written.fetch_add(1, Ordering::SeqCst) + 1;
        let mut flushed = self.flushed.lock().await;
        if *flushed >= mine {
            return Ok(());
        }
        let upto = self.written.load(Ordering::SeqCst);
        // Running the barrier again is harmless, so a broken connection is retried too: the
        // write stands in the server's WAL buffers and a flush from any session carries it.
        retrying("flush", || async {
            db.execute(Statement::from_string(DatabaseBackend::Postgres, BARRIER)).await?;
            Ok(())
        })
        .await
        .map_err(|e| match e {
            // The debit is written; whether it reached the disk is unknown.
            DbError::Database(e) => DbError::CommitUnknown(e),
            other => other,
        })?;
        *flushed = upto;
        Ok(())
    }
}
