//! A hold on credits while a render runs; committed into a ledger entry or released.
//! Holds older than their expiry (left by a crash) are released at start-up and periodically.

use sea_orm::entity::prelude::*;

/// A row of `reservations`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "reservations")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    /// The `monthly_usage` month the credits are held in.
    pub month: String,
    pub credits: i64,
    pub request_id: String,
    pub created_at: i64,
    /// After this instant the hold is stale and may be released.
    pub expires_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
