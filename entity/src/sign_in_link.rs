//! A one-time link to an account's set-up page, stored only as the hash of its token.

use sea_orm::entity::prelude::*;

/// A row of `sign_in_links`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sign_in_links")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    /// Lower-case hex SHA-256 of the token in the link.
    #[sea_orm(unique)]
    pub token_hash: String,
    pub created_at: i64,
    /// After this instant the link no longer opens the form.
    pub expires_at: i64,
    /// Set when a password was chosen with it, or when a newer link voided it.
    pub used_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The account the link signs in.
    #[sea_orm(belongs_to = "super::account::Entity", from = "Column::AccountId", to = "super::account::Column::Id")]
    Account,
}

impl Related<super::account::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Account.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
