//! sea-orm migrations of the docx2pdf ledger; the same migrations serve SQLite and
//! PostgreSQL, and every command that opens the database applies them.

pub use sea_orm_migration::prelude::*;

mod columns;
mod m20261121_000001_create_ledger;
mod m20261125_000001_account_web;

/// All migrations, in order.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_create_ledger::Migration),
            Box::new(m20261125_000001_account_web::Migration),
        ]
    }
}
