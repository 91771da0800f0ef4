//! Credits used and held per account and calendar month: the row the conditional debit
//! updates (`used + reserved + n <= limit`).

use sea_orm::entity::prelude::*;

/// A row of `monthly_usage`, unique per (account, month).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "monthly_usage")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    /// `YYYY-MM`, UTC.
    pub month: String,
    /// Credits committed this month: always the sum of the month's ledger entries.
    pub used: i64,
    /// Credits held by renders in flight.
    pub reserved: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
