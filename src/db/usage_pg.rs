//! The hold and the debit on PostgreSQL, one statement each: data-modifying common table
//! expressions (PostgreSQL manual, "WITH Queries", 7.8.4) do in one round trip what the
//! portable path does in a transaction of four or five (BEGIN, UPDATE, INSERT, [DELETE,]
//! COMMIT). A statement outside a transaction block is a transaction of its own, so each
//! step stays atomic and the conditional UPDATE keeps the allowance across processes as in
//! `usage.rs`. SQLite has no data-modifying WITH and keeps the transactions.
//!
//! Both commit with `synchronous_commit` off (`set_config(…, true)` lasts until the end of
//! the statement's transaction): the row lock is let go without waiting for the disk.
//! Losing a hold to a server crash charges nothing (its commit finds no reservation and
//! the conversion fails, as when the sweep took it); a debit is answered only after
//! [`super::wal_flush::WalFlush::durable`]. A debit that survives a crash had its WAL
//! flushed, and with it the earlier hold it consumed, so the ledger after a crash is one
//! the service passed through: never over the allowance, `used` the sum of the entries.

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

use super::retry::at_statement;
use super::usage::{Balance, Debit, Hold, HoldRequest};
use super::DbError;

/// Reserves the credits and records the hold when they fit; no row when they do not, or
/// when the month has no usage row yet (the portable path then decides).
const HOLD: &str = "\
WITH quiet AS (SELECT set_config('synchronous_commit', 'off', true)), \
usage AS (UPDATE monthly_usage SET reserved = reserved + $1 \
    WHERE account_id = $2 AND month = $3 AND used + reserved + $1 <= $4 RETURNING account_id) \
INSERT INTO reservations (account_id, month, credits, request_id, created_at, expires_at) \
SELECT $2, $3, $1, $5, $6, $7 FROM usage, quiet RETURNING id";

/// Deletes the hold, moves its credits from reserved to used and writes the ledger entry;
/// the balance after it, or no row when the hold is gone (nothing is then changed). Every
/// table is reached through the account id, so the statement stays on one shard of a
/// database distributed by account (docs/operations.md).
const COMMIT: &str = "\
WITH quiet AS (SELECT set_config('synchronous_commit', 'off', true)), \
hold AS (DELETE FROM reservations WHERE id = $1 AND account_id = $2 RETURNING credits), \
usage AS (UPDATE monthly_usage \
    SET reserved = monthly_usage.reserved - hold.credits, used = monthly_usage.used + hold.credits \
    FROM hold WHERE monthly_usage.account_id = $2 AND monthly_usage.month = $3 \
    RETURNING monthly_usage.used, monthly_usage.reserved, hold.credits), \
entry AS (INSERT INTO ledger_entries (account_id, api_key_id, request_id, month, bytes, credits, created_at) \
    SELECT $2, $4, $5, $3, $6, usage.credits, $7 FROM usage RETURNING id) \
SELECT usage.used, usage.reserved FROM usage, entry, quiet";

/// The hold, or `None` when the credits do not fit or the month's row is missing.
pub async fn hold(db: &impl ConnectionTrait, req: &HoldRequest<'_>) -> Result<Option<Hold>, DbError> {
    let stmt = Statement::from_sql_and_values(
        DatabaseBackend::Postgres,
        HOLD,
        [
            req.credits.into(),
            req.account_id.into(),
            req.month.to_string().into(),
            req.limit.into(),
            req.request_id.into(),
            req.now_ms.into(),
            req.expires_ms.into(),
        ],
    );
    let Some(row) = db.query_one(stmt).await.map_err(at_statement)? else { return Ok(None) };
    let id: i64 = row.try_get("", "id")?;
    Ok(Some(Hold { id, account_id: req.account_id, month: req.month, credits: req.credits }))
}

/// The balance after the debit, or `None` when the hold no longer exists. Written, not
/// yet durable.
pub async fn commit(db: &impl ConnectionTrait, hold: &Hold, debit: &Debit<'_>) -> Result<Option<Balance>, DbError> {
    let stmt = Statement::from_sql_and_values(
        DatabaseBackend::Postgres,
        COMMIT,
        [
            hold.id.into(),
            hold.account_id.into(),
            hold.month.to_string().into(),
            debit.api_key_id.into(),
            debit.request_id.into(),
            debit.bytes.into(),
            debit.now_ms.into(),
        ],
    );
    let Some(row) = db.query_one(stmt).await.map_err(at_statement)? else { return Ok(None) };
    Ok(Some(Balance { used: row.try_get("", "used")?, reserved: row.try_get("", "reserved")? }))
}
