//! Wrong passwords in a row for one account name, and until when sign-in is refused.
//! Kept by the name typed, whether or not an account has it, so the back-off does not
//! tell which names exist.

use sea_orm::entity::prelude::*;

/// A row of `sign_in_throttles`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sign_in_throttles")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub name: String,
    /// Failed attempts since the last success.
    pub failures: i64,
    /// Sign-in is refused (429) before this instant.
    pub blocked_until: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
