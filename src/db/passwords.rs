//! Account holders' password hashes and the per-name back-off after wrong passwords.
//!
//! The back-off lives in the database, so it holds across instances: after
//! [`FREE_FAILURES`] wrong passwords in a row for one name, every further one blocks that
//! name for twice as long as the one before, from 30 seconds up to 15 minutes; a right
//! password clears it, and a count left alone for a day starts again. It is kept by the
//! name as typed, whether an account has it or not, so it does not tell which names exist.

use entity::{account, account_password, sign_in_throttle};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use super::DbError;

/// Wrong passwords in a row allowed before the back-off starts.
pub const FREE_FAILURES: i64 = 5;

/// The first block; each further failure doubles it.
const FIRST_BLOCK_MS: i64 = 30_000;

/// The longest block.
const LONGEST_BLOCK_MS: i64 = 15 * 60_000;

/// A count untouched this long starts again from zero (and its row is deleted, so names
/// typed once do not pile up).
pub const FORGET_AFTER_MS: i64 = 24 * 60 * 60_000;

/// Longest name stored as typed; a longer one is kept as its SHA-256, so the table's rows
/// stay small and no name escapes the back-off.
const MAX_NAME: usize = 256;

/// The row key of a name typed.
fn throttle_key(name: &str) -> String {
    if name.len() > MAX_NAME {
        crate::keys::hash(name)
    } else {
        name.to_owned()
    }
}

/// The account named `name` and its password hash, when they exist. An unknown name
/// costs the same two queries as a known one.
pub async fn find(db: &impl ConnectionTrait, name: &str) -> Result<Option<(account::Model, Option<String>)>, DbError> {
    let account = super::accounts::find(db, name).await?;
    let password = account_password::Entity::find()
        .filter(account_password::Column::AccountId.eq(account.as_ref().map_or(-1, |a| a.id)))
        .one(db)
        .await?
        .map(|p| p.password_hash);
    Ok(account.map(|a| (a, password)))
}

/// Until when sign-in for `name` is refused, if it is at `now_ms`.
pub async fn blocked_until(db: &impl ConnectionTrait, name: &str, now_ms: i64) -> Result<Option<i64>, DbError> {
    let row = sign_in_throttle::Entity::find().filter(sign_in_throttle::Column::Name.eq(throttle_key(name))).one(db).await?;
    Ok(row.map(|r| r.blocked_until).filter(|&until| until > now_ms))
}

/// The block that follows the `failures`-th wrong password in a row, in milliseconds.
pub fn block_after(failures: i64) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    let doublings = (failures - FREE_FAILURES).min(10) as u32;
    (FIRST_BLOCK_MS << doublings).min(LONGEST_BLOCK_MS)
}

/// Counts a wrong password for `name`; returns the failures in a row. One statement (an
/// upsert), so concurrent failures on several instances all count.
pub async fn record_failure(db: &impl ConnectionTrait, name: &str, now_ms: i64) -> Result<i64, DbError> {
    let name = &throttle_key(name);
    sign_in_throttle::Entity::delete_many()
        .filter(sign_in_throttle::Column::UpdatedAt.lt(now_ms - FORGET_AFTER_MS))
        .filter(sign_in_throttle::Column::BlockedUntil.lt(now_ms))
        .exec(db)
        .await?;
    sign_in_throttle::Entity::insert(sign_in_throttle::ActiveModel {
        name: Set(name.to_owned()),
        failures: Set(1),
        blocked_until: Set(0),
        updated_at: Set(now_ms),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(sign_in_throttle::Column::Name)
            .value(sign_in_throttle::Column::Failures, Expr::col((sign_in_throttle::Entity, sign_in_throttle::Column::Failures)).add(1))
            .value(sign_in_throttle::Column::UpdatedAt, now_ms)
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    let failures = sign_in_throttle::Entity::find()
        .filter(sign_in_throttle::Column::Name.eq(name))
        .one(db)
        .await?
        .map_or(1, |r| r.failures);
    let block = block_after(failures);
    if block > 0 {
        sign_in_throttle::Entity::update_many()
            .col_expr(sign_in_throttle::Column::BlockedUntil, Expr::value(now_ms + block))
            .filter(sign_in_throttle::Column::Name.eq(name))
            .exec(db)
            .await?;
    }
    Ok(failures)
}

/// Clears the back-off of `name` after a right password.
pub async fn clear(db: &impl ConnectionTrait, name: &str) -> Result<(), DbError> {
    sign_in_throttle::Entity::delete_many().filter(sign_in_throttle::Column::Name.eq(throttle_key(name))).exec(db).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_kept_by_their_hash() {
        assert_eq!(throttle_key("acme"), "acme");
        let long = "n".repeat(300);
        assert_eq!(throttle_key(&long).len(), 64);
        assert_eq!(throttle_key(&long), throttle_key(&long));
    }

    #[test]
    fn the_block_starts_after_five_failures_and_doubles_up_to_fifteen_minutes() {
        assert_eq!(block_after(4), 0);
        assert_eq!(block_after(5), 30_000);
        assert_eq!(block_after(6), 60_000);
        assert_eq!(block_after(9), 480_000);
        assert_eq!(block_after(10), 900_000);
        assert_eq!(block_after(100), 900_000);
    }
}
