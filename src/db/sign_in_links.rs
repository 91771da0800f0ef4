//! One-time sign-in links: issued by the operator, redeemed by choosing a password.
//! Issuing one voids the account's older links, removes its password and ends its
//! sessions: the same command is the first sign-in and the password reset.

use entity::{account, account_password, sign_in_link, web_session};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TransactionTrait};

use super::retry::at_commit;
use super::{accounts, DbError};
use crate::tokens;

/// What a link's token opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkState {
    /// The set-up form, for this account.
    Usable(account::Model),
    /// Nothing more: a password was chosen with it, or a newer link voided it.
    Used,
    /// Nothing: its time ran out.
    Expired,
    /// Nothing: no link has this token.
    Unknown,
}

/// Issues a link for the account named `name`, valid until `expires_ms`; returns its token.
pub async fn issue(
    db: &(impl ConnectionTrait + TransactionTrait),
    name: &str,
    now_ms: i64,
    expires_ms: i64,
) -> Result<String, DbError> {
    let token = tokens::generate()?;
    let txn = db.begin().await?;
    let account = accounts::get(&txn, name).await?;
    sign_in_link::Entity::update_many()
        .col_expr(sign_in_link::Column::UsedAt, now_ms.into())
        .filter(sign_in_link::Column::AccountId.eq(account.id))
        .filter(sign_in_link::Column::UsedAt.is_null())
        .exec(&txn)
        .await?;
    account_password::Entity::delete_many().filter(account_password::Column::AccountId.eq(account.id)).exec(&txn).await?;
    web_session::Entity::delete_many().filter(web_session::Column::AccountId.eq(account.id)).exec(&txn).await?;
    sign_in_link::ActiveModel {
        account_id: Set(account.id),
        token_hash: Set(tokens::digest(&token)),
        created_at: Set(now_ms),
        expires_at: Set(expires_ms),
        used_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await.map_err(at_commit)?;
    Ok(token)
}

/// What `token` opens at `now_ms`. Looking does not use the link up.
pub async fn state(db: &impl ConnectionTrait, token: &str, now_ms: i64) -> Result<LinkState, DbError> {
    if !tokens::looks_like_token(token) {
        return Ok(LinkState::Unknown);
    }
    let found = sign_in_link::Entity::find()
        .filter(sign_in_link::Column::TokenHash.eq(tokens::digest(token)))
        .find_also_related(account::Entity)
        .one(db)
        .await?;
    Ok(match found {
        None | Some((_, None)) => LinkState::Unknown,
        Some((link, _)) if link.used_at.is_some() => LinkState::Used,
        Some((link, _)) if link.expires_at <= now_ms => LinkState::Expired,
        Some((_, Some(account))) => LinkState::Usable(account),
    })
}

/// Uses the link up and stores the password hash: returns the account, or the state that
/// kept it from happening. Two submissions at once cannot both succeed: the conditional
/// update decides.
pub async fn redeem(
    db: &(impl ConnectionTrait + TransactionTrait),
    token: &str,
    password_hash: &str,
    now_ms: i64,
) -> Result<Result<account::Model, LinkState>, DbError> {
    let account = match state(db, token, now_ms).await? {
        LinkState::Usable(account) => account,
        other => return Ok(Err(other)),
    };
    let txn = db.begin().await?;
    let used = sign_in_link::Entity::update_many()
        .col_expr(sign_in_link::Column::UsedAt, now_ms.into())
        .filter(sign_in_link::Column::TokenHash.eq(tokens::digest(token)))
        .filter(sign_in_link::Column::UsedAt.is_null())
        .filter(sign_in_link::Column::ExpiresAt.gt(now_ms))
        .exec(&txn)
        .await?;
    if used.rows_affected != 1 {
        txn.rollback().await?;
        return Ok(Err(LinkState::Used));
    }
    account_password::Entity::insert(account_password::ActiveModel {
        account_id: Set(account.id),
        password_hash: Set(password_hash.to_owned()),
        changed_at: Set(now_ms),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(account_password::Column::AccountId)
            .update_columns([account_password::Column::PasswordHash, account_password::Column::ChangedAt])
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    web_session::Entity::delete_many().filter(web_session::Column::AccountId.eq(account.id)).exec(&txn).await?;
    txn.commit().await.map_err(at_commit)?;
    Ok(Ok(account))
}
