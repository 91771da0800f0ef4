//! Signed-in browsers. The cookie holds a random token; the database only its SHA-256, an
//! idle expiry (counted from the last request, written at most once a minute) and an
//! absolute one. Every instance reads them from the database, so a session made on one
//! works on all and ends on all at once.

use entity::{account, web_session};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use super::DbError;
use crate::tokens;

/// How long a session lasts without a request.
pub const IDLE_MS: i64 = 30 * 60_000;

/// How long a session lasts at most, however active.
pub const ABSOLUTE_MS: i64 = 12 * 60 * 60_000;

/// How stale `last_seen_at` may be before a request writes it again.
const TOUCH_EVERY_MS: i64 = 60_000;

/// A session found by its token.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: i64,
    pub account: account::Model,
}

/// Starts a session for `account_id`; returns the token for the cookie. The account's
/// expired sessions are deleted on the way, so those never presented again do not pile up.
pub async fn start(db: &impl ConnectionTrait, account_id: i64, now_ms: i64) -> Result<String, DbError> {
    let token = tokens::generate()?;
    web_session::Entity::delete_many()
        .filter(web_session::Column::AccountId.eq(account_id))
        .filter(
            Condition::any()
                .add(web_session::Column::ExpiresAt.lte(now_ms))
                .add(web_session::Column::LastSeenAt.lte(now_ms - IDLE_MS)),
        )
        .exec(db)
        .await?;
    web_session::ActiveModel {
        account_id: Set(account_id),
        token_hash: Set(tokens::digest(&token)),
        created_at: Set(now_ms),
        last_seen_at: Set(now_ms),
        expires_at: Set(now_ms + ABSOLUTE_MS),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(token)
}

/// The live session of `token` at `now_ms`, with its account. An expired one is deleted.
pub async fn find(db: &impl ConnectionTrait, token: &str, now_ms: i64) -> Result<Option<Session>, DbError> {
    if !tokens::looks_like_token(token) {
        return Ok(None);
    }
    let found = web_session::Entity::find()
        .filter(web_session::Column::TokenHash.eq(tokens::digest(token)))
        .find_also_related(account::Entity)
        .one(db)
        .await?;
    let Some((session, Some(account))) = found else { return Ok(None) };
    if session.expires_at <= now_ms || session.last_seen_at + IDLE_MS <= now_ms {
        web_session::Entity::delete_by_id(session.id).exec(db).await?;
        return Ok(None);
    }
    if session.last_seen_at + TOUCH_EVERY_MS <= now_ms {
        web_session::Entity::update_many()
            .col_expr(web_session::Column::LastSeenAt, Expr::value(now_ms))
            .filter(web_session::Column::Id.eq(session.id))
            .exec(db)
            .await?;
    }
    Ok(Some(Session { id: session.id, account }))
}

/// Ends the session of `token`, if there is one.
pub async fn end(db: &impl ConnectionTrait, token: &str) -> Result<(), DbError> {
    if tokens::looks_like_token(token) {
        web_session::Entity::delete_many()
            .filter(web_session::Column::TokenHash.eq(tokens::digest(token)))
            .exec(db)
            .await?;
    }
    Ok(())
}
