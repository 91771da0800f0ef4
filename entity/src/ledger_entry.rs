//! A ledger entry: one committed debit, the record behind every credit spent.

use sea_orm::entity::prelude::*;

/// A row of `ledger_entries`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ledger_entries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    pub api_key_id: i64,
    pub request_id: String,
    /// `YYYY-MM`, UTC: the month the credits count against.
    pub month: String,
    /// Size of the uploaded file part.
    pub bytes: i64,
    pub credits: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
