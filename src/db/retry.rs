//! Retrying ledger transactions that the database rolled back for a passing reason.
//!
//! Several processes debit one PostgreSQL ledger, so a transaction may be chosen as a
//! deadlock victim (SQLSTATE 40P01) or fail to serialize (40001); PostgreSQL has then rolled
//! it back entirely and running it again is safe. The same holds for a connection that broke
//! before the transaction's COMMIT was sent (the server rolls back a session it loses), and
//! for SQLite's "database is busy" (5, 517).
//! A failure of the COMMIT itself is never retried: the transaction may have been applied.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sea_orm::{DbErr, RuntimeErr};

use super::DbError;

/// Attempts of one operation, the first included.
const ATTEMPTS: u32 = 6;

/// Wait before the second attempt; doubled for each further one (10, 20, 40, 80, 160 ms:
/// 310 ms in all, well inside a request's patience).
const FIRST_BACKOFF: Duration = Duration::from_millis(10);

/// Retries done since the process started, for `/metrics`.
static RETRIES: AtomicU64 = AtomicU64::new(0);

/// How many ledger transactions were run again since the process started.
pub fn retries_total() -> u64 {
    RETRIES.load(Ordering::Relaxed)
}

/// Runs `op` until it succeeds, fails for a reason a retry cannot cure, or has been tried
/// [`ATTEMPTS`] times. `op` must be one whole transaction (or a single statement).
pub async fn retrying<T, F, Fut>(what: &'static str, mut op: F) -> Result<T, DbError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, DbError>>,
{
    let mut backoff = FIRST_BACKOFF;
    let mut attempt = 1;
    loop {
        match op().await {
            Err(DbError::Database(e)) if attempt < ATTEMPTS && is_transient(&e) => {
                RETRIES.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(operation = what, attempt, error = %e, "retrying a ledger transaction");
                tokio::time::sleep(backoff + jitter(backoff)).await;
                backoff *= 2;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// Maps an error of `COMMIT`: only a rollback the database reported for certain stays
/// retryable; anything else (a connection lost while committing) leaves the outcome unknown.
pub fn at_commit(e: DbErr) -> DbError {
    if sqlstate(&e).is_some_and(|code| ROLLED_BACK.contains(&code.as_str())) {
        DbError::Database(e)
    } else {
        DbError::CommitUnknown(e)
    }
}

/// Maps an error of a statement run outside a transaction block, which commits by itself:
/// an error the server answered with means it was rolled back (retryable when its SQLSTATE
/// says so); a connection that failed without an answer leaves the outcome unknown, as a
/// failed COMMIT does. A pool that gave no connection sent nothing.
pub fn at_statement(e: DbErr) -> DbError {
    if sqlstate(&e).is_some() || matches!(e, DbErr::ConnectionAcquire(_)) {
        DbError::Database(e)
    } else {
        DbError::CommitUnknown(e)
    }
}

/// SQLSTATEs after which PostgreSQL has rolled the transaction back and a retry may succeed
/// (PostgreSQL manual, appendix A, class 40), and SQLite's busy codes (5 SQLITE_BUSY,
/// 517 SQLITE_BUSY_SNAPSHOT).
const ROLLED_BACK: [&str; 4] = ["40001", "40P01", "5", "517"];

/// Whether `e` is worth another attempt of the whole transaction.
fn is_transient(e: &DbErr) -> bool {
    if let Some(code) = sqlstate(e) {
        return ROLLED_BACK.contains(&code.as_str());
    }
    match e {
        // Not `ConnectionAcquire`: the pool has already waited its whole timeout for a
        // connection, and the caller should hear now that the database is unreachable.
        DbErr::Conn(RuntimeErr::SqlxError(s))
        | DbErr::Exec(RuntimeErr::SqlxError(s))
        | DbErr::Query(RuntimeErr::SqlxError(s)) => {
            use sea_orm::sqlx::Error;
            matches!(s, Error::Io(_) | Error::WorkerCrashed)
        }
        _ => false,
    }
}

/// The SQLSTATE (or SQLite result code) of a database error, if it carries one.
fn sqlstate(e: &DbErr) -> Option<String> {
    match e {
        DbErr::Conn(RuntimeErr::SqlxError(s))
        | DbErr::Exec(RuntimeErr::SqlxError(s))
        | DbErr::Query(RuntimeErr::SqlxError(s)) => {
            s.as_database_error().and_then(|d| d.code()).map(|c| c.into_owned())
        }
        _ => None,
    }
}

/// Up to half of `backoff`, so processes that collided do not collide again in step.
fn jitter(backoff: Duration) -> Duration {
    let mut b = [0u8; 2];
    if getrandom::fill(&mut b).is_err() {
        return Duration::ZERO;
    }
    backoff.mul_f64(f64::from(u16::from_le_bytes(b)) / f64::from(u16::MAX) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io_error() -> DbErr {
        DbErr::Exec(RuntimeErr::SqlxError(sea_orm::sqlx::Error::Io(std::io::Error::from(
            std::io::ErrorKind::BrokenPipe,
        ))))
    }

    #[tokio::test]
    async fn a_broken_connection_is_tried_again_and_a_logic_error_is_not() {
        let mut calls = 0;
        let out: Result<i32, DbError> = retrying("test", || {
            calls += 1;
            let n = calls;
            async move {
                if n < 3 {
                    Err(DbError::Database(io_error()))
                } else {
                    Ok(7)
                }
            }
        })
        .await;
        assert_eq!(out.unwrap(), 7);
        assert_eq!(calls, 3);

        let mut calls = 0;
        let out: Result<i32, DbError> = retrying("test", || {
            calls += 1;
            async { Err(DbError::Database(DbErr::RecordNotFound("x".into()))) }
        })
        .await;
        assert!(out.is_err());
        assert_eq!(calls, 1);
    }

    #[tokio::test]
    async fn retries_stop_after_the_last_attempt() {
        let mut calls = 0;
        let out: Result<(), DbError> = retrying("test", || {
            calls += 1;
            async { Err(DbError::Database(io_error())) }
        })
        .await;
        assert!(out.is_err());
        assert_eq!(calls, ATTEMPTS);
    }

    #[test]
    fn a_lost_connection_at_commit_is_not_retryable() {
        assert!(matches!(at_commit(io_error()), DbError::CommitUnknown(_)));
    }
}
