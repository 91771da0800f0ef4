//! Accounts: create, list, change plan or allowance, look up by name.

use entity::account;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, Set,
};

use super::DbError;

/// The plans an account can be on; the API serves paid plans only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Plan {
    Paid,
    Free,
}

impl Plan {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Paid => "paid",
            Plan::Free => "free",
        }
    }
}

/// Creates an account.
pub async fn create(
    db: &impl ConnectionTrait,
    name: &str,
    plan: Plan,
    monthly_credits: i64,
    now_ms: i64,
) -> Result<account::Model, DbError> {
    if find(db, name).await?.is_some() {
        return Err(DbError::AccountExists(name.to_owned()));
    }
    let row = account::ActiveModel {
        name: Set(name.to_owned()),
        plan: Set(plan.as_str().to_owned()),
        monthly_credits: Set(monthly_credits),
        created_at: Set(now_ms),
        ..Default::default()
    };
    // Another process may create the same name between the check and the insert; the
    // unique index then decides, and the loser hears the same error as above.
    row.insert(db).await.map_err(|e| match e.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => DbError::AccountExists(name.to_owned()),
        _ => DbError::Database(e),
    })
}

/// The account named `name`, if any.
pub async fn find(db: &impl ConnectionTrait, name: &str) -> Result<Option<account::Model>, DbError> {
    Ok(account::Entity::find().filter(account::Column::Name.eq(name)).one(db).await?)
}

/// The account named `name`, or an error naming it.
pub async fn get(db: &impl ConnectionTrait, name: &str) -> Result<account::Model, DbError> {
    find(db, name).await?.ok_or_else(|| DbError::NoSuchAccount(name.to_owned()))
}

/// Every account, by name.
pub async fn list(db: &impl ConnectionTrait) -> Result<Vec<account::Model>, DbError> {
    Ok(account::Entity::find().order_by_asc(account::Column::Name).all(db).await?)
}

/// How many accounts exist.
pub async fn count(db: &impl ConnectionTrait) -> Result<u64, DbError> {
    Ok(account::Entity::find().count(db).await?)
}

/// Changes an account's plan and/or allowance; effective for the next request.
pub async fn update(
    db: &impl ConnectionTrait,
    name: &str,
    plan: Option<Plan>,
    monthly_credits: Option<i64>,
) -> Result<account::Model, DbError> {
    let mut row: account::ActiveModel = get(db, name).await?.into();
    if let Some(plan) = plan {
        row.plan = Set(plan.as_str().to_owned());
    }
    if let Some(credits) = monthly_credits {
        row.monthly_credits = Set(credits);
    }
    Ok(row.update(db).await?)
}
