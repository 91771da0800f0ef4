//! A signed-in browser: the hash of its cookie's token and its two expiries.

use sea_orm::entity::prelude::*;

/// A row of `web_sessions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "web_sessions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    /// Lower-case hex SHA-256 of the cookie's token.
    #[sea_orm(unique)]
    pub token_hash: String,
    pub created_at: i64,
    /// The last request seen, written at most once a minute: the idle expiry counts from it.
    pub last_seen_at: i64,
    /// The absolute expiry, however active the session.
    pub expires_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The account signed in: every page reads both in one query.
    #[sea_orm(belongs_to = "super::account::Entity", from = "Column::AccountId", to = "super::account::Column::Id")]
    Account,
}

impl Related<super::account::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Account.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
