//! The first schema: accounts, API keys, monthly usage, reservations and ledger entries.

use sea_orm_migration::prelude::*;

use crate::columns::{big, id, text};

/// Creates the ledger tables and their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden, Clone, Copy)]
enum Accounts {
    Table,
    Id,
    Name,
    Plan,
    MonthlyCredits,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum ApiKeys {
    Table,
    Id,
    AccountId,
    Prefix,
    KeyHash,
    CreatedAt,
    RevokedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MonthlyUsage {
    Table,
    Id,
    AccountId,
    Month,
    Used,
    Reserved,
}

#[derive(DeriveIden, Clone, Copy)]
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

#[derive(DeriveIden, Clone, Copy)]
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

/// A table whose rows belong to an account (deleted with it).
fn account_table<T: IntoIden + Copy + 'static>(table: T, id_col: T, account_col: T, cols: Vec<ColumnDef>) -> TableCreateStatement {
    let mut t = Table::create();
    t.table(table).if_not_exists().col(id(id_col)).col(big(account_col));
    for c in cols {
        t.col(c);
    }
    t.foreign_key(
        ForeignKey::create()
            .from(table, account_col)
            .to(Accounts::Table, Accounts::Id)
            .on_delete(ForeignKeyAction::Cascade),
    )
    .to_owned()
}

fn index<T: IntoIden + Copy + 'static>(name: &str, table: T, cols: &[T], unique: bool) -> IndexCreateStatement {
    let mut i = Index::create();
    i.name(name).table(table).if_not_exists();
    for &c in cols {
        i.col(c);
    }
    if unique {
        i.unique();
    }
    i.to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ApiKeys as K;
        use LedgerEntries as L;
        use MonthlyUsage as U;
        use Reservations as R;
        manager
            .create_table(
                Table::create()
                    .table(Accounts::Table)
                    .if_not_exists()
                    .col(id(Accounts::Id))
                    .col(text(Accounts::Name).unique_key())
                    .col(text(Accounts::Plan))
                    .col(big(Accounts::MonthlyCredits))
                    .col(big(Accounts::CreatedAt))
                    .to_owned(),
            )
            .await?;
        let key_cols = vec![
            text(K::Prefix),
            text(K::KeyHash).unique_key().to_owned(),
            big(K::CreatedAt),
            ColumnDef::new(K::RevokedAt).big_integer().null().to_owned(),
        ];
        manager.create_table(account_table(K::Table, K::Id, K::AccountId, key_cols)).await?;
        manager.create_index(index("idx_api_keys_prefix", K::Table, &[K::Prefix], false)).await?;
        let usage_cols = vec![
            text(U::Month),
            big(U::Used).default(0).to_owned(),
            big(U::Reserved).default(0).to_owned(),
        ];
        manager.create_table(account_table(U::Table, U::Id, U::AccountId, usage_cols)).await?;
        manager
            .create_index(index("idx_monthly_usage_account_month", U::Table, &[U::AccountId, U::Month], true))
            .await?;
        let hold_cols = vec![text(R::Month), big(R::Credits), text(R::RequestId), big(R::CreatedAt), big(R::ExpiresAt)];
        manager.create_table(account_table(R::Table, R::Id, R::AccountId, hold_cols)).await?;
        manager.create_index(index("idx_reservations_expires_at", R::Table, &[R::ExpiresAt], false)).await?;
        let entry_cols = vec![
            big(L::ApiKeyId),
            text(L::RequestId),
            text(L::Month),
            big(L::Bytes),
            big(L::Credits),
            big(L::CreatedAt),
        ];
        manager.create_table(account_table(L::Table, L::Id, L::AccountId, entry_cols)).await?;
        manager
            .create_index(index("idx_ledger_entries_account_month", L::Table, &[L::AccountId, L::Month], false))
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
