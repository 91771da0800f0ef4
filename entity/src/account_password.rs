//! An account holder's password, as an Argon2id PHC string.

use sea_orm::entity::prelude::*;

/// A row of `account_passwords`, at most one per account.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "account_passwords")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub account_id: i64,
    /// `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
    pub password_hash: String,
    pub changed_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
