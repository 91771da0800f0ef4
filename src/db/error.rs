//! Errors of the persistence layer.

/// Why a database operation failed.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The database could not be reached or answered with an error.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// The connection failed while a transaction was being committed, so whether it took
    /// effect is unknown (a committed debit is found in the ledger, a lost hold is released
    /// by the stale-hold sweep).
    #[error("the database connection failed while committing: {0}")]
    CommitUnknown(sea_orm::DbErr),
    /// Migrations could not be applied.
    #[error("could not apply the database migrations: {0}")]
    Migration(String),
    /// The SQLite file's folder could not be created.
    #[error("could not create the database folder {path}: {source}")]
    Folder { path: String, source: std::io::Error },
    /// No account has that name.
    #[error("no account named {0:?}")]
    NoSuchAccount(String),
    /// An account with that name exists already.
    #[error("an account named {0:?} exists already")]
    AccountExists(String),
    /// No active key has that prefix, or several do.
    #[error("{0}")]
    KeyPrefix(String),
    /// A key name is empty or too long.
    #[error("{0}")]
    KeyName(String),
    /// A key could not be generated.
    #[error(transparent)]
    Random(#[from] crate::keys::RandomError),
}
