//! An API key, stored only as the SHA-256 hash of its text plus a display prefix.

use sea_orm::entity::prelude::*;

/// A row of `api_keys`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_keys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    /// The first 12 characters of the key, to tell keys apart in listings.
    pub prefix: String,
    /// Lower-case hex SHA-256 of the whole key.
    #[sea_orm(unique)]
    pub key_hash: String,
    pub created_at: i64,
    /// Set when revoked; a revoked key is refused at once.
    pub revoked_at: Option<i64>,
    /// What the holder called it (keys made by the CLI without `--name` have none).
    pub name: Option<String>,
    /// When a request last authenticated with it, written at most once a minute.
    pub last_used_at: Option<i64>,
    /// SHA-256 of the one-time nonce of the Credentials form that created it: a second
    /// submission of that form finds it taken instead of creating another key.
    #[sea_orm(unique)]
    pub form_nonce_hash: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The account the key belongs to: authentication reads both in one query.
    #[sea_orm(
        belongs_to = "super::account::Entity",
        from = "Column::AccountId",
        to = "super::account::Column::Id"
    )]
    Account,
}

impl Related<super::account::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Account.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
