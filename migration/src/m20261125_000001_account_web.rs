//! The account holder's web application: key names and last use, one-time sign-in links,
//! passwords, sessions and the per-name sign-in back-off.

use sea_orm_migration::prelude::*;

use crate::columns::{big, id, text};

/// Adds the key columns and the four tables of the account pages.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden, Clone, Copy)]
enum Accounts {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum ApiKeys {
    Table,
    Name,
    LastUsedAt,
    FormNonceHash,
}

#[derive(DeriveIden, Clone, Copy)]
enum SignInLinks {
    Table,
    Id,
    AccountId,
    TokenHash,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum AccountPasswords {
    Table,
    Id,
    AccountId,
    PasswordHash,
    ChangedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum WebSessions {
    Table,
    Id,
    AccountId,
    TokenHash,
    CreatedAt,
    LastSeenAt,
    ExpiresAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum SignInThrottles {
    Table,
    Id,
    Name,
    Failures,
    BlockedUntil,
    UpdatedAt,
}

/// The foreign key from `table.col` to `accounts.id`, deleted with the account.
fn to_account<T: IntoIden + Copy + 'static>(table: T, col: T) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(table, col).to(Accounts::Table, Accounts::Id).on_delete(ForeignKeyAction::Cascade).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ApiKeys as K;
        // SQLite adds one column per ALTER TABLE.
        for col in [
            ColumnDef::new(K::Name).string().null().to_owned(),
            ColumnDef::new(K::LastUsedAt).big_integer().null().to_owned(),
            ColumnDef::new(K::FormNonceHash).string().null().to_owned(),
        ] {
            manager.alter_table(Table::alter().table(K::Table).add_column(col).to_owned()).await?;
        }
        // Both engines let a unique index hold many NULLs: keys made by the CLI have none.
        manager
            .create_index(
                Index::create().name("idx_api_keys_form_nonce").table(K::Table).col(K::FormNonceHash).unique().to_owned(),
            )
            .await?;

        use SignInLinks as L;
        manager
            .create_table(
                Table::create()
                    .table(L::Table)
                    .col(id(L::Id))
                    .col(big(L::AccountId))
                    .col(text(L::TokenHash).unique_key().to_owned())
                    .col(big(L::CreatedAt))
                    .col(big(L::ExpiresAt))
                    .col(ColumnDef::new(L::UsedAt).big_integer().null())
                    .foreign_key(&mut to_account(L::Table, L::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_sign_in_links_account").table(L::Table).col(L::AccountId).to_owned())
            .await?;

        use AccountPasswords as P;
        manager
            .create_table(
                Table::create()
                    .table(P::Table)
                    .col(id(P::Id))
                    .col(big(P::AccountId).unique_key().to_owned())
                    .col(text(P::PasswordHash))
                    .col(big(P::ChangedAt))
                    .foreign_key(&mut to_account(P::Table, P::AccountId))
                    .to_owned(),
            )
            .await?;

        use WebSessions as S;
        manager
            .create_table(
                Table::create()
                    .table(S::Table)
                    .col(id(S::Id))
                    .col(big(S::AccountId))
                    .col(text(S::TokenHash).unique_key().to_owned())
                    .col(big(S::CreatedAt))
                    .col(big(S::LastSeenAt))
                    .col(big(S::ExpiresAt))
                    .foreign_key(&mut to_account(S::Table, S::AccountId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_web_sessions_account").table(S::Table).col(S::AccountId).to_owned())
            .await?;

        use SignInThrottles as T;
        manager
            .create_table(
                Table::create()
                    .table(T::Table)
                    .col(id(T::Id))
                    .col(text(T::Name).unique_key().to_owned())
                    .col(big(T::Failures).default(0).to_owned())
                    .col(big(T::BlockedUntil).default(0).to_owned())
                    .col(big(T::UpdatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            SignInThrottles::Table.into_iden(),
            WebSessions::Table.into_iden(),
            AccountPasswords::Table.into_iden(),
            SignInLinks::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        manager.drop_index(Index::drop().name("idx_api_keys_form_nonce").table(ApiKeys::Table).to_owned()).await?;
        for col in [ApiKeys::FormNonceHash, ApiKeys::LastUsedAt, ApiKeys::Name] {
            manager.alter_table(Table::alter().table(ApiKeys::Table).drop_column(col).to_owned()).await?;
        }
        Ok(())
    }
}
