//! An account: a customer with a plan and a monthly credit allowance.

use sea_orm::entity::prelude::*;

/// A row of `accounts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "accounts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Unique, chosen by the operator.
    #[sea_orm(unique)]
    pub name: String,
    /// `paid` or `free`; only paid accounts may convert.
    pub plan: String,
    /// Credits per calendar month (UTC).
    pub monthly_credits: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
