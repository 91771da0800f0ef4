//! Persistence through sea-orm: connecting (SQLite by default, PostgreSQL for several
//! instances), migrations, and the queries on accounts, keys and the credit ledger.

pub mod accounts;
pub mod connect;
pub mod error;
pub mod keys;
pub mod retry;
pub mod usage;

pub use connect::{connect, default_pool_size, pool_stats, PoolOptions, PoolStats, SqliteSync};
pub use error::DbError;
