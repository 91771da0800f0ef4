//! The credit ledger in the database. A debit is a conditional UPDATE of the month's usage
//! row (`used + reserved + n <= limit`), so the allowance holds across processes; every
//! committed debit is a ledger entry, and `used` is always the sum of the month's entries.
//!
//! Why one statement is exact on PostgreSQL at READ COMMITTED (the default): the UPDATE
//! takes the row lock; a concurrent UPDATE of the same row waits for it, and once the first
//! transaction commits PostgreSQL re-evaluates the WHERE clause on the new row version
//! (manual, "Transaction Isolation", 13.2.1) — so the second debit sees the first one's
//! credits and is refused if they no longer fit. SQLite takes the database write lock for
//! the whole transaction, which serializes writers outright. Every transaction here is run
//! through [`retrying`], which repeats it after a deadlock or serialization failure.
//! On PostgreSQL the hold and the debit are single statements (`usage_pg.rs`).

use entity::{ledger_entry, monthly_usage, reservation};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, TransactionTrait,
};

use super::retry::{at_commit, retrying};
use super::usage_pg;
use super::wal_flush::WalFlush;
use super::DbError;
use crate::credits::Month;

/// Credits held for one render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    /// The reservation row.
    pub id: i64,
    pub account_id: i64,
    pub month: Month,
    pub credits: i64,
}

/// A month's figures for an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    /// Committed credits (sum of the month's ledger entries).
    pub used: i64,
    /// Credits held by renders in flight.
    pub reserved: i64,
}

impl Balance {
    /// What can still be spent this month under `limit`, never negative.
    pub fn available(self, limit: i64) -> i64 {
        (limit - self.used - self.reserved).max(0)
    }
}

/// What a hold request came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HoldOutcome {
    Held(Hold),
    /// Not enough credits; the balance at the time of the refusal.
    Refused(Balance),
}

/// One committed debit, for the record.
#[derive(Debug, Clone)]
pub struct Debit<'a> {
    pub api_key_id: i64,
    pub request_id: &'a str,
    pub bytes: i64,
    pub now_ms: i64,
}

fn usage_row(account_id: i64, month: Month) -> monthly_usage::ActiveModel {
    monthly_usage::ActiveModel {
        account_id: Set(account_id),
        month: Set(month.to_string()),
        used: Set(0),
        reserved: Set(0),
        ..Default::default()
    }
}

/// Makes sure the (account, month) usage row exists. `ON CONFLICT DO NOTHING` on the unique
/// (account, month) index makes this race-free: processes creating the row at once all
/// succeed and exactly one row results.
async fn ensure_row(db: &impl ConnectionTrait, account_id: i64, month: Month) -> Result<(), DbError> {
    monthly_usage::Entity::insert(usage_row(account_id, month))
        .on_conflict(
            OnConflict::columns([monthly_usage::Column::AccountId, monthly_usage::Column::Month])
                .do_nothing()
                .to_owned(),
        )
        .do_nothing()
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The month's balance of an account (zero when nothing happened yet).
pub async fn balance(db: &impl ConnectionTrait, account_id: i64, month: Month) -> Result<Balance, DbError> {
    let row = monthly_usage::Entity::find()
        .filter(monthly_usage::Column::AccountId.eq(account_id))
        .filter(monthly_usage::Column::Month.eq(month.to_string()))
        .one(db)
        .await?;
    Ok(balance_of(row.as_ref()))
}

/// The balance a usage row holds (zero without one).
fn balance_of(row: Option<&monthly_usage::Model>) -> Balance {
    row.map_or(Balance { used: 0, reserved: 0 }, |r| Balance { used: r.used, reserved: r.reserved })
}

/// What to hold, against which allowance.
#[derive(Debug, Clone)]
pub struct HoldRequest<'a> {
    pub account_id: i64,
    pub month: Month,
    /// The account's monthly allowance.
    pub limit: i64,
    pub credits: i64,
    pub request_id: &'a str,
    pub now_ms: i64,
    /// When the hold becomes stale if neither committed nor released.
    pub expires_ms: i64,
}

/// Holds credits of the month's allowance, or refuses when they are not there.
pub async fn hold(
    db: &(impl ConnectionTrait + TransactionTrait),
    req: &HoldRequest<'_>,
) -> Result<HoldOutcome, DbError> {
    if db.get_database_backend() == DatabaseBackend::Postgres {
        // One round trip when the credits fit; a refusal or the month's first request
        // takes the transaction below, which makes the row and reads the balance.
        if let Some(hold) = retrying("hold", || usage_pg::hold(db, req)).await? {
            return Ok(HoldOutcome::Held(hold));
        }
    }
    retrying("hold", || hold_once(db, req)).await
}

