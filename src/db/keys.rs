//! API keys: issue (stored as a hash), list by prefix, revoke, authenticate.

use entity::{account, api_key};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};

use super::{accounts, DbError};
use crate::keys;

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
    let account = accounts::get(db, account_name).await?;
    let key = keys::generate()?;
    api_key::ActiveModel {
        account_id: Set(account.id),
        prefix: Set(key.prefix.clone()),
        key_hash: Set(key.hash),
        created_at: Set(now_ms),
        revoked_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(IssuedKey { text: key.text, prefix: key.prefix })
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
