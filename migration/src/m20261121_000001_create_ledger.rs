//! The first schema: accounts, API keys, monthly usage, reservations and ledger entries.

use sea_orm_migration::prelude::*;

/// Creates the ledger tables and their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
    Name,
    Plan,
    MonthlyCredits,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ApiKeys {
    Table,
    Id,
    AccountId,
    Prefix,
    KeyHash,
    CreatedAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum MonthlyUsage {
    Table,
    Id,
    AccountId,
    Month,
    Used,
    Reserved,
}

#[derive(DeriveIden)]
enum Reservations {
    Table,
    Id,
    AccountId,
    Month,
    Credits,
    RequestId,
    CreatedAt,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum LedgerEntries {
    Table,
    Id,
    AccountId,
    ApiKeyId,
    RequestId,
    Month,
    Bytes,
    Credits,
    CreatedAt,
}

fn id<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).big_integer().not_null().auto_increment().primary_key().to_owned()
}

fn account_fk<T: IntoIden + 'static>(table: T, col: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(table, col)
        .to(Accounts::Table, Accounts::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Accounts::Table)
                    .if_not_exists()
                    .col(id(Accounts::Id))
                    .col(ColumnDef::new(Accounts::Name).string().not_null().unique_key())
                    .col(ColumnDef::new(Accounts::Plan).string().not_null())
                    .col(ColumnDef::new(Accounts::MonthlyCredits).big_integer().not_null())
                    .col(ColumnDef::new(Accounts::CreatedAt).big_integer().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ApiKeys::Table)
                    .if_not_exists()
                    .col(id(ApiKeys::Id))
                    .col(ColumnDef::new(ApiKeys::AccountId).big_integer().not_null())
                    .col(ColumnDef::new(ApiKeys::Prefix).string().not_null())
                    .col(ColumnDef::new(ApiKeys::KeyHash).string().not_null().unique_key())
                    .col(ColumnDef::new(ApiKeys::CreatedAt).big_integer().not_null())
                    .col(ColumnDef::new(ApiKeys::RevokedAt).big_integer().null())
                    .foreign_key(&mut account_fk(ApiKeys::Table, ApiKeys::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_api_keys_prefix")
                    .table(ApiKeys::Table)
                    .col(ApiKeys::Prefix)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MonthlyUsage::Table)
                    .if_not_exists()
                    .col(id(MonthlyUsage::Id))
                    .col(ColumnDef::new(MonthlyUsage::AccountId).big_integer().not_null())
                    .col(ColumnDef::new(MonthlyUsage::Month).string().not_null())
                    .col(ColumnDef::new(MonthlyUsage::Used).big_integer().not_null().default(0))
                    .col(ColumnDef::new(MonthlyUsage::Reserved).big_integer().not_null().default(0))
                    .foreign_key(&mut account_fk(MonthlyUsage::Table, MonthlyUsage::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_monthly_usage_account_month")
                    .table(MonthlyUsage::Table)
                    .col(MonthlyUsage::AccountId)
                    .col(MonthlyUsage::Month)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Reservations::Table)
                    .if_not_exists()
                    .col(id(Reservations::Id))
                    .col(ColumnDef::new(Reservations::AccountId).big_integer().not_null())
                    .col(ColumnDef::new(Reservations::Month).string().not_null())
                    .col(ColumnDef::new(Reservations::Credits).big_integer().not_null())
                    .col(ColumnDef::new(Reservations::RequestId).string().not_null())
                    .col(ColumnDef::new(Reservations::CreatedAt).big_integer().not_null())
                    .col(ColumnDef::new(Reservations::ExpiresAt).big_integer().not_null())
                    .foreign_key(&mut account_fk(Reservations::Table, Reservations::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_reservations_expires_at")
                    .table(Reservations::Table)
                    .col(Reservations::ExpiresAt)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LedgerEntries::Table)
                    .if_not_exists()
                    .col(id(LedgerEntries::Id))
                    .col(ColumnDef::new(LedgerEntries::AccountId).big_integer().not_null())
                    .col(ColumnDef::new(LedgerEntries::ApiKeyId).big_integer().not_null())
                    .col(ColumnDef::new(LedgerEntries::RequestId).string().not_null())
                    .col(ColumnDef::new(LedgerEntries::Month).string().not_null())
                    .col(ColumnDef::new(LedgerEntries::Bytes).big_integer().not_null())
                    .col(ColumnDef::new(LedgerEntries::Credits).big_integer().not_null())
                    .col(ColumnDef::new(LedgerEntries::CreatedAt).big_integer().not_null())
                    .foreign_key(&mut account_fk(LedgerEntries::Table, LedgerEntries::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_ledger_entries_account_month")
                    .table(LedgerEntries::Table)
                    .col(LedgerEntries::AccountId)
                    .col(LedgerEntries::Month)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            LedgerEntries::Table.into_iden(),
            Reservations::Table.into_iden(),
            MonthlyUsage::Table.into_iden(),
            ApiKeys::Table.into_iden(),
            Accounts::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        Ok(())
    }
}
