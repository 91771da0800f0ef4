//! Persistence through sea-orm: connecting (SQLite by default, PostgreSQL for several
//! instances), migrations, and the queries on accounts, keys, the credit ledger, and the
//! account pages' links, passwords and sessions.

pub mod accounts;
pub mod connect;
pub mod error;
pub mod keys;
pub mod passwords;
pub mod retry;
pub mod sessions;
pub mod sign_in_links;
pub mod usage;
mod usage_pg;
pub mod wal_flush;

pub use connect::{connect, default_pool_size, pool_stats, PoolOptions, PoolStats, SqliteSync};
pub use error::DbError;
