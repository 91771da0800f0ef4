//! API keys: issue (stored as a hash, with an optional name), list, revoke, authenticate,
//! and note their last use.

use entity::{account, api_key};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};

use super::{accounts, DbError};
use crate::keys;

/// Most characters of a key's name.
pub const MAX_NAME_CHARS: usize = 64;

/// How stale "last used" may be before a request writes it again.
pub const LAST_USED_EVERY_MS: i64 = 60_000;

/// A key issued just now: its text is shown once and never stored.
#[derive(Debug, Clone)]
pub struct IssuedKey {
    pub text: String,
    pub prefix: String,
}

/// Issues a new key for the account named `account_name`.
pub async fn create(
    db: &impl ConnectionTrait,
    account_name: &str,
    now_ms: i64,
) -> Result<IssuedKey, DbError> {
    create_named(db, account_name, None, now_ms).await
}

/// Issues a new key called `name` for the account named `account_name`.
pub async fn create_named(
    db: &impl ConnectionTrait,
    account_name: &str,
    name: Option<&str>,
    now_ms: i64,
) -> Result<IssuedKey, DbError> {
    let account = accounts::get(db, account_name).await?;
    insert(db, account.id, name, None, now_ms).await
}

/// Issues the key a Credentials form asked for: `None` when a key was made with this
/// form's nonce already (the answer reloaded or the form sent twice). The unique index on
/// the nonce's hash decides, also between instances.
pub async fn create_from_form(
    db: &impl ConnectionTrait,
    account_id: i64,
    name: &str,
    nonce: &str,
    now_ms: i64,
) -> Result<Option<IssuedKey>, DbError> {
    match insert(db, account_id, Some(name), Some(crate::tokens::digest(nonce)), now_ms).await {
        Ok(key) => Ok(Some(key)),
        Err(DbError::Database(e)) if matches!(e.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn insert(
    db: &impl ConnectionTrait,
    account_id: i64,
    name: Option<&str>,
    form_nonce_hash: Option<String>,
    now_ms: i64,
) -> Result<IssuedKey, DbError> {
    if let Some(name) = name {
        if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS {
            return Err(DbError::KeyName(format!("a key name has 1 to {MAX_NAME_CHARS} characters")));
        }
    }
    let key = keys::generate()?;
    api_key::ActiveModel {
        account_id: Set(account_id),
        prefix: Set(key.prefix.clone()),
        key_hash: Set(key.hash),
        created_at: Set(now_ms),
        revoked_at: Set(None),
        name: Set(name.map(|n| n.trim().to_owned())),
        last_used_at: Set(None),
        form_nonce_hash: Set(form_nonce_hash),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(IssuedKey { text: key.text, prefix: key.prefix })
}

/// The keys of an account by its id, oldest first.
pub async fn of_account(db: &impl ConnectionTrait, account_id: i64) -> Result<Vec<api_key::Model>, DbError> {
    Ok(api_key::Entity::find()
        .filter(api_key::Column::AccountId.eq(account_id))
        .order_by_asc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// Revokes the key `key_id` of the account `account_id`; `None` when the account has no
/// such key. Revoking a revoked key keeps its first date.
pub async fn revoke_own(
    db: &impl ConnectionTrait,
    account_id: i64,
    key_id: i64,
    now_ms: i64,
) -> Result<Option<api_key::Model>, DbError> {
    api_key::Entity::update_many()
        .col_expr(api_key::Column::RevokedAt, Expr::value(now_ms))
        .filter(api_key::Column::Id.eq(key_id))
        .filter(api_key::Column::AccountId.eq(account_id))
        .filter(api_key::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(api_key::Entity::find_by_id(key_id).filter(api_key::Column::AccountId.eq(account_id)).one(db).await?)
}

/// Notes that `key` authenticated a request at `now_ms`, unless that was noted less than a
/// minute ago: the check is on the row just read, and the update is conditional, so
/// instances racing on one key write it once.
pub async fn note_use(db: &impl ConnectionTrait, key: &api_key::Model, now_ms: i64) -> Result<(), DbError> {
    if !needs_use_noted(key, now_ms) {
        return Ok(());
    }
    api_key::Entity::update_many()
        .col_expr(api_key::Column::LastUsedAt, Expr::value(now_ms))
        .filter(api_key::Column::Id.eq(key.id))
        .filter(
            Condition::any()
                .add(api_key::Column::LastUsedAt.is_null())
                .add(api_key::Column::LastUsedAt.lte(now_ms - LAST_USED_EVERY_MS)),
        )
        .exec(db)
        .await?;
    Ok(())
}

/// Whether a request at `now_ms` should write the key's "last used".
pub fn needs_use_noted(key: &api_key::Model, now_ms: i64) -> bool {
    key.last_used_at.is_none_or(|at| at <= now_ms - LAST_USED_EVERY_MS)
}

/// The keys of an account, oldest first.
pub async fn list(db: &impl ConnectionTrait, account_name: &str) -> Result<Vec<api_key::Model>, DbError> {
    let account = accounts::get(db, account_name).await?;
    Ok(api_key::Entity::find()
        .filter(api_key::Column::AccountId.eq(account.id))
        .order_by_asc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// Revokes the one active key with this prefix. Takes effect for the next request, also in
/// servers already running (they look keys up on every request).
pub async fn revoke(db: &impl ConnectionTrait, prefix: &str, now_ms: i64) -> Result<api_key::Model, DbError> {
    let mut found = api_key::Entity::find()
        .filter(api_key::Column::Prefix.eq(prefix))
        .filter(api_key::Column::RevokedAt.is_null())
        .all(db)
        .await?;
    let row = match found.len() {
        1 => found.remove(0),
        0 => return Err(DbError::KeyPrefix(format!("no active key has the prefix {prefix:?}"))),
        n => return Err(DbError::KeyPrefix(format!("{n} active keys share the prefix {prefix:?}"))),
    };
    let mut active: api_key::ActiveModel = row.into();
    active.revoked_at = Set(Some(now_ms));
    Ok(active.update(db).await?)
}

/// The active key whose hash matches `text`, with its account. The lookup is by hash, so
/// the key text is never compared and its timing cannot leak.
pub async fn authenticate(
    db: &impl ConnectionTrait,
    text: &str,
) -> Result<Option<(api_key::Model, account::Model)>, DbError> {
    let hash = keys::hash(text);
    // One query (a join) rather than the key and then its account: every request makes it.
    let found = api_key::Entity::find()
        .filter(api_key::Column::KeyHash.eq(hash))
        .filter(api_key::Column::RevokedAt.is_null())
        .find_also_related(account::Entity)
        .one(db)
        .await?;
    Ok(found.and_then(|(key, account)| account.map(|a| (key, a))))
}