async fn hold_once(
    db: &(impl ConnectionTrait + TransactionTrait),
    req: &HoldRequest<'_>,
) -> Result<HoldOutcome, DbError> {
    let HoldRequest { account_id, month, limit, credits, request_id, now_ms, expires_ms } = *req;
    let txn = db.begin().await?;
    let reserve = || {
        monthly_usage::Entity::update_many()
            .col_expr(
                monthly_usage::Column::Reserved,
                Expr::col(monthly_usage::Column::Reserved).add(credits),
            )
            .filter(monthly_usage::Column::AccountId.eq(account_id))
            .filter(monthly_usage::Column::Month.eq(month.to_string()))
            .filter(
                Expr::col(monthly_usage::Column::Used)
                    .add(Expr::col(monthly_usage::Column::Reserved))
                    .add(credits)
                    .lte(limit),
            )
            .exec(&txn)
    };
    let mut updated = reserve().await?;
    if updated.rows_affected == 0 {
        // The month's first request (no row yet), or an allowance that is spent. The row
        // is made only here: inserting it on every request, even as a no-op ON CONFLICT,
        // wrote a page to SQLite's WAL and cost an fsync per request (strace).
        ensure_row(&txn, account_id, month).await?;
        updated = reserve().await?;
    }
    if updated.rows_affected == 0 {
        let current = balance(&txn, account_id, month).await?;
        txn.rollback().await?;
        return Ok(HoldOutcome::Refused(current));
    }
    let row = reservation::ActiveModel {
        account_id: Set(account_id),
        month: Set(month.to_string()),
        credits: Set(credits),
        request_id: Set(request_id.to_owned()),
        created_at: Set(now_ms),
        expires_at: Set(expires_ms),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await.map_err(at_commit)?;
    Ok(HoldOutcome::Held(Hold { id: row.id, account_id, month, credits }))
}

/// Turns a hold into a ledger entry. Returns the month's balance after it, or `None` when
/// the hold no longer exists (released as stale), in which case nothing is charged.
pub async fn commit(
    db: &(impl ConnectionTrait + TransactionTrait),
    hold: &Hold,
    debit: Debit<'_>,
) -> Result<Option<Balance>, DbError> {
    let after = commit_written(db, hold, debit).await?;
    WalFlush::default().durable(db).await?;
    Ok(after)
}

/// [`commit`] without waiting for the disk on PostgreSQL: the caller answers only after
/// [`WalFlush::durable`], which it may share with other debits (group commit).
pub async fn commit_written(
    db: &(impl ConnectionTrait + TransactionTrait),
    hold: &Hold,
    debit: Debit<'_>,
) -> Result<Option<Balance>, DbError> {
    if db.get_database_backend() == DatabaseBackend::Postgres {
        return retrying("commit", || usage_pg::commit(db, hold, &debit)).await;
    }
    retrying("commit", || commit_once(db, hold, &debit)).await
}

async fn commit_once(
    db: &(impl ConnectionTrait + TransactionTrait),
    hold: &Hold,
    debit: &Debit<'_>,
) -> Result<Option<Balance>, DbError> {
    let txn = db.begin().await?;
    let deleted = reservation::Entity::delete_by_id(hold.id).exec(&txn).await?;
    if deleted.rows_affected == 0 {
        txn.rollback().await?;
        return Ok(None);
    }
    // RETURNING (SQLite 3.35+, PostgreSQL) gives the balance after the debit without a
    // second query.
    let after = monthly_usage::Entity::update_many()
        .col_expr(
            monthly_usage::Column::Reserved,
            Expr::col(monthly_usage::Column::Reserved).sub(hold.credits),
        )
        .col_expr(monthly_usage::Column::Used, Expr::col(monthly_usage::Column::Used).add(hold.credits))
        .filter(monthly_usage::Column::AccountId.eq(hold.account_id))
        .filter(monthly_usage::Column::Month.eq(hold.month.to_string()))
        .exec_with_returning(&txn)
        .await?;
    let after = balance_of(after.first());
    ledger_entry::ActiveModel {
        account_id: Set(hold.account_id),
        api_key_id: Set(debit.api_key_id),
        request_id: Set(debit.request_id.to_owned()),
        month: Set(hold.month.to_string()),
        bytes: Set(debit.bytes),
        credits: Set(hold.credits),
        created_at: Set(debit.now_ms),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await.map_err(at_commit)?;
    Ok(Some(after))
}

/// Gives a hold back. Releasing a hold twice is harmless.
pub async fn release(db: &(impl ConnectionTrait + TransactionTrait), hold: &Hold) -> Result<(), DbError> {
    retrying("release", || release_once(db, hold)).await
}

async fn release_once(db: &(impl ConnectionTrait + TransactionTrait), hold: &Hold) -> Result<(), DbError> {
    let txn = db.begin().await?;
    let deleted = reservation::Entity::delete_by_id(hold.id).exec(&txn).await?;
    if deleted.rows_affected == 1 {
        monthly_usage::Entity::update_many()
            .col_expr(
                monthly_usage::Column::Reserved,
                Expr::col(monthly_usage::Column::Reserved).sub(hold.credits),
            )
            .filter(monthly_usage::Column::AccountId.eq(hold.account_id))
            .filter(monthly_usage::Column::Month.eq(hold.month.to_string()))
            .exec(&txn)
            .await?;
    }
    txn.commit().await.map_err(at_commit)?;
    Ok(())
}

/// Releases the holds whose expiry has passed (left behind by a crashed process).
/// Returns how many were released.
pub async fn release_expired(db: &(impl ConnectionTrait + TransactionTrait), now_ms: i64) -> Result<usize, DbError> {
    let stale = reservation::Entity::find()
        .filter(reservation::Column::ExpiresAt.lt(now_ms))
        .all(db)
        .await?;
    let mut released = 0;
    for row in stale {
        let Some(month) = Month::parse(&row.month) else { continue };
        release(db, &Hold { id: row.id, account_id: row.account_id, month, credits: row.credits }).await?;
        released += 1;
    }
    Ok(released)
}

/// The month's ledger entries of an account, oldest first.
pub async fn entries(
    db: &impl ConnectionTrait,
    account_id: i64,
    month: Month,
) -> Result<Vec<ledger_entry::Model>, DbError> {
    Ok(ledger_entry::Entity::find()
        .filter(ledger_entry::Column::AccountId.eq(account_id))
        .filter(ledger_entry::Column::Month.eq(month.to_string()))
        .order_by_asc(ledger_entry::Column::Id)
        .all(db)
        .await?)
}

/// One page of the month's ledger entries of an account, newest first, with the number of
/// entries in the month. Pages count from 0.
pub async fn entries_newest_first(
    db: &impl ConnectionTrait,
    account_id: i64,
    month: Month,
    page: u64,
    per_page: u64,
) -> Result<(Vec<ledger_entry::Model>, u64), DbError> {
    let query = ledger_entry::Entity::find()
        .filter(ledger_entry::Column::AccountId.eq(account_id))
        .filter(ledger_entry::Column::Month.eq(month.to_string()));
    let total = query.clone().count(db).await?;
    let rows = query
        .order_by_desc(ledger_entry::Column::Id)
        .offset(page.saturating_mul(per_page))
        .limit(per_page)
        .all(db)
        .await?;
    Ok((rows, total))
}

/// Credits each key of an account spent in the month, by key id.
pub async fn credits_by_key(
    db: &impl ConnectionTrait,
    account_id: i64,
    month: Month,
) -> Result<std::collections::HashMap<i64, i64>, DbError> {
    let rows: Vec<(i64, Option<i64>)> = ledger_entry::Entity::find()
        .select_only()
        .column(ledger_entry::Column::ApiKeyId)
        // SUM of a BIGINT is a NUMERIC on PostgreSQL: cast back so both engines give an i64.
        .column_as(
            Expr::expr(sea_orm::sea_query::Func::cast_as(
                sea_orm::sea_query::Func::sum(Expr::col(ledger_entry::Column::Credits)),
                sea_orm::sea_query::Alias::new("BIGINT"),
            )),
            "credits",
        )
        .filter(ledger_entry::Column::AccountId.eq(account_id))
        .filter(ledger_entry::Column::Month.eq(month.to_string()))
        .group_by(ledger_entry::Column::ApiKeyId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().map(|(key, credits)| (key, credits.unwrap_or(0))).collect())
}
